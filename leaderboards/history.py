"""A player's daily history: games, contracts, best day and streaks.

A streak counts consecutive UTC days with a finished daily. The current streak is the run
ending today, or yesterday while today's daily is still to be played (a streak is not broken
until a whole day passes without one). Only listed scores count on a public profile; the
player's own view (``GET /leaderboards/me``) counts hidden ones too.

The public player page (:func:`player_page`) adds each of the latest dailies with its rank on
that day's board and, once the day has ended, its game (for the replay), and how often the
player laid down the contract of each rung against everyone's rate. A rung's rate is
(deals played on that rung in which the person laid its contract down) / (deals played on it),
read from each daily's deal results (``state.history``: who climbed in each deal, R12; the
person is seat 0 and plays rung 1 + the contracts laid down before that deal). The player's
own rate covers their latest :data:`RATE_DAILIES` listed dailies; everyone's, the latest
:data:`EVERYONE_DAILIES` listed dailies of all players, kept in the cache for
:data:`EVERYONE_CACHE_S` seconds (the deal results sit inside each game's state column).
"""

from __future__ import annotations

from datetime import date, timedelta

from django.core.cache import cache
from django.db.models.fields.json import KeyTransform

from games import daily
from games.engine.contracts import TOP_RUNG
from games.models import SOLO_SEAT, Game
from games.players.models import Player
from leaderboards.models import Score
from leaderboards.ranking import day_board

RECENT_DAYS = 30
ONE_DAY = timedelta(days=1)
PAGE_DAYS_DEFAULT, PAGE_DAYS_MAX = 30, 100
RATE_DAILIES = 100
EVERYONE_DAILIES = 500
EVERYONE_CACHE_S = 600
EVERYONE_CACHE_KEY = "leaderboards:rung-rates:v1"


def streaks(days: list[date], today: date) -> tuple[int, int]:
    """(current, longest) runs of consecutive days in ``days`` (sorted, distinct)."""
    longest = run = 0
    previous = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == ONE_DAY else 1
        longest = max(longest, run)
        previous = day
    current = run if previous is not None and today - previous <= ONE_DAY else 0
    return current, longest


def history(player: Player, include_hidden: bool = False) -> dict:
    scores = Score.objects.filter(player=player)
    if not include_hidden:
        scores = scores.listed()
    rows = list(scores.order_by("day").only(
        "id", "day", "contracts", "penalty", "place", "finished_at", "listed"))
    current, longest = streaks([s.day for s in rows], daily.today())
    best = min(rows, key=lambda s: (-s.contracts, s.penalty, s.finished_at), default=None)
    return {
        "player": {"id": player.public_id, "name": player.name},
        "games": Game.objects.of(player).finished().count(),
        "dailies": len(rows),
        "contracts": sum(s.contracts for s in rows),
        "best_day": _day_json(best, with_rank=True) if best else None,
        "current_streak": current,
        "longest_streak": longest,
        "recent": [_day_json(s) for s in reversed(rows[-RECENT_DAYS:])],
    }


def _day_json(score: Score, with_rank: bool = False) -> dict:
    rank = None
    if with_rank and score.listed:
        rank = day_board(score.day).rank_of(score)
    return {"date": score.day, "contracts": score.contracts, "penalty": score.penalty,
            "place": score.place, "rank": rank}


# --- The public player page -----------------------------------------------------------------


def rung_counts(histories) -> list[list[int]]:
    """[deals played, deals laid down] for rungs 1-10, over games' deal results (each a list
    of DealResult.to_json(); a game with none yet counts nothing)."""
    counts = [[0, 0] for _ in range(TOP_RUNG)]
    for history_ in histories:
        climbed = 0
        for deal in history_ or ():
            rung = min(climbed + 1, TOP_RUNG)
            laid = bool(deal["climbed"][SOLO_SEAT])  # a daily is played alone
            counts[rung - 1][0] += 1
            counts[rung - 1][1] += laid
            climbed += laid
    return counts


def _histories(scores) -> list:
    return list(scores.annotate(deal_results=KeyTransform("history", "game__state"))
                .values_list("deal_results", flat=True))


def everyones_counts() -> list[list[int]]:
    counts = cache.get(EVERYONE_CACHE_KEY)
    if counts is None:
        latest = Score.objects.listed().order_by("-day", "-finished_at")[:EVERYONE_DAILIES]
        counts = rung_counts(_histories(latest))
        cache.set(EVERYONE_CACHE_KEY, counts, EVERYONE_CACHE_S)
    return counts


def player_page(player: Player, days: int = PAGE_DAYS_DEFAULT) -> dict:
    """history() and, for the public page, the latest ``days`` listed dailies (rank on the
    day's board; the game's id only once the day has ended: a running daily's replay is
    nobody's) and the per-rung lay-down rates."""
    page = history(player)
    days = max(1, min(days, PAGE_DAYS_MAX))
    listed = Score.objects.filter(player=player).listed()
    latest = list(listed.order_by("-day").select_related("game").only(
        "id", "day", "contracts", "penalty", "place", "finished_at", "listed",
        "game__public_id")[:days])
    page["days"] = [{
        "date": s.day, "contracts": s.contracts, "penalty": s.penalty, "place": s.place,
        "rank": day_board(s.day).rank_of(s),
        "game": s.game.public_id if daily.has_ended(s.day) else None,
    } for s in latest]
    mine = rung_counts(_histories(listed.order_by("-day")[:RATE_DAILIES]))
    everyone = everyones_counts()
    page["rungs"] = [{
        "rung": rung, "deals": mine[rung - 1][0], "laid_down": mine[rung - 1][1],
        "rate": _rate(mine[rung - 1]), "everyone_rate": _rate(everyone[rung - 1]),
    } for rung in range(1, TOP_RUNG + 1)]
    return page


def _rate(counts: list[int]) -> float | None:
    played, laid = counts
    return round(laid / played, 4) if played else None
