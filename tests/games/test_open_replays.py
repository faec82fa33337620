"""GET /replays/{id} (a game that is over, for whoever it is open to) and GET /games's filters
and paging for the "My games" page.

Open: a practice game to its owner once it is over; a daily to everyone once it is over and
its day has ended. Closed (404, never 403, for everyone, staff included): a running day's
daily, an unfinished or expired game, someone else's practice game.
"""

from __future__ import annotations

import orjson
import pytest
from django.test import Client

from games.engine import action_from_json, apply, new_game
from games.engine.cards import card_id
from games.models import Game
from games.schemas import Replay
from games.services.daily import close_ended_days, start_daily
from games.web.renderer import dumps
from tests.factories import player_with_token
from tests.games.conftest import bearer_api
from tests.games.helpers import error_of
from tests.games.scripted import play_to_the_end
from tests.leaderboards.play import play_to_the_end as play_daily_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_practice(alice) -> dict:
    return play_to_the_end(alice, alice.new_game("easy"))


@pytest.fixture
def owner_of_a_daily():
    player, token = player_with_token()
    return player, bearer_api(token)


def finished_daily(owner) -> Game:
    return play_daily_to_the_end(start_daily(owner).game)


@pytest.fixture
def moderator_clients(django_user_model):
    """A moderator two ways: logged in to the admin (a session, no player) and with a player
    of their own tied to the staff account."""
    staff = django_user_model.objects.create_user("mod", password="pw-for-tests", is_staff=True)
    session = Client()
    session.force_login(staff)
    player, token = player_with_token()
    player.user = staff
    player.save()
    return [session, bearer_api(token).client]


def as_not_found(response) -> None:
    assert response.status_code == 404, response.content
    assert error_of(response) == {"code": "not_found", "message": "No such game."}


# --- Open ----------------------------------------------------------------------------------


def test_the_owner_watches_a_finished_practice_game(alice, finished_practice):
    response = alice.get(f"/replays/{finished_practice['id']}")

    assert response.status_code == 200
    body = response.json()
    stored = Game.objects.get(public_id=finished_practice["id"])
    assert body["seed"] == stored.seed and body["version"] == stored.version
    assert body["yours"] is True and body["mode"] == "practice" and body["daily"] is None
    assert body["table_name"] is None  # a game played alone
    assert [p["name"] for p in body["players"]][0] == alice.get("/me").json()["name"]
    assert [p["bot"] for p in body["players"]] == [False, True, True, True]
    assert body["result"] == finished_practice["result"]
    # The owner's own read answers the same replay.
    assert alice.get(f"/games/{finished_practice['id']}/replay").json() == body


def test_a_replay_answers_what_its_schema_would_write(alice, finished_practice):
    """The replay skips django-ninja's dump (games.web.renderer.json_answer): the answer must be
    what validating it against games.schemas.Replay and dumping it writes, and keep the
    API's headers."""
    for path in (f"/replays/{finished_practice['id']}",
                 f"/games/{finished_practice['id']}/replay"):
        response = alice.get(path)
        body = response.json()
        through_the_schema = Replay.model_validate(body).model_dump(by_alias=True,
                                                                    exclude_unset=True)
        assert orjson.loads(dumps(through_the_schema)) == body
        assert response["Content-Type"] == "application/json"
        assert "no-store" in response["Cache-Control"]


def test_the_events_rebuild_every_hand_at_every_version(alice, finished_practice):
    """A client that follows the events (each seat's view: ``d`` updated with its private
    part) holds, at every version, exactly the hands, melds and discard pile of the engine."""
    body = alice.get(f"/replays/{finished_practice['id']}").json()
    events = body["events"]
    assert [e["v"] for e in events] == sorted(e["v"] for e in events)
    assert events[-1]["v"] == body["version"] and events[-1]["t"] == "game_finished"
    assert sum(e["t"] == "deal_started" for e in events) == 10

    state, _ = new_game(body["seed"])
    hands: list[list[str]] = [[], [], [], []]
    table: dict[int, list[str]] = {}
    discard: list[str] = []
    by_version: dict[int, list[dict]] = {}
    for event in events:
        by_version.setdefault(event["v"], []).append(event)
    for v in range(body["version"] + 1):
        if v:
            action = body["actions"][v - 1]
            state, _ = apply(state, action["seat"], action_from_json(action["action"]))
        for event in by_version.get(v, []):
            follow(event, hands, table, discard)
        assert [sorted(h) for h in hands] == [sorted(card_id(c) for c in h)
                                              for h in state.hands], f"v{v}"
        assert [table[i] for i in range(len(table))] == [
            [card_id(c) for c in meld.meld.cards] for meld in state.table], f"v{v}"
        assert discard[-1:] == [card_id(c) for c in state.discard_pile[-1:]], f"v{v}"


def follow(event: dict, hands: list, table: dict, discard: list) -> None:
    """One event applied as a client would, every card face up."""
    data, kind = event["data"], event["t"]
    private = {part["seat"]: part["data"] for part in event.get("private", [])}
    seat = data.get("seat")
    if kind == "deal_started":
        hands[:] = [[c["id"] for c in private[s]["hand"]] for s in range(4)]
        table.clear()
        discard[:] = [data["discard_top"]["id"]]
    elif kind == "drew":
        card = data.get("card") or private[seat]["card"]
        hands[seat].append(card["id"])
        if data["from"] == "discard":
            discard.pop()
    elif kind == "discarded":
        hands[seat].remove(data["card"]["id"])
        discard.append(data["card"]["id"])
    elif kind == "laid_down":
        for meld in data["melds"]:
            table[meld["id"]] = [c["id"] for c in meld["cards"]]
            for c in meld["cards"]:
                hands[seat].remove(c["id"])
    elif kind == "laid_off":
        table[data["meld"]["id"]] = [c["id"] for c in data["meld"]["cards"]]
        hands[seat].remove(data["card"]["id"])
    elif kind == "stock_rebuilt":
        del discard[:-1]


