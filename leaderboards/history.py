"""A player's daily history: games, contracts, best day and streaks.

A streak counts consecutive UTC days with a finished daily. The current streak is the run
ending today, or yesterday while today's daily is still to be played (a streak is not broken
until a whole day passes without one). Only listed scores count on a public profile; the
player's own view (``GET /leaderboards/me``) counts hidden ones too.
"""

from __future__ import annotations

from datetime import date, timedelta

from games import daily
from games.models import Game, Player
from leaderboards.models import Score
from leaderboards.ranking import day_board

RECENT_DAYS = 30
ONE_DAY = timedelta(days=1)


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
        "games": Game.objects.filter(owner=player, status=Game.FINISHED).count(),
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
