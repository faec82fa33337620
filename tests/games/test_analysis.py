"""The post-game analysis (games.services.analysis, issue 41): each person's decisions against
the expert's, written once a game is over, one row per person seat, refused while the game or
its daily's day runs, read from the person's own view only, and carried by the replay to the
person who sat there (docs/api.md, "Replays").
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone, translation

from frontend import review
from games import daily, tasks
from games.bots import Verdict, advise, choose, rng_for
from games.engine import (
    FINISHED,
    Action,
    Discard,
    Draw,
    LayDown,
    PlayerView,
    apply,
    new_game,
    player_view,
)
from games.engine.actions import DISCARD_PILE, STOCK
from games.engine.rng import Stream
from games.models import Analysis, Game
from games.players.identity import COOKIE_NAME, set_player_cookie
from games.players.models import Player
from games.receivers import analyse_when_over
from games.schemas import Replay
from games.services import analysis, start_game_together
from games.services.daily import start_daily
from games.signals import game_finished
from tests.factories import player_with_token, practice_game
from tests.games.conftest import bearer_api

PERSON = 0
WHEN = timezone.now()


def constructed_log(seed: str, *, take_differently: int, skip_lay_down: bool):
    """A game from ``seed`` up to just after the person's first missed lay-down: the bots of
    seats 1-3 play as normal players, the person as the expert (the hint's move at every
    turn), except that their ``take_differently``-th free draw (the discard pile may be taken)
    goes to the other pile, and the first lay-down the expert would make is skipped for the
    discard it would make next. Returns the log and where the person differed: (v, kind)."""
    state, _ = new_game(seed)
    log, differed, free_draws = [], [], 0
    while state.phase != FINISHED:
        seat, view = state.turn, player_view(state, state.turn)
        rng = rng_for(seed, seat, state.actions)
        if seat != PERSON:
            action = choose("normal", view, rng)
        else:
            action = advise(view, rng).action
            if isinstance(action, Draw) and DISCARD_PILE in view.legal.draw:
                free_draws += 1
                if free_draws == take_differently:
                    action = Draw(STOCK if action.source == DISCARD_PILE else DISCARD_PILE)
                    differed.append((state.actions, "draw"))
            elif isinstance(action, LayDown) and skip_lay_down:
                action = Discard(max(view.legal.discards))
                differed.append((state.actions, "lay_down"))
        log.append((seat, action.to_json(), WHEN, False))
        state, _ = apply(state, seat, action)
        if differed and differed[-1][1] == "lay_down":
            return log, differed
    raise AssertionError("the expert never laid down")


def test_a_decision_that_differs_a_missed_lay_down_and_agreements():
    log, differed = constructed_log("analysis-constructed", take_differently=2,
                                    skip_lay_down=True)
    assert [kind for _, kind in differed] == ["draw", "lay_down"]

    found = analysis.review_log("analysis-constructed", log, {PERSON: None})[PERSON]

    assert [(m["v"], m["kind"]) for m in found["marks"]] == differed
    assert found["agreed"] == found["decisions"] - 2 and found["agreed"] > 0
    draw, lay_down = found["marks"]
    assert draw["played"]["type"] == "draw" and draw["expert"]["type"] == "draw"
    assert draw["played"]["from"] != draw["expert"]["from"]
    assert lay_down["expert"]["type"] == "lay_down" and lay_down["played"]["type"] == "discard"
    assert lay_down["reason"] == {"code": "lay_down_contract",
                                  "message": advise_message("lay_down_contract")}
    assert draw["deal"] == 1 and lay_down["deal"] >= 1
    costs = [m["cost"] for m in found["marks"]]
    assert found["costliest"] == (costs.index(max(costs)) if max(costs) > 0 else None)


def advise_message(code: str) -> str:
    from games.bots import REASONS

    return REASONS[code]


def test_a_person_who_agrees_throughout_has_no_marks():
    state, _ = new_game("analysis-agrees")
    log = []
    for _ in range(60):
        seat, view = state.turn, player_view(state, state.turn)
        rng = rng_for("analysis-agrees", seat, state.actions)
        action = advise(view, rng).action if seat == PERSON else choose("normal", view, rng)
        log.append((seat, action.to_json(), WHEN, False))
        state, _ = apply(state, seat, action)

    found = analysis.review_log("analysis-agrees", log, {PERSON: None})[PERSON]

    assert found["marks"] == [] and found["costliest"] is None
    assert found["agreed"] == found["decisions"] > 5


def test_only_the_decisions_before_a_person_left_are_theirs():
    log, _ = constructed_log("analysis-constructed", take_differently=2, skip_lay_down=True)
    # Rows from before the log said who chose each move (bot null): leaving is all it knew.
    timed = [(seat, action, WHEN + timedelta(seconds=i), None)
             for i, (seat, action, _, _) in enumerate(log)]
    left = WHEN + timedelta(seconds=len(log) // 2)

    whole = analysis.review_log("analysis-constructed", timed, {PERSON: None})[PERSON]
    part = analysis.review_log("analysis-constructed", timed, {PERSON: left})[PERSON]

    assert 0 < part["decisions"] < whole["decisions"]
    assert all(m["v"] < len(log) // 2 for m in part["marks"])
    assert whole["bot_turns"] == 0 and part["bot_turns"] > 0  # the turns after, left out


@pytest.fixture
def seen(monkeypatch):
    """Every call of the review from the service: its arguments, answered as agreeing."""
    calls = []

    def spy(*args, **kwargs):
        calls.append((args, kwargs))
        view, played, rng = args
        return Verdict(advise(view, rng), forced=False, agrees=True)

    monkeypatch.setattr(analysis, "review", spy)
    return calls


@pytest.fixture
def eager_tasks(monkeypatch):
    """Queued tasks run at once, as without Redis (``./dev serve``), also where the suite runs
    with Redis and no worker."""
    from ladder.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)


def finish(game: Game) -> Game:
    """Over, as far as the analysis can tell (it never needs the log to be a whole game)."""
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED, finished_at=daily.now())
    game.refresh_from_db()
    return game


def play_some(game: Game, turns: int = 6) -> Game:
    from games import services

    for _ in range(turns):
        state = game.load_state()
        view = player_view(state, PERSON)
        action = advise(view, rng_for(game.seed, PERSON, state.actions)).action
        game = services.act(game.public_id, game.owner, game.version, action.to_json()).game
    return game


@pytest.mark.django_db
def test_the_service_hands_the_review_the_persons_view_and_nothing_else(seen):
    owner, _ = player_with_token()
    game = finish(play_some(practice_game(owner)))

    assert analysis.analyse(game.public_id) == 1

    person_moves = game.actions.filter(seat=PERSON).count()
    assert len(seen) == person_moves > 0
    for (view, played, rng), kwargs in seen:
        assert kwargs == {}
        assert type(view) is PlayerView and view.seat == PERSON and view.turn == PERSON
        assert isinstance(played, Action) and isinstance(rng, Stream)
    row = Analysis.objects.get(game=game)
    assert (row.seat, row.failed, row.data["decisions"]) == (PERSON, False, person_moves)


@pytest.mark.django_db
def test_a_running_game_is_refused(seen):
    owner, _ = player_with_token()
    game = play_some(practice_game(owner))

    with pytest.raises(analysis.AnalysisRefused):
        analysis.analyse(game.public_id)
    assert tasks.analyse_game(game.public_id) == 0  # the task skips it
    assert seen == [] and not Analysis.objects.exists()


@pytest.mark.django_db
def test_a_finished_daily_is_refused_until_its_day_has_ended(clock, seen):
    owner, _ = player_with_token()
    game = finish(play_some(start_daily(owner).game))

    with pytest.raises(analysis.AnalysisRefused):
        analysis.analyse(game.public_id)
    assert game.public_id not in analysis.awaiting()
    assert seen == [] and not Analysis.objects.exists()

    clock.advance(days=1)
    assert analysis.awaiting() == [game.public_id]
    assert analysis.analyse(game.public_id) == 1
    assert analysis.analyse(game.public_id) == 0  # once
    assert analysis.awaiting() == []


@pytest.mark.django_db
def test_one_analysis_per_person_at_a_shared_table(seen):
    owner, _ = player_with_token()
    friend, _ = player_with_token()
    game = finish(start_game_together(owner, {0: owner, 2: friend}).game)

    assert analysis.analyse(game.public_id) == 2
    assert sorted(Analysis.objects.filter(game=game).values_list("seat", flat=True)) == [0, 2]
    assert {view.seat for (view, _, _), _ in seen} <= {0, 2}


@pytest.mark.django_db
def test_a_failing_expert_leaves_a_failed_analysis(monkeypatch):
    owner, _ = player_with_token()
    game = finish(play_some(practice_game(owner)))

    def broken(*args):
        raise RuntimeError("a bug in the bots")

    monkeypatch.setattr(analysis, "review", broken)
    assert analysis.analyse(game.public_id) == 1
    assert Analysis.objects.get(game=game).failed


@pytest.mark.django_db
def test_a_practice_game_that_ends_queues_its_analysis_and_a_daily_waits(
        django_capture_on_commit_callbacks, seen, eager_tasks):
    owner, _ = player_with_token()
    practice = finish(play_some(practice_game(owner)))
    other, _ = player_with_token()
    daily = finish(start_daily(other).game)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        game_finished.send(sender=Game, game=practice)
        analyse_when_over(sender=Game, game=daily)  # (the leaderboard's receiver wants a result)

    assert len(callbacks) == 1  # the daily's waits for the hourly sweep
    assert list(Analysis.objects.values_list("game__public_id", flat=True)) == [
        practice.public_id]


@pytest.mark.django_db
def test_the_hourly_sweep_queues_what_may_be_analysed(clock, seen, settings, eager_tasks):
    assert settings.CELERY_BEAT_SCHEDULE["queue-analyses"]["task"] == "games.queue_analyses"
    owner, _ = player_with_token()
    lost = finish(play_some(practice_game(owner)))  # its task was lost: Redis was down
    running = play_some(practice_game(owner))
    old = finish(practice_game(owner))
    Game.objects.filter(pk=old.pk).update(finished_at=daily.now() - timedelta(days=3))

    assert tasks.queue_analyses() == 1
    assert list(Analysis.objects.values_list("game_id", flat=True)) == [lost.pk]
    assert running.public_id not in analysis.awaiting()


# --- The replay carries it ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_replay_carries_the_askers_own_analysis_pending_then_ready(seen):
    owner, token = player_with_token()
    api = bearer_api(token)
    game = finish(play_some(practice_game(owner)))

    pending = api.get(f"/replays/{game.public_id}").json()["analysis"]
    assert pending == {"state": "pending", "seat": 0, "decisions": 0, "agreed": 0,
                       "bot_turns": 0, "marks": [], "costliest": None}

    analysis.analyse(game.public_id)
    body = api.get(f"/replays/{game.public_id}").json()
    Replay.model_validate(body)
    assert body["analysis"]["state"] == "ready" and body["analysis"]["decisions"] > 0
    assert api.get(f"/games/{game.public_id}/replay").json()["analysis"] == body["analysis"]


@pytest.mark.django_db
def test_a_mark_in_the_replay_holds_to_the_schema():
    """The person's first move goes to the other pile than the expert's: one decision, one
    mark, as the API publishes it."""
    from games import services

    owner, token = player_with_token()
    game = practice_game(owner)
    state = game.load_state()
    view = player_view(state, PERSON)
    assert DISCARD_PILE in view.legal.draw
    expert = advise(view, rng_for(game.seed, PERSON, state.actions)).action
    other = Draw(STOCK if expert.source == DISCARD_PILE else DISCARD_PILE)
    game = finish(services.act(game.public_id, owner, game.version, other.to_json()).game)
    analysis.analyse(game.public_id)

    body = bearer_api(token).get(f"/replays/{game.public_id}").json()
    Replay.model_validate(body)
    found = body["analysis"]
    assert (found["decisions"], found["agreed"], len(found["marks"])) == (1, 0, 1)
    mark = found["marks"][0]
    assert (mark["v"], mark["kind"], mark["played"], mark["expert"]) == (
        state.actions, "draw", other.to_json(), expert.to_json())
    assert mark["reason"]["code"].startswith(("take", "stock"))


def analysed_daily(clock) -> tuple[Player, Game]:
    """A person's finished daily, analysed once its day has ended: (its owner, the game)."""
    owner, _ = player_with_token()
    game = finish(play_some(start_daily(owner).game))
    clock.advance(days=1)
    analysis.analyse(game.public_id)
    return owner, game


