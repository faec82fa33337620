"""POST /games/{id}/actions: the person acts, the bots reply; every refusal leaves the game
exactly as it was."""

import pytest

from games.bots import memo
from games.models import Game
from games.reads import check_replay
from tests.games.conftest import Api, bearer_api
from tests.games.helpers import a_card_not_in, error_of, stored

pytestmark = pytest.mark.django_db

DRAW = {"type": "draw", "from": "stock"}


@pytest.fixture
def game(alice) -> dict:
    return alice.new_game()


def test_a_draw_is_applied_and_returned_with_its_event(alice, game):
    response = alice.act(game, DRAW)

    assert response.status_code == 200
    body = response.json()
    after = body["game"]
    assert after["version"] == game["version"] + 1
    assert after["phase"] == "play" and len(after["hand"]) == 11
    drew = {"seat": 0, "from": "stock", "hand_size": 11, "card": body["events"][0]["data"]["card"]}
    # ``data`` alone: ``d``, its name before 2026-12-04, went on 2026-12-06.
    assert body["events"] == [{"v": after["version"], "t": "drew", "data": drew}]
    assert body["events"][0]["data"]["card"] in after["hand"]


def test_a_discard_ends_the_turn_and_the_bots_play_until_it_is_mine_again(alice, game):
    drawn = alice.act(game, DRAW).json()["game"]

    response = alice.act(drawn, {"type": "discard", "card": drawn["legal"]["discard"][0]})

    assert response.status_code == 200
    body = response.json()
    after = body["game"]
    assert after["turn"] == 0 and after["phase"] == "draw"
    assert after["version"] > drawn["version"] + 3  # my discard and three bot turns
    versions = [e["v"] for e in body["events"]]
    assert versions == sorted(versions) and versions[-1] == after["version"]
    assert versions[0] == drawn["version"] + 1
    assert {e["data"]["seat"] for e in body["events"] if e["t"] == "discarded"} >= {0, 1, 2, 3}
    assert check_replay(Game.objects.get(public_id=game["id"]))


def test_the_bots_forget_their_memo_once_they_have_played(alice):
    drawn = alice.act(alice.new_game(level="normal"), DRAW).json()["game"]
    alice.act(drawn, {"type": "discard", "card": drawn["legal"]["discard"][0]})

    # the next request is another game: the server keeps nothing, priced hands nor pile replays
    assert memo.MEMOS.outlooks == {}
    assert memo.MEMOS.pile_replays == {}


def test_an_action_takes_a_fixed_number_of_queries(alice, game, django_assert_max_num_queries):
    # the player; the locked game; the log's new rows; the game's update (+ savepoints)
    with django_assert_max_num_queries(7):
        assert alice.act(game, DRAW).status_code == 200


def refused(api: Api, game: dict, response, status: int, code: str, rule: str | None = None):
    before = stored(game["id"])
    assert response.status_code == status, response.content
    error = error_of(response)
    assert error["code"] == code
    assert error.get("rule") == rule
    assert stored(game["id"]) == before
    return error


def test_a_body_that_is_not_json_is_400(alice, game):
    before = stored(game["id"])
    response = alice.request("POST", f"/games/{game['id']}/actions", raw=b'{"version": 1,')

    assert response.status_code == 400
    assert error_of(response)["code"] == "bad_request"
    assert stored(game["id"]) == before


@pytest.mark.parametrize("body", [
    {}, {"action": {"type": "draw", "from": "stock"}}, {"version": 0}, {"version": -1,
    "action": {}}, {"version": "three", "action": {}}, {"version": 0, "action": "draw"},
    [1, 2], "just a string", None,
])
def test_a_body_of_the_wrong_shape_is_422(alice, game, body):
    before = stored(game["id"])
    import json
    response = alice.request("POST", f"/games/{game['id']}/actions", raw=json.dumps(body).encode())

    assert response.status_code == 422
    assert error_of(response)["code"] == "invalid_request"
    assert stored(game["id"]) == before


