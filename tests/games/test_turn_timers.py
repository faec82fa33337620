"""Turn timers at a table's games (games.services.timers): chosen when the table opens, stored
as the game's deadline, played once by the table's bot when it passes, whoever notices; two
in a row make a seat away until its person acts or says "I'm back"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, tasks
from games.models import Game, Seat
from tests.games.conftest import new_bearer_api
from tests.games.helpers import error_of
from tests.games.scripted import next_action
from tests.games.test_tables import join, open_table, refused, start


@pytest.fixture
def table_game(alice, bob) -> dict:
    """A game of Alice (seat 0) and Bob (seat 1) at a table with a 30 s timer, easy bots at
    seats 2 and 3: ``{"id", "people": {seat: api}}``."""
    table = open_table(alice, level="easy", turn_seconds=30)
    join(bob, table)
    game = start(alice, table)["game"]
    return {"id": game["id"], "people": {0: alice, 1: bob}}


def view(table_game: dict, seat: int = 0) -> dict:
    response = table_game["people"][seat].get(f"/games/{table_game['id']}")
    assert response.status_code == 200, response.content
    return response.json()


def stored(table_game: dict) -> Game:
    return Game.objects.get(public_id=table_game["id"])


def run_out(table_game: dict) -> None:
    """The turn of the person to move is past its deadline."""
    Game.objects.filter(public_id=table_game["id"]).update(
        turn_deadline=timezone.now() - timedelta(seconds=1))


def timeouts(table_game: dict) -> dict[int, int]:
    return dict(Seat.objects.filter(game__public_id=table_game["id"])
                .values_list("number", "timeouts"))


def play_turn(table_game: dict) -> dict:
    """The person to move plays their whole turn through the API; the game after it."""
    seat = view(table_game)["turn"]
    api = table_game["people"][seat]
    mine = view(table_game, seat)
    while True:
        response = api.act(mine, next_action(api, mine))
        assert response.status_code == 200, response.content
        mine = response.json()["game"]
        if mine["turn"] != seat or mine["phase"] != "play":  # their next turn, at the latest
            return mine


# --- Choosing the timer -------------------------------------------------------------------


def test_a_table_has_a_sixty_second_timer_unless_another_is_chosen(alice):
    assert open_table(alice)["turn_seconds"] == 60
    assert open_table(alice, turn_seconds=30)["turn_seconds"] == 30
    assert open_table(alice, turn_seconds=300)["turn_seconds"] == 300
    off = open_table(alice, turn_seconds=None)
    assert off["turn_seconds"] is None
    assert alice.get(f"/tables/{off['id']}").json()["turn_seconds"] is None


@pytest.mark.parametrize("seconds", [0, 45, -30, "60", 10**9, True])
def test_a_timer_not_offered_is_refused_in_the_one_error_shape(alice, seconds):
    response = alice.post("/tables", {"name": "Odd timer", "turn_seconds": seconds})
    assert response.status_code == 422, response.content
    assert error_of(response)["code"]


def test_a_tables_game_carries_its_timer_and_the_deadline_of_the_person_to_move(table_game):
    game = view(table_game)
    assert game["turn_seconds"] == 30
    assert game["turn"] in (0, 1)  # the bots have played up to a person
    deadline = timezone.datetime.fromisoformat(game["turn_deadline"])
    assert timedelta(seconds=28) < deadline - timezone.now() <= timedelta(seconds=30)
    assert 28 <= game["turn_seconds_left"] <= 30
    assert [p["away"] for p in game["players"]] == [False] * 4


def test_the_deadline_runs_through_the_turn_and_starts_again_with_the_next(table_game):
    before = stored(table_game).turn_deadline
    seat = view(table_game)["turn"]
    api = table_game["people"][seat]
    drawn = api.act(view(table_game, seat), {"type": "draw", "from": "stock"}).json()["game"]
    assert stored(table_game).turn_deadline == before  # the same turn
    assert drawn["turn_deadline"] == view(table_game)["turn_deadline"]
    after = play_turn(table_game)
    assert after["turn"] != seat
    assert stored(table_game).turn_deadline > before


def test_a_game_played_alone_has_no_timer(alice):
    game = alice.new_game()
    assert (game["turn_seconds"], game["turn_deadline"], game["turn_seconds_left"]) == (
        None, None, None)
    assert [p["away"] for p in game["players"]] == [False] * 4
    assert Game.objects.get(public_id=game["id"]).turn_deadline is None


def test_an_action_at_a_timed_game_takes_the_statements_of_any_action(table_game):
    """The deadline rides in the game's UPDATE: no statement more than an untimed game's
    (tests/games/test_actions.py pins those)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    seat = view(table_game)["turn"]
    mine = view(table_game, seat)
    with CaptureQueriesContext(connection) as queries:
        response = table_game["people"][seat].act(mine, {"type": "draw", "from": "stock"})
    assert response.status_code == 200
    statements = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    writes = ["WITH"] if connection.vendor == "postgresql" else ["INSERT", "UPDATE"]
    assert [s for s in statements if s not in ("SAVEPOINT", "RELEASE", "BEGIN")] == [
        "SELECT", "SELECT", "SELECT", *writes]