@pytest.mark.django_db
def test_nobody_sees_another_persons_analysis(clock, seen):
    _, game = analysed_daily(clock)
    _, token = player_with_token()

    watcher = bearer_api(token).get(f"/replays/{game.public_id}").json()
    assert watcher["analysis"] is None


@pytest.mark.django_db
def test_a_game_over_long_before_analyses_began_says_it_has_none():
    owner, token = player_with_token()
    game = finish(practice_game(owner))
    Game.objects.filter(pk=game.pk).update(finished_at=daily.now() - timedelta(days=3))

    found = bearer_api(token).get(f"/replays/{game.public_id}").json()["analysis"]
    assert (found["state"], found["marks"]) == ("none", [])


# --- The replay page's summary, written by the server ---------------------------------------


def replay_page(player, game: Game, language: str = "en") -> str:
    client = Client()
    cookie = HttpResponse()
    set_player_cookie(cookie, player)
    client.cookies[COOKIE_NAME] = cookie.cookies[COOKIE_NAME].value
    client.cookies["django_language"] = language
    response = client.get(f"/replay/{game.public_id}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_replay_page_carries_the_summary_pending_then_ready_in_the_players_language():
    """In the page as served (its first paint), not drawn after the replay's JSON."""
    from games import services

    owner, _ = player_with_token()
    game = practice_game(owner)
    view = player_view(game.load_state(), PERSON)
    expert = advise(view, rng_for(game.seed, PERSON, 0)).action
    other = Draw(STOCK if expert.source == DISCARD_PILE else DISCARD_PILE)
    game = finish(services.act(game.public_id, owner, game.version, other.to_json()).game)

    assert "The expert has not reviewed this game yet" in replay_page(owner, game)
    analysis.analyse(game.public_id)
    assert "You agreed with the expert on 0% of your decisions (0 of 1)." in replay_page(
        owner, game)
    assert "Coincidiste con el experto en el 0\u00a0% de tus decisiones (0 de 1)." in (
        replay_page(owner, game, "es"))


@pytest.mark.django_db
def test_a_watcher_of_a_daily_gets_no_review_in_the_page(clock, seen):
    owner, game = analysed_daily(clock)
    watcher, _ = player_with_token()
    assert "data-analysis" in replay_page(owner, game)
    assert "data-analysis" not in replay_page(watcher, game)


def test_the_summary_names_the_costliest_difference_in_words():
    mark = {"deal": 4, "kind": "discard", "cost": 0.0213,
            "played": {"type": "discard", "card": "5D.1"}, "expert": {"card": "KS.2"}}
    found = {"state": "ready", "decisions": 6, "agreed": 5, "marks": [mark], "costliest": 0}
    with translation.override("en"):
        lines = review.summary_lines(found)
    assert lines == [
        "You agreed with the expert on 83% of your decisions (5 of 6).",
        "The costliest difference: deal 4, you kept K♠ and discarded 5♦ (about 2.1% of your "
        "chance to win, by the expert's estimate)."]
    with translation.override("es"):
        assert review.summary_lines(found)[1] == (
            "La diferencia más cara: ronda 4, te quedaste con K♠ y descartaste 5♦ (cerca del "
            "2,1\u00a0% de tu probabilidad de ganar, según el experto).")
