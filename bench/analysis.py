"""What the post-game analysis costs the worker: ``.venv/bin/python -m bench.analysis``.

Plays ``--games`` whole games (ten deals) from the seeds ``analysis-bench-<n>``: three normal
computer players and, in seat 0, a person played by a computer player of ``--person``'s level
(``easy`` by default: it differs from the expert most, so the most moves are played out to
price them). Then analyses each as the Celery task does, without the database
(``games.services.analysis.review_log``: the replay of the log, the expert's move at every
decision of the person, the play-outs of every move that differed; the task around it adds
a read of the log and one insert). Prints, over the games: the wall time to analyse a game
(median, p99, max), the worker's CPU seconds a game (median, p99) and so the games one core
analyses an hour, the decisions and marks a game, and the host yardstick.

Never a timed test: a figure for docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import UTC, datetime

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings")
django.setup()  # a script, not a command: it sets Django up itself

from bench.stats import percentile  # noqa: E402
from games.bots import LEVELS, choose, clear_memo, rng_for, yardstick  # noqa: E402
from games.engine import FINISHED, apply, new_game, player_view  # noqa: E402
from games.services.analysis import review_log  # noqa: E402

PERSON = 0
WHEN = datetime(2026, 12, 5, tzinfo=UTC)


def game_log(seed: str, person: str) -> list[tuple[int, dict, datetime]]:
    state, _ = new_game(seed)
    log = []
    while state.phase != FINISHED:
        seat = state.turn
        level = person if seat == PERSON else "normal"
        action = choose(level, player_view(state, seat), rng_for(seed, seat, state.actions))
        state, _ = apply(state, seat, action)
        log.append((seat, action.to_json(), WHEN))
    clear_memo()  # the analysis owes nothing to the game just played
    return log


def main(argv: list[str] | None = None, out=sys.stdout) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--person", choices=LEVELS, default="easy")
    args = parser.parse_args(argv)

    host_before_ms = yardstick.game_ms()
    walls, cpus, decisions, marks, actions = [], [], [], [], []
    for n in range(args.games):
        seed = f"analysis-bench-{n}"
        log = game_log(seed, args.person)
        wall, cpu = time.perf_counter(), time.process_time()
        found = review_log(seed, log, {PERSON: None})[PERSON]
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        decisions.append(found["decisions"])
        marks.append(len(found["marks"]))
        actions.append(len(log))

    def seconds(values: list[float]) -> str:
        return (f"median {statistics.median(values):.2f} s, p99 {percentile(values, 99):.2f} s, "
                f"max {max(values):.2f} s")

    print(f"{args.games} games of 10 deals, the person played by {args.person}, three normal "
          f"players: {statistics.median(actions):.0f} actions a game (median), "
          f"{statistics.median(decisions):.0f} decisions of the person, "
          f"{statistics.median(marks):.0f} marks", file=out)
    print(f"analysis of a game, wall: {seconds(walls)}", file=out)
    print(f"analysis of a game, worker CPU: {seconds(cpus)}; one core analyses "
          f"{3600 / statistics.mean(cpus):.0f} games an hour", file=out)
    print(yardstick.describe(host_before_ms, yardstick.game_ms()), file=out)


if __name__ == "__main__":
    main()
