"""A fair clock at a table's game (issue 51): a break between deals in which nobody's clock
runs while people read the results, ended early once every person present has closed them;
a table where every person is away is paused, with no deadline, until someone is back."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games import services, tasks
from games.models import Seat
from games.services.timers import BREAK_SECONDS
from tests.games.scripted import next_action
from tests.games.test_tables import refused
from tests.games.test_turn_timers import run_out, stored, table_game, timeouts, view

__all__ = ["table_game"]  # the fixture, shared


def at(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def end_the_deal(table_game: dict) -> dict:
    """The people play (each their own turns, through the API) until the first deal ends;
    the game as seat 0 sees it then."""
    for _ in range(3000):
        game = view(table_game)
        if game["deal"] > 1:
            return game
        api = table_game["people"][game["turn"]]
        mine = view(table_game, game["turn"])
        response = api.act(mine, next_action(api, mine))
        assert response.status_code == 200, response.content
    raise AssertionError("the first deal did not end")


def later(monkeypatch, seconds: float) -> None:
    """The server's clock is ``seconds`` ahead from now on."""
    real = timezone.now
    now = real() + timedelta(seconds=seconds)
    monkeypatch.setattr(timezone, "now", lambda: now)


# --- The break between deals --------------------------------------------------------------


def test_a_deal_that_ends_starts_a_break_and_the_next_turn_is_timed_from_its_end(table_game):
    game = end_the_deal(table_game)
    assert game["turn"] in (0, 1)
    break_until, deadline = at(game["break_until"]), at(game["turn_deadline"])
    assert timedelta(seconds=BREAK_SECONDS - 3) < break_until - timezone.now() <= timedelta(
        seconds=BREAK_SECONDS)
    assert deadline == break_until + timedelta(seconds=30)  # the turn starts after the break
    assert game["turn_seconds_left"] > 30
    assert abs(at(game["server_time"]) - timezone.now()) < timedelta(seconds=2)
    assert abs(stored(table_game).break_until - break_until) < timedelta(milliseconds=1)


def test_nobody_reading_the_results_for_a_whole_turns_time_is_timed_out_or_marked_away(
        table_game, monkeypatch):
    game = end_the_deal(table_game)
    version = game["version"]
    later(monkeypatch, 30 + 1)  # the 30 s of the first turn, and a second, have gone by
    assert services.time_out(table_game["id"]) is False
    assert tasks.time_out_overdue_turns() == 0
    game = view(table_game)
    assert game["version"] == version
    assert [p["away"] for p in game["players"]] == [False] * 4
    assert timeouts(table_game) == {0: 0, 1: 0}


def test_the_break_ends_once_every_person_has_closed_the_results_and_the_turn_counts_from_then(
        table_game, monkeypatch, django_capture_on_commit_callbacks):
    heard: dict[int, list[dict]] = {0: [], 1: []}
    monkeypatch.setattr("games.services.publishing.publish",
                        lambda game_id, seat, frames: heard[seat].extend(frames))
    game = end_the_deal(table_game)
    first = table_game["people"][0].post(f"/games/{table_game['id']}/ready")
    assert first.status_code == 200, first.content
    assert first.json()["break_until"] == game["break_until"]  # Bob is still reading
    assert first.json()["turn_deadline"] == game["turn_deadline"]

    with django_capture_on_commit_callbacks(execute=True):
        second = table_game["people"][1].post(f"/games/{table_game['id']}/ready")
    assert second.status_code == 200, second.content
    after = second.json()
    assert after["break_until"] is None and after["you"] == 1
    left = at(after["turn_deadline"]) - timezone.now()
    assert timedelta(seconds=28) < left <= timedelta(seconds=30)  # from now, not the break
    assert abs(stored(table_game).turn_deadline - at(after["turn_deadline"])) < timedelta(
        milliseconds=1)
    for frames in heard.values():
        assert [f["t"] for f in frames] == ["turn_timer"]
        assert abs(at(frames[0]["data"]["deadline"]) - at(after["turn_deadline"])) < timedelta(
            milliseconds=1)
        assert frames[0]["data"]["break_until"] is None


def test_an_away_person_does_not_hold_the_break_nor_does_ready_outside_one_change_anything(
        table_game):
    before = view(table_game)
    response = table_game["people"][0].post(f"/games/{table_game['id']}/ready")
    assert response.status_code == 200
    assert response.json()["turn_deadline"] == before["turn_deadline"]  # no break: nothing
    assert response.json()["break_until"] is None

    game = end_the_deal(table_game)
    Seat.objects.filter(game__public_id=table_game["id"], number=1).update(timeouts=2)
    after = table_game["people"][0].post(f"/games/{table_game['id']}/ready").json()
    assert after["break_until"] is None and after["turn_deadline"] < game["turn_deadline"]


def test_ready_answers_in_the_one_error_shape(table_game, nobody):
    refused(nobody.post(f"/games/{table_game['id']}/ready"), 401, "no_identity")
    refused(table_game["people"][0].post("/games/nosuchgame000000000000/ready"), 404,
            "not_found")


# --- A deserted table ---------------------------------------------------------------------


def desert(table_game: dict) -> None:
    """Alice is away; Bob's time runs out on two turns in a row: nobody is left."""
    Seat.objects.filter(game__public_id=table_game["id"], number=0).update(timeouts=2)
    while timeouts(table_game)[1] < 2:  # Alice's turns are played at once while Bob is here
        run_out(table_game)
        assert services.time_out(table_game["id"])


def test_a_table_where_every_person_is_away_pauses_until_someone_is_back(table_game):
    """With nobody left the clock stops (no deadline: nothing plays itself), until Bob says
    he is back."""
    desert(table_game)
    game = view(table_game, 1)
    assert [p["away"] for p in game["players"][:2]] == [True, True]
    assert game["turn_deadline"] is None and game["turn_seconds_left"] is None
    assert stored(table_game).turn_deadline is None
    version = game["version"]
    assert services.time_out(table_game["id"]) is False
    assert tasks.time_out_overdue_turns() == 0
    assert view(table_game)["version"] == version  # an hour of nobody: the same game

    back = table_game["people"][1].post(f"/games/{table_game['id']}/back").json()
    assert back["turn"] == 1 and not back["players"][1]["away"]
    # Timed again, from now; or from the break's end, if the desert ended a deal (a bot went
    # out while nobody was there: the next deal's break runs BREAK_SECONDS from then).
    now = timezone.now()
    starts = max(now, at(back["break_until"])) if back["break_until"] else now
    assert timedelta(seconds=28) < at(back["turn_deadline"]) - starts <= timedelta(seconds=30)


@pytest.mark.parametrize("seat", [0, 1])
def test_any_action_of_a_person_at_a_paused_table_starts_its_clock_again(table_game, seat):
    desert(table_game)
    assert stored(table_game).turn_deadline is None  # paused
    mine = view(table_game, seat)
    response = table_game["people"][seat].act(mine, {"type": "draw", "from": "stock"})
    assert response.status_code in (200, 409, 422), response.content  # applied or refused
    game = view(table_game)
    assert game["turn_deadline"] is not None and not game["players"][seat]["away"]
