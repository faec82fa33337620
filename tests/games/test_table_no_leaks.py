"""No leaks at a table (R25): three people and a bot play whole games together through the
API; no answer any of them gets and no websocket frame sent to their seat holds a card of
another seat's hand or of the stock before it is public, nor the seed before the end. The
judge is test_no_leaks' witness, following the server's log from each person's seat."""

from __future__ import annotations

import json
from unittest import mock

import pytest

from games.models import Game
from games.services import publishing
from tests.games.conftest import new_bearer_api
from tests.games.scripted import play_together_to_the_end
from tests.games.test_no_leaks import Witness, cards_in
from tests.games.test_tables import join, open_table, start

GAMES = 1
PEOPLE = 3


@pytest.mark.slow
def test_nothing_hidden_reaches_any_person_at_a_table(db, django_capture_on_commit_callbacks):
    people = [new_bearer_api() for _ in range(PEOPLE)]
    published: list[tuple[str, int, list[dict]]] = []

    # Kept, not sent: no socket listens here, and a send from a test's thread costs a Redis
    # connection of its own (test_websocket checks the consumer forwards frames unchanged).
    def spy(game_id, seat, messages):
        published.append((game_id, seat, messages))

    table = open_table(people[0], "Leak watch", level="easy", turn_seconds=None)
    for person in people[1:]:
        join(person, table)
    checked = {"answers": 0, "frames": 0}
    with (mock.patch.object(publishing, "publish", spy),
          django_capture_on_commit_callbacks(execute=True)):
        for _ in range(GAMES):
            game_id = start(people[0], table)["game"]["id"]
            game = Game.objects.get(public_id=game_id)
            witnesses = {}
            for person in people:
                view = person.get(f"/games/{game_id}").json()
                witnesses[view["you"]] = Witness(game, view["you"])
            seats = {seat: people[i] for i, seat in enumerate(sorted(witnesses))}
            assert len(seats) == PEOPLE and sorted(seats) == [0, 1, 2]  # the bot at 3
            view = play_watched(game_id, seats, witnesses, checked)
            assert view["status"] == "finished"
            for person in seats.values():  # the replay opens for each, once it is over
                assert person.get(f"/replays/{game_id}").status_code == 200

    witnesses = {}
    for game_id, seat, messages in published:
        if (game_id, seat) not in witnesses:
            witnesses[game_id, seat] = Witness(Game.objects.get(public_id=game_id), seat)
            witnesses[game_id, seat].catch_up()
        witness = witnesses[game_id, seat]
        events = [m for m in messages if "v" in m and m["t"] in EVENT_TYPES]
        witness.check_events(events, f"seat {seat}'s socket")
        assert not cards_in([m for m in messages if m not in events]), messages
        finished = any(m["t"] == "game_finished" for m in messages)
        witness.check_seed(json.dumps(messages), finished, f"seat {seat}'s socket")
        checked["frames"] += len(messages)
    assert {seat for _, seat, _ in published} == {0, 1, 2}  # never the bot's seat
    assert checked["answers"] > GAMES * 100 and checked["frames"] > GAMES * 1000, checked


def play_watched(game_id: str, seats: dict, witnesses: dict, checked: dict) -> dict:
    """Plays the table's game to its end: each answer checked against its mover's witness,
    and after it every other person's own read against theirs; the final GameView."""
    def witnessed(mine, response):
        witness = witnesses[mine["you"]]
        witness.catch_up()
        body = response.json()
        witness.check_seed(response.content.decode(),
                           body["game"]["status"] == "finished", "answer")
        witness.check_view(body["game"], "answer")
        witness.check_events(body["events"], "answer")
        for seat, person in seats.items():  # everyone's own read, checked too
            if seat != mine["you"]:
                other = person.get(f"/games/{game_id}").json()
                witnesses[seat].catch_up()
                witnesses[seat].check_view(other, f"seat {seat}'s read")
        checked["answers"] += 1

    return play_together_to_the_end(seats, seats[0].get(f"/games/{game_id}").json(), witnessed)


EVENT_TYPES = {"deal_started", "drew", "laid_down", "laid_off", "discarded", "stock_rebuilt",
               "deal_ended", "game_finished"}