# --- The timer runs out -------------------------------------------------------------------


def test_a_turn_not_yet_over_its_time_is_left_alone(table_game):
    version = stored(table_game).version
    assert services.time_out(table_game["id"]) is False
    assert stored(table_game).version == version


def test_the_tables_bot_plays_an_overdue_turn_once(table_game):
    seat, version = view(table_game)["turn"], stored(table_game).version
    run_out(table_game)

    assert services.time_out(table_game["id"]) is True
    assert services.time_out(table_game["id"]) is False  # that turn is over: nothing due

    game = stored(table_game)
    log = list(game.actions.filter(index__gte=version).values_list("seat", flat=True))
    assert log[0] == seat and log.count(seat) >= 2  # the bot drew and discarded for them
    assert game.load_state().turn != seat
    assert game.turn_deadline > timezone.now()  # the next person's turn, timed afresh
    assert timeouts(table_game)[seat] == 1
    assert not view(table_game)["players"][seat]["away"]


def test_a_read_after_the_deadline_finds_the_turn_played(table_game):
    seat, version = view(table_game)["turn"], stored(table_game).version
    run_out(table_game)
    game = view(table_game, 1 - seat)  # the other person looks at the table
    assert game["version"] > version and game["turn"] != seat
    assert game["turn_seconds_left"] > 0


def test_an_action_after_the_deadline_loses_to_the_timer(table_game):
    seat = view(table_game)["turn"]
    mine = view(table_game, seat)
    run_out(table_game)
    response = table_game["people"][seat].act(mine, {"type": "draw", "from": "stock"})
    assert response.status_code == 409
    assert error_of(response)["code"] == "turn_timed_out"
    after = response.json()["game"]
    assert after["version"] > mine["version"] and after["turn"] != seat
    assert after == view(table_game, seat) | {"turn_seconds_left": after["turn_seconds_left"],
                                              "server_time": after["server_time"]}
    assert timeouts(table_game)[seat] == 0  # late, but here: their count starts again


def test_the_worker_and_beats_sweep_play_an_overdue_turn_through_the_same_function(table_game):
    version = stored(table_game).version
    assert tasks.time_out_turn(table_game["id"]) is False
    run_out(table_game)
    assert tasks.time_out_overdue_turns() == 1
    assert tasks.time_out_turn(table_game["id"]) is False
    assert stored(table_game).version > version


def test_with_a_worker_each_turn_schedules_a_task_due_at_its_deadline(alice, bob, monkeypatch,
                                                                      django_capture_on_commit_callbacks):
    from celery import current_app

    sent = []
    monkeypatch.setitem(current_app.conf, "task_always_eager", False)  # a broker's worker
    monkeypatch.setattr(current_app, "send_task", lambda name, **kw: sent.append((name, kw)))
    table = open_table(alice, level="easy", turn_seconds=60)
    join(bob, table)
    with django_capture_on_commit_callbacks(execute=True):
        game = start(alice, table)["game"]
    deadline = Game.objects.get(public_id=game["id"]).turn_deadline
    assert sent == [("games.time_out_turn", {"args": [game["id"]], "eta": deadline})]

    from django.conf import settings

    sweep = settings.CELERY_BEAT_SCHEDULE["time-out-overdue-turns"]
    assert sweep["task"] == "games.time_out_overdue_turns" and sweep["schedule"] <= 10


def test_where_tasks_run_where_they_are_queued_no_task_is_sent(
        table_game, monkeypatch, django_capture_on_commit_callbacks):
    from celery import current_app

    sent = []
    monkeypatch.setitem(current_app.conf, "task_always_eager", True)  # the tests, no worker
    monkeypatch.setattr(current_app, "send_task", lambda name, **kw: sent.append(name))
    run_out(table_game)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.time_out(table_game["id"])
    assert sent == []  # an eager task would run now and find nothing due


# --- Away, and back -----------------------------------------------------------------------


def two_timeouts(table_game: dict) -> int:
    """The person to move runs out of time on two turns in a row (the other plays between);
    their seat."""
    seat = view(table_game)["turn"]
    run_out(table_game)
    assert services.time_out(table_game["id"])
    while view(table_game)["turn"] != seat:
        play_turn(table_game)
    run_out(table_game)
    assert services.time_out(table_game["id"])
    return seat


def test_two_timeouts_in_a_row_make_a_seat_away_and_the_bot_plays_it_at_once(table_game):
    seat = two_timeouts(table_game)
    other = 1 - seat
    game = view(table_game, other)
    assert game["players"][seat]["away"] and not game["players"][other]["away"]
    assert game["turn"] == other  # the away seat was played at once
    for _ in range(3):
        game = play_turn(table_game)
        assert game["turn"] == other  # and is, turn after turn: no waiting for its timer
    assert timeouts(table_game)[seat] == 2


def test_any_action_of_an_away_person_brings_their_seat_back(table_game):
    seat = two_timeouts(table_game)
    mine = view(table_game, seat)
    response = table_game["people"][seat].act(mine, {"type": "draw", "from": "stock"})
    refused(response, 422, "not_your_turn")  # not their turn: refused, but they are back
    assert not view(table_game)["players"][seat]["away"]
    assert timeouts(table_game)[seat] == 0
    game = play_turn(table_game)
    assert game["turn"] == seat and game["turn_seconds_left"] > 0  # their own turn again


