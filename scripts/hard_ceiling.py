"""What hard's search could win with more knowledge or time than it has: a measurement, not a bot.

Plays seat-rotated games of one searching player against three normal players, like
``manage.py tournament --seats hard,normal,normal,normal``, and prints the same figures. The
searcher is hard's own search (games/bots/hard.py) with one thing changed, by ``--mode``:

- ``truth`` PEEKS: it searches the true state (every hand and the stock's order) instead of
  imagined worlds, at every draw and discard from the deal's start, each play-out to the
  deal's end. Normal needs no dice, so each play-out is exactly what would happen: the value
  of knowing everything.
- ``hands`` PEEKS at the other hands only: hard's search as it is (after someone has laid
  down, a round ahead, up to 8 worlds), but every world holds the true hands, the stock
  shuffled. The value of inferring the hands perfectly from the opponents' play.
- ``deep`` is honest: imagined worlds as hard's, but every draw and discard searched from the
  deal's start, each play-out to the deal's end (``--worlds`` at most). The value of a search
  far beyond hard's time budget.

The peeking players exist only here; the bots the server plays (games/bots) never receive
the state (R25). Slow on purpose: ``deep`` takes about a minute a game.

    .venv/bin/python scripts/hard_ceiling.py --mode hands --games 200 --jobs 2
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, replace
from functools import partial
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import STRATEGIES, Memory, hard  # noqa: E402
from games.bots.arena import Tally, play_game_with, schedule, wilson  # noqa: E402
from games.engine.state import GameState  # noqa: E402

TO_THE_DEALS_END = 1000  # turns: more than any deal lasts (R20)


@dataclass(frozen=True)
class Searcher(hard.Hard):
    """Hard's search, from the deal's start (``truth``, ``deep``) or as hard searches
    (``hands``), over the worlds its mode allows."""

    mode: str = "deep"
    truth: GameState | None = None  # the state itself, for the modes that peek

    def __call__(self, view, memory, rng):
        if self.mode == "hands":
            return super().__call__(view, memory, rng)
        return self._decide(view, memory, rng)

    def _world(self, view, memory, rng):
        if self.mode == "hands":
            return _true_hands(self.truth, rng)
        return super()._world(view, memory, rng)

    def _search(self, view, memory, rng, options):
        if self.mode != "truth":
            return super()._search(view, memory, rng, options)
        # One world, the true one, and no dice in it: the best play-out is simply the best.
        unseen = hard._unseen_counts(self.truth)
        values = [self._play_out(self.truth, unseen, view.seat, action) for action in options]
        return options[max(range(len(options)), key=lambda i: (values[i], -i))]


def _true_hands(state: GameState, rng) -> GameState:
    """The true state with the stock shuffled: every hand known, the draws still unknown."""
    return replace(state, seed=f"world-{rng.below(2**32)}",
                   stock=tuple(rng.shuffle(list(state.stock))))


def decide(state: GameState, seat: int, view, rng, lineup, searcher: Searcher):
    """The searcher is handed the state it may peek at; the normal players only their view."""
    if lineup[seat] == "searcher":
        return replace(searcher, truth=state)(view, Memory.from_view(view), rng)
    return STRATEGIES[lineup[seat]](view, Memory.from_view(view), rng)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["truth", "hands", "deep"], required=True)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", default="ceiling")
    parser.add_argument("--worlds", type=int, default=16, help="deep: worlds at most")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--every", type=int, default=8, help="print the win rate every N games")
    args = parser.parse_args()
    if args.mode == "hands":
        searcher = Searcher(mode="hands")
    else:
        searcher = Searcher(mode=args.mode, horizon=TO_THE_DEALS_END,
                            worlds=args.worlds if args.mode == "deep" else 1)
    games = list(schedule(args.games, ("searcher", "normal", "normal", "normal"), args.seed))
    tally = Tally()
    with Pool(args.jobs) as pool:
        for number, record in enumerate(
                pool.imap(partial(_play, searcher=searcher), games), start=1):
            tally.add(record)
            if number % args.every == 0:
                t = tally.levels["searcher"]
                low, high = wilson(t.wins, t.seats)
                print(f"{number} games: searcher {t.wins / t.seats:.1%} [{low:.1%}, {high:.1%}]",
                      flush=True)
    print(tally.report())
    return 0


def _play(game, searcher):
    seed, lineup = game
    return play_game_with(seed, lineup, partial(decide, lineup=lineup, searcher=searcher))


if __name__ == "__main__":
    sys.exit(main())
