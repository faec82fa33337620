"""A yardstick for the host, printed beside the benchmarks' own figures.

The machines these benchmarks run on are shared, and their speed moves with the host as much
as with the code: the same four normal bots' games have taken 131 ms of CPU on one machine
and 368 ms on another, while a bare loop of additions was no slower on the second. So the
yardstick is a piece of this project's own work, a seeded game of four normal
bots, which runs the same instructions every time: its CPU time now says how fast the host
runs this kind of code, and lets a figure be set beside one from another run.

It is this project's code, so it measures the host only between runs of the same engine and
bots: a change that makes the bots faster makes the yardstick shorter too.
"""

from __future__ import annotations

from statistics import median

from games.bots.arena import play_game
from games.bots.memo import clear_memo

SEED = "yardstick"
RUNS = 3


def game_ms() -> float:
    """CPU milliseconds of the reference game, the median of RUNS plays."""
    played = median(play_game(SEED, ("normal",) * 4).seconds for _ in range(RUNS))
    clear_memo()  # what the game memoised is no use to whatever is measured next
    return played * 1000


def describe(before_ms: float, after_ms: float) -> str:
    return (f"host yardstick: the reference game of four normal bots took {before_ms:.0f} ms "
            f"of CPU before, {after_ms:.0f} ms after")
