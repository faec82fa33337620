"""GET /games/{id}/replay: seed, actions and every hand, only once the game is over; and
every finished game replays to its stored result."""

import pytest

from games.engine import action_from_json, replay, result_json
from games.models import Game
from games.reads import check_replay
from tests.games.helpers import error_of
from tests.games.scripted import play_to_the_end

pytestmark = pytest.mark.django_db


def test_an_unfinished_game_has_no_replay(alice):
    game = alice.new_game()

    response = alice.get(f"/games/{game['id']}/replay")

    assert response.status_code == 403
    assert error_of(response)["code"] == "replay_unavailable"
    assert Game.objects.get(public_id=game["id"]).seed not in response.content.decode()


def test_a_finished_game_replays_to_its_stored_result(alice):
    final = play_to_the_end(alice, alice.new_game("easy"))
    game = Game.objects.get(public_id=final["id"])

    response = alice.get(f"/games/{final['id']}/replay")

    assert response.status_code == 200
    body = response.json()
    assert body["seed"] == game.seed
    assert len(body["actions"]) == game.version == final["version"]
    assert [a["index"] for a in body["actions"]] == list(range(game.version))
    assert len(body["deals"]) == 10
    assert all(len(hand) == 10 for deal in body["deals"] for hand in deal["hands"])
    # Anyone can check it: replay(seed, actions) gives the result the game showed.
    state = replay(body["seed"], [(a["seat"], action_from_json(a["action"]))
                                  for a in body["actions"]])
    assert result_json(state) == body["result"] == final["result"]
    mine = final["result"][0]
    assert (game.contracts, game.penalty, game.place) == (
        mine["contracts"], mine["penalty"], mine["place"])
    assert game.status == "finished" and game.finished_at is not None


@pytest.mark.slow
def test_every_finished_game_replays_to_its_snapshot(alice, bob):
    for api in (alice, bob):
        play_to_the_end(api, api.new_game("easy"))

    finished = Game.objects.finished()
    assert finished.count() == 2
    for game in finished:
        assert check_replay(game), game.public_id