def test_im_back_brings_an_away_seat_back(table_game, nobody):
    seat = two_timeouts(table_game)
    api = table_game["people"][seat]
    response = api.post(f"/games/{table_game['id']}/back")
    assert response.status_code == 200, response.content
    assert response.json()["you"] == seat
    assert not response.json()["players"][seat]["away"]
    assert timeouts(table_game)[seat] == 0
    assert api.post(f"/games/{table_game['id']}/back").status_code == 200  # again: no change
    assert play_turn(table_game)["turn"] == seat


def test_im_back_answers_in_the_one_error_shape(table_game, nobody):
    refused(new_bearer_api().post(f"/games/{table_game['id']}/back"), 404, "not_found")
    refused(nobody.post(f"/games/{table_game['id']}/back"), 401, "no_identity")
    refused(table_game["people"][0].post("/games/nosuchgame000000000000/back"), 404,
            "not_found")


def test_an_action_by_a_person_once_timed_out_starts_their_count_again(table_game):
    seat = view(table_game)["turn"]
    run_out(table_game)
    assert services.time_out(table_game["id"])
    while view(table_game)["turn"] != seat:
        play_turn(table_game)
    play_turn(table_game)  # they play this one themselves
    assert timeouts(table_game)[seat] == 0


def test_with_everyone_away_the_table_pauses_after_the_turn_that_ran_out(table_game):
    """A deserted table neither plays itself to the end nor crawls turn by turn: the turn
    that ran out is played, then nothing runs (tests/games/test_fair_clock.py)."""
    Seat.objects.filter(game__public_id=table_game["id"]).update(timeouts=2)
    seat, version = view(table_game)["turn"], stored(table_game).version
    run_out(table_game)
    assert services.time_out(table_game["id"])
    game = stored(table_game)
    assert game.load_state().turn == 1 - seat  # the other away person's turn waits
    assert game.turn_deadline is None and game.version - version < 30

    response = table_game["people"][seat].post(f"/games/{table_game['id']}/back")
    game = response.json()
    assert game["turn"] == seat  # one is back: the other away seat is played at once again
    assert game["players"][1 - seat]["away"] and game["turn_deadline"] is not None


def test_every_seat_hears_the_timeout_the_away_seat_and_the_next_timer(
        table_game, monkeypatch, django_capture_on_commit_callbacks):
    heard: dict[int, list[dict]] = {0: [], 1: []}
    monkeypatch.setattr("games.services.publishing.publish",
                        lambda game_id, seat, frames: heard[seat].extend(frames))
    seat = view(table_game)["turn"]
    run_out(table_game)
    with django_capture_on_commit_callbacks(execute=True):
        services.time_out(table_game["id"])
    for frames in heard.values():
        kinds = [frame["t"] for frame in frames]
        assert kinds[0] == "timed_out" and frames[0]["data"] == {"seat": seat}
        assert kinds[-1] == "turn_timer" and "away" not in kinds
        timer = frames[-1]["data"]
        assert timer["seat"] == 1 - seat and timer["seconds"] == 30
        assert timer["deadline"] == stored(table_game).turn_deadline.isoformat()
        assert frames[-1]["v"] == stored(table_game).version

    while view(table_game)["turn"] != seat:
        play_turn(table_game)
    heard = {0: [], 1: []}
    run_out(table_game)
    with django_capture_on_commit_callbacks(execute=True):
        services.time_out(table_game["id"])
    for frames in heard.values():
        assert {"seat": seat, "away": True} in [f["data"] for f in frames if f["t"] == "away"]

    heard = {0: [], 1: []}
    with django_capture_on_commit_callbacks(execute=True):
        table_game["people"][seat].post(f"/games/{table_game['id']}/back")
    for frames in heard.values():
        assert [(f["t"], f["data"]) for f in frames] == [("away", {"seat": seat,
                                                                   "away": False})]


def test_the_deal_log_marks_the_moves_the_computer_chose_for_a_person(table_game):
    """Issue 51, item 6: a timed-out person's moves are the computer's in GET /events (`bot`),
    theirs stay unmarked, and so do the computer players' own seats' (named as computers)."""
    seat = view(table_game)["turn"]  # a person's: the bots' turns are played at once
    play_turn(table_game)  # the person's own turn
    while view(table_game)["turn"] != seat:
        play_turn(table_game)
    run_out(table_game)
    assert services.time_out(table_game["id"])
    log = table_game["people"][seat].get(f"/games/{table_game['id']}/events").json()
    moves = [e for e in log["events"] if e["data"].get("seat") == seat]
    marked = [e for e in moves if e.get("bot")]
    assert marked and marked[-1]["t"] == "discarded"  # the timed-out turn, to its discard
    assert any("bot" not in e for e in moves)  # the person's own turn
    assert not any(e.get("bot") for e in log["events"] if e["data"].get("seat") in (2, 3))
