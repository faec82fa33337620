"""POST /games, GET /games, GET /games/{id}: starting practice games and looking at them."""

import pytest

from games.models import Game, GameAction
from games.reads import check_replay
from tests.games.helpers import error_of
from tests.games.scripted import next_action

pytestmark = pytest.mark.django_db


def test_a_practice_game_starts_at_the_persons_first_turn(alice):
    response = alice.post("/games", {"mode": "practice", "level": "easy"})

    assert response.status_code == 201
    game = response.json()
    assert game["mode"] == "practice" and game["level"] == "easy"
    assert game["status"] == "active" and game["result"] is None
    assert (game["deal"], game["you"], game["turn"], game["phase"]) == (1, 0, 0, "draw")
    assert len(game["hand"]) == 10
    assert [p["bot"] for p in game["players"]] == [False, True, True, True]
    assert game["players"][0]["name"] == alice.get("/me").json()["name"]
    assert game["legal"]["draw"][0] == "stock"
    stored = Game.objects.get(public_id=game["id"])
    assert stored.version == game["version"] == GameAction.objects.filter(game=stored).count()
    assert check_replay(stored)


def test_the_level_defaults_to_normal_and_must_be_known(alice):
    assert alice.post("/games", {}).json()["level"] == "normal"

    response = alice.post("/games", {"level": "grandmaster"})

    assert response.status_code == 422
    assert error_of(response)["code"] == "invalid_request"


def test_a_game_view_holds_the_contract_fields(alice):
    game = alice.new_game()

    for key in ("id", "mode", "level", "status", "version", "deal", "dealer", "turn", "phase",
                "you", "hand", "players", "table", "discard_top", "discard_size", "stock_size",
                "legal", "result"):
        assert key in game, key
    player = game["players"][0]
    assert set(player) >= {"seat", "name", "bot", "rung", "climbed", "contract", "laid_down",
                           "hand_size", "penalty"}
    assert player["contract"]["rung"] == 1
    assert "seed" not in game and "state" not in game


def test_my_games_are_listed_newest_first_and_nobody_elses(alice, bob):
    first, second = alice.new_game(), alice.new_game()
    bob.new_game()

    listing = alice.get("/games").json()

    assert listing["count"] == 2
    assert [g["id"] for g in listing["items"]] == [second["id"], first["id"]]
    assert listing["items"][0]["status"] == "active"
    assert alice.get("/games?status=finished").json()["count"] == 0
    assert len(alice.get("/games?limit=1").json()["items"]) == 1


def test_the_list_gives_each_game_the_deal_it_is_at(alice):
    fresh, played = alice.new_game(), alice.new_game()
    while played["deal"] < 3:
        response = alice.act(played, next_action(alice, played))
        assert response.status_code == 200, response.content
        played = response.json()["game"]

    deals = {g["id"]: g["deal"] for g in alice.get("/games").json()["items"]}

    assert deals == {fresh["id"]: 1, played["id"]: 3}


def test_i_see_my_game_as_it_is(alice):
    game = alice.new_game()

    response = alice.get(f"/games/{game['id']}")

    assert response.status_code == 200
    assert response.json() == game


def test_a_game_that_does_not_exist_is_404(alice):
    response = alice.get("/games/nope")

    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"


@pytest.mark.parametrize("game_id", ["x" * 300, "a.b", "%00", "é"])
def test_a_game_id_that_cannot_exist_is_refused_by_its_pattern(alice, game_id):
    response = alice.get(f"/games/{game_id}")

    assert response.status_code == 422
    assert error_of(response)["code"] == "invalid_request"
    assert len(response.content) < 1024


def test_someone_elses_game_is_404_not_403(alice, bob):
    game = alice.new_game()

    for response in (bob.get(f"/games/{game['id']}"), bob.get(f"/games/{game['id']}/hint"),
                     bob.get(f"/games/{game['id']}/replay")):
        assert response.status_code == 404
        assert error_of(response) == {"code": "not_found", "message": "No such game."}


def test_reading_a_game_takes_few_queries(alice, django_assert_max_num_queries):
    game = alice.new_game()

    with django_assert_max_num_queries(3):  # the player, the game, its seats
        assert alice.get(f"/games/{game['id']}").status_code == 200
