"""The post-game analysis: each person's decisions against the expert's, once the game is over.

Written once per game, one :class:`~games.models.Analysis` row per person seat (a shared
table's game has one for each person), by the Celery task ``games.tasks.analyse_game``: queued when
a practice game ends (games.receivers) and, for a daily, by the hourly sweep once its day has
ended (:func:`awaiting`); eager at once under ``./dev serve``. It is refused while the game or
its daily still runs (:class:`AnalysisRefused`): a daily's seed is secret until its day ends,
and the analysis reads the log.

The log is replayed once (R24). At each action a person chose at their seat the person's
own view at that moment, ``player_view(state, seat)``, goes to :func:`games.bots.review` with
the rng the hint would have had then: the expert is the hint's, and sees what the person saw,
never another hand or the stock (R25). An action a bot chose for them (``GameAction.bot``:
their timer ran out, they were away, they had left; for rows older than that field, only
after ``Seat.left_at``) is not theirs to be judged on: it is left out, and its turn counted.

The stored ``data``:

- ``bot_turns``: the person's turns in which a bot chose at least one move for them (those
  moves are in no count and no mark; a turn the person began and the timer finished keeps
  the person's own moves);
- ``decisions``: the person's moves that were choices (forced moves are not counted:
  games.bots.postgame says which), ``agreed``: those where the expert would have done the same;
- ``marks``: each decision where it would not, in order: ``v`` (the version at which the
  person decided: the replay's state there shows the moment), ``deal``, ``kind`` (the
  expert's move: ``draw``, ``discard``, ``lay_down``, ``lay_off``), ``played`` and ``expert``
  (actions, as ``POST /actions`` takes them), ``reason`` (the hint's reason code and English
  sentence for the expert's move) and ``cost``;
- ``costliest``: the index in ``marks`` of the mark with the highest ``cost``, or null when
  no mark cost anything. ``cost`` is the expert's estimate of the chance to win the game the
  person's move gave up against its own (0.03: 3 points of percentage): both moves played out
  in the same imagined worlds consistent with the person's view (games.bots.hard, ``gain``).
  An estimate, so a mark may cost less than 0 (the worlds preferred the person's move).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from games import daily
from games.bots import clear_memo, review, rng_for
from games.engine import action_from_json, apply, new_game, player_view
from games.models import Analysis, Game, Seat

logger = logging.getLogger(__name__)

COST_DIGITS = 4  # a chance to win, to 0.01 %
AWAITING_DAYS = 2  # the sweep looks back this far: a daily ends at most a day after its game


class AnalysisRefused(Exception):
    """The game, or its daily's day, is still running."""


def still_running(game: Game) -> bool:
    """Whether ``game`` may still be played or its seed is still secret (a daily whose day
    has not ended): its analysis waits."""
    return not game.finished or (game.daily_id is not None and not daily.day_has_ended(game))


def analyse(public_id: str) -> int:
    """Analyse a game that is over for each of its people, once: the rows written (0 when
    they exist already). Raises AnalysisRefused while it still runs, Game.DoesNotExist."""
    game = Game.objects.select_related("daily").defer("state").get(public_id=public_id)
    if still_running(game):
        raise AnalysisRefused(public_id)
    people = dict(Seat.objects.filter(game=game).values_list("number", "left_at"))
    if Analysis.objects.filter(game=game).count() >= len(people):
        return 0
    log = list(game.actions.order_by("index")
               .values_list("seat", "action", "created_at", "bot"))
    try:
        rows = [Analysis(game=game, seat=seat, data=data)
                for seat, data in review_log(game.seed, log, people).items()]
    except Exception:  # a bug in the bots: no analysis for this game, and the replay says so
        logger.exception("The analysis of game %s failed", public_id)
        rows = [Analysis(game=game, seat=seat, failed=True) for seat in people]
    Analysis.objects.bulk_create(rows, ignore_conflicts=True)  # a second task wrote them
    return len(rows)


def review_log(seed: str, log: list[tuple[int, dict, datetime, bool | None]],
               people: dict[int, datetime | None]) -> dict[int, dict]:
    """Each person seat's analysis (the stored ``data``) of the game ``(seed, log)``: ``log``
    the actions as (seat, action, when, chosen by a bot: ``GameAction.bot``), ``people`` each
    person's seat with the moment they left it (None: they stayed)."""
    found = {seat: {"decisions": 0, "agreed": 0, "marks": [], "costliest": None}
             for seat in people}
    for_them: dict[int, set[tuple[int, int]]] = {seat: set() for seat in people}
    state, _ = new_game(seed)
    try:
        for seat, data, when, bot in log:
            action = action_from_json(data)
            if seat in people and _by_bot(bot, when, people[seat]):
                for_them[seat].add((state.deal, state.turn_number))
            elif seat in people:
                _count(found[seat], state.actions, state.deal, action,
                       review(player_view(state, seat), action,
                              rng_for(seed, seat, state.actions)))
            state, _ = apply(state, seat, action)
    finally:
        clear_memo()  # the next task is another game (games.bots.memo)
    for seat, analysis in found.items():
        analysis["costliest"] = _costliest(analysis["marks"])
        analysis["bot_turns"] = len(for_them[seat])
    return found


def _by_bot(bot: bool | None, when: datetime, left: datetime | None) -> bool:
    """Whether a bot chose a person seat's action: as the log says, or, for the rows from
    before it said (null), when the person had left the game."""
    if bot is not None:
        return bot
    return left is not None and when >= left


def _count(analysis: dict, version: int, deal: int, played, verdict) -> None:
    if verdict.forced:
        return
    analysis["decisions"] += 1
    if verdict.agrees:
        analysis["agreed"] += 1
        return
    advice = verdict.advice
    analysis["marks"].append({
        "v": version, "deal": deal, "kind": verdict.kind, "played": played.to_json(),
        "expert": advice.action.to_json(),
        "reason": {"code": advice.reason, "message": advice.message},
        "cost": round(verdict.cost, COST_DIGITS)})


def _costliest(marks: list[dict]) -> int | None:
    """The mark that gave up the most, by the expert's estimate (the first of equals); None
    when none gave up anything."""
    best = max(range(len(marks)), key=lambda i: (marks[i]["cost"], -i), default=None)
    return best if best is not None and marks[best]["cost"] > 0 else None


def may_come(game: Game) -> bool:
    """Whether a game over with no analysis may still get one from the task or the hourly
    sweep (:func:`awaiting`): a game over longer ago never will (one over before analyses
    existed, or whose task and sweeps were all lost)."""
    return game.finished_at is None or game.finished_at >= daily.now() - timedelta(
        days=AWAITING_DAYS)


def awaiting(moment: datetime | None = None) -> list[str]:
    """The games over in the last ``AWAITING_DAYS`` days with people and no analysis yet, whose
    analysis may run now: the hourly sweep queues them (a daily once its day has ended; a
    practice game whose task was lost)."""
    moment = moment or daily.now()
    games = (Game.objects.filter(status=Game.FINISHED,
                                 finished_at__gte=moment - timedelta(days=AWAITING_DAYS),
                                 seats__isnull=False, analyses__isnull=True)
             .exclude(mode=Game.DAILY, daily__date__gte=daily.today())
             .order_by("finished_at").distinct())
    return list(games.values_list("public_id", flat=True))