def test_anyone_watches_a_daily_once_its_day_has_ended(clock, owner_of_a_daily, bob,
                                                      moderator_clients):
    owner, owner_api = owner_of_a_daily
    game = finished_daily(owner)
    clock.advance(days=1)

    for client in [owner_api.client, bob.client, Client(), *moderator_clients]:
        response = client.get(f"/api/v1/replays/{game.public_id}")
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["seed"] == game.seed and body["daily"] == str(game.daily.date)
        assert body["yours"] is (client is owner_api.client)


def test_a_replay_takes_few_queries(alice, finished_practice, django_assert_max_num_queries):
    # the player, the game, its seats, its log, the asker's analysis
    with django_assert_max_num_queries(5):
        assert alice.get(f"/replays/{finished_practice['id']}").status_code == 200


# --- Closed --------------------------------------------------------------------------------


def test_a_running_days_daily_is_closed_to_everyone_even_finished(
        owner_of_a_daily, bob, moderator_clients):
    owner, owner_api = owner_of_a_daily
    game = finished_daily(owner)
    assert game.status == Game.FINISHED

    for client in [owner_api.client, bob.client, Client(), *moderator_clients]:
        response = client.get(f"/api/v1/replays/{game.public_id}")
        as_not_found(response)
        assert game.seed not in response.content.decode()
    # The owner's own read says why (it is theirs: nothing to hide about its existence).
    refused = owner_api.get(f"/games/{game.public_id}/replay")
    assert refused.status_code == 403
    assert error_of(refused)["code"] == "replay_unavailable"
    assert game.seed not in refused.content.decode()


def test_a_finished_practice_game_is_closed_to_everyone_but_its_owner(
        finished_practice, bob, nobody, moderator_clients):
    seed = Game.objects.get(public_id=finished_practice["id"]).seed
    for client in [bob.client, nobody.client, *moderator_clients]:
        response = client.get(f"/api/v1/replays/{finished_practice['id']}")
        as_not_found(response)
        assert seed not in response.content.decode()


def test_an_unfinished_game_has_no_replay_even_for_its_owner(alice):
    game = alice.new_game()

    as_not_found(alice.get(f"/replays/{game['id']}"))


def test_an_expired_daily_has_no_replay(clock, owner_of_a_daily, bob):
    owner, owner_api = owner_of_a_daily
    game = start_daily(owner).game
    clock.advance(days=1)
    close_ended_days()
    assert Game.objects.get(pk=game.pk).status == Game.EXPIRED

    for api in (owner_api, bob):
        as_not_found(api.get(f"/replays/{game.public_id}"))


def test_an_unknown_game_is_404_and_a_malformed_id_422(nobody):
    as_not_found(nobody.get("/replays/no-such-game"))

    response = nobody.get("/replays/" + "x" * 40)
    assert response.status_code == 422
    assert error_of(response)["code"] == "invalid_request"


# --- My games: filters, paging, the replay flag --------------------------------------------


def test_my_games_filter_by_mode_and_status_and_say_which_replays_are_open(
        clock, alice, finished_practice):
    running = alice.new_game()
    started = alice.post("/games", {"mode": "daily"})
    assert started.status_code == 201
    today = started.json()

    listing = alice.get("/games").json()
    assert listing["count"] == 3
    assert [g["id"] for g in listing["items"]] == [today["id"], running["id"],
                                                   finished_practice["id"]]
    assert {g["id"]: g["replay"] for g in listing["items"]} == {
        today["id"]: False, running["id"]: False, finished_practice["id"]: True}
    finished = listing["items"][2]
    assert finished["result"] == {k: finished_practice["result"][0][k]
                                  for k in ("contracts", "penalty", "place")}
    assert finished["deal"] == 10

    dailies = alice.get("/games?mode=daily").json()
    assert (dailies["count"], [g["id"] for g in dailies["items"]]) == (1, [today["id"]])
    practice = alice.get("/games?mode=practice&status=active").json()
    assert [g["id"] for g in practice["items"]] == [running["id"]]
    assert alice.get("/games?mode=practice&status=finished").json()["count"] == 1


def test_my_games_come_in_pages(alice):
    ids = [alice.new_game()["id"] for _ in range(5)][::-1]  # newest first

    pages = [alice.get(f"/games?limit=2&offset={offset}").json() for offset in (0, 2, 4)]

    assert [p["count"] for p in pages] == [5, 5, 5]
    assert [g["id"] for p in pages for g in p["items"]] == ids


@pytest.mark.parametrize("query", ["mode=blitz", "status=won", "limit=0", "limit=101",
                                   "offset=-1", "offset=100001", "mode=%00"])
def test_my_games_refuse_filters_out_of_bounds(alice, query):
    response = alice.get(f"/games?{query}")

    assert response.status_code == 422
    assert error_of(response)["code"] == "invalid_request"
