"""``python manage.py tournament``: bot-only games, the bots' benchmark (docs/bots.md).

    python manage.py tournament --games 2000 --seats hard,normal,normal,normal --seed S --jobs 2

Plays seat-rotated duplicate games (every seed four times, the lineup turned one seat each
time, so every level gets every hand) and prints, per level: win rate with its 95 % Wilson
interval, mean contracts completed, mean penalty, decision time p50/p99; and for the game:
the share of deals in which a player on each rung lays the contract down, the mean turns per
deal, how deals end (someone went out / the stock limit of R20), and the time per game.
Levels: random, easy, normal, hard.

``--jobs N`` plays the games in N processes. Each game depends on its seed alone and the
records are tallied in schedule order, so the figures are the same as with one job (only the
times differ: each is the CPU time of the process that played the game).
"""

from __future__ import annotations

from functools import partial
from multiprocessing import Pool

from django.core.management.base import BaseCommand, CommandError

from games.bots import STRATEGIES, yardstick
from games.bots.arena import Tally, play_game, schedule
from games.bots.hard import HORIZON_TURNS, WORLDS, Hard


class Command(BaseCommand):
    help = "Play bot-only tournaments of seat-rotated duplicate games and print the figures."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100,
                            help="games to play, rounded up to a multiple of 4 (default 100)")
        parser.add_argument("--seats", default="hard,normal,normal,normal",
                            help="four levels, comma-separated, of: " + ", ".join(STRATEGIES))
        parser.add_argument("--seed", default="tournament",
                            help="game seeds are SEED-0, SEED-1, ...")
        parser.add_argument("--hard-worlds", type=int, default=WORLDS,
                            help=f"worlds hard imagines per decision at most (default {WORLDS})")
        parser.add_argument("--hard-horizon", type=int, default=HORIZON_TURNS,
                            help=f"turns hard plays ahead (default {HORIZON_TURNS})")
        parser.add_argument("--every", type=int, default=0,
                            help="also print the figures so far every N games")
        parser.add_argument("--jobs", type=int, default=1,
                            help="processes playing games side by side (default 1)")

    def handle(self, *args, games, seats, seed, hard_worlds, hard_horizon, every, jobs=1,
               **options):
        lineup = [level.strip() for level in seats.split(",")]
        if len(lineup) != 4 or any(level not in STRATEGIES for level in lineup):
            raise CommandError("--seats takes four of: " + ", ".join(STRATEGIES))
        if games < 1:
            raise CommandError("--games must be at least 1")
        if jobs < 1:
            raise CommandError("--jobs must be at least 1")
        strategies = {**STRATEGIES, "hard": Hard(worlds=hard_worlds, horizon=hard_horizon)}
        games_to_play = list(schedule(games, lineup, seed))
        play = partial(_play, strategies=strategies)
        tally = Tally()
        host_before_ms = yardstick.game_ms()
        if jobs == 1:
            self._tally(tally, map(play, games_to_play), every)
        else:
            with Pool(jobs) as pool:
                # imap hands the records back in schedule order, whichever process finished
                # first, so the tally (and every --every report) matches one job's.
                self._tally(tally, pool.imap(play, games_to_play), every)
        self.stdout.write(tally.report())
        self.stdout.write(yardstick.describe(host_before_ms, yardstick.game_ms()))

    def _tally(self, tally: Tally, records, every: int) -> None:
        for number, record in enumerate(records, start=1):
            tally.add(record)
            if every and number % every == 0:
                self.stdout.write(tally.report() + "\n")
                self.stdout.flush()


def _play(game, strategies):
    seed, seated = game
    return play_game(seed, seated, strategies)