@pytest.mark.parametrize("action, code", [
    ({"type": "shuffle"}, "unknown_action"),
    ({"from": "stock"}, "unknown_action"),
    ({"type": "draw", "from": "the floor"}, "malformed_action"),
    ({"type": "discard", "card": 7}, "malformed_action"),
    ({"type": "discard", "card": "8X.1"}, "unknown_card"),
    ({"type": "discard", "card": "JK.4"}, "unknown_card"),
    ({"type": "lay_down", "melds": "7H.1 7S.1 7D.1"}, "malformed_action"),
    ({"type": "lay_down", "melds": [[]]}, "malformed_action"),
    ({"type": "lay_off", "meld": -1, "card": "7H.1"}, "malformed_action"),
    ({"type": "lay_off", "meld": 0, "card": "7H.1", "end": "middle"}, "malformed_action"),
])
def test_a_malformed_action_is_422_with_the_engines_code(alice, game, action, code):
    refused(alice, game, alice.act(game, action), 422, code)


def test_an_illegal_action_is_422_with_the_rule_it_breaks(alice, game):
    card = game["hand"][0]["id"]
    refused(alice, game, alice.act(game, {"type": "discard", "card": card}), 422,
            "draw_first", "R13")
    drawn = alice.act(game, DRAW).json()["game"]
    refused(alice, drawn, alice.act(drawn, DRAW), 422, "already_drawn", "R13")
    refused(alice, drawn, alice.act(drawn, {"type": "lay_off", "meld": 0, "card": card}), 422,
            "contract_not_laid_down", "R15")
    refused(alice, drawn, alice.act(drawn, {"type": "discard", "card": a_card_not_in(drawn)}),
            422, "card_not_in_hand")
    error = refused(alice, drawn, alice.act(drawn, {"type": "lay_down", "melds": [
        [c["id"] for c in drawn["hand"][:3]], [c["id"] for c in drawn["hand"][3:6]]]}), 422,
        error_of(alice.responses[-1])["code"], error_of(alice.responses[-1]).get("rule"))
    assert error["message"]


def test_discarding_the_card_just_taken_from_the_pile_breaks_r16(alice):
    for _ in range(20):  # find a deal whose top discard may be taken (R17)
        game = alice.new_game()
        if "discard" in game["legal"]["draw"]:
            break
    else:
        pytest.skip("no game with a takeable discard in 20 deals")
    taken = game["discard_top"]["id"]
    drawn = alice.act(game, {"type": "draw", "from": "discard"}).json()["game"]

    refused(alice, drawn, alice.act(drawn, {"type": "discard", "card": taken}), 422,
            "discard_taken_card", "R16")


def test_a_stale_version_is_409_with_the_current_game(alice, game):
    current = alice.act(game, DRAW).json()["game"]

    response = alice.act(game, DRAW, version=game["version"])

    refused(alice, game, response, 409, "stale_version")
    assert response.json()["game"] == current
    ahead = alice.act(current, DRAW, version=current["version"] + 5)
    refused(alice, current, ahead, 409, "stale_version")


def test_acting_on_someone_elses_game_is_404(alice, bob, game):
    refused(bob, game, bob.act(game, DRAW), 404, "not_found")


def test_acting_on_a_game_that_does_not_exist_is_404(alice):
    response = alice.post("/games/nope/actions", {"version": 0, "action": DRAW})

    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"


def test_acting_without_identity_is_401(nobody, alice, game):
    refused(nobody, game, nobody.act(game, DRAW), 401, "no_identity")


def test_acting_with_a_bad_token_is_401(alice, game):
    stranger = bearer_api(alice.token + "x")
    refused(stranger, game, stranger.act(game, DRAW), 401, "invalid_token")


def test_acting_on_a_finished_game_is_refused(alice, game):
    Game.objects.filter(public_id=game["id"]).update(status=Game.FINISHED)
    state = Game.objects.get(public_id=game["id"]).state
    state["phase"] = "finished"
    Game.objects.filter(public_id=game["id"]).update(state=state)

    refused(alice, game, alice.act(game, DRAW), 422, "game_over", "R22")


def test_an_action_takes_its_few_statements(alice, game):
    """The action's statements, pinned (games.services, games.web.rows): the token's player,
    the game's row (locked on PostgreSQL), its seats, and the log's rows with the snapshot
    (one statement on PostgreSQL, two on SQLite); no read of what was just written."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = alice.act(game, DRAW)
    assert response.status_code == 200
    statements = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    writes = ["WITH"] if connection.vendor == "postgresql" else ["INSERT", "UPDATE"]
    assert [s for s in statements if s not in ("SAVEPOINT", "RELEASE", "BEGIN")] == [
        "SELECT", "SELECT", "SELECT", *writes]
