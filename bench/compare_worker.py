"""One batch of bench.compare's games, played by whichever tree is first on ``PYTHONPATH``.

bench.compare runs this file as a script with ``PYTHONPATH`` set to one revision's tree, so it
imports nothing of ``bench`` and only the engine's and bots' public calls that every revision
has: ``new_game``, ``apply``, ``player_view``, ``STRATEGIES``, ``Memory``, ``rng_for`` and
``clear_memo``. It prints one JSON line per game: the digest of every (seat, action), the
actions, the game's CPU seconds, each level's decision CPU milliseconds and whether the
engine's rules and the bots' outlook ran compiled (games/build.py).

    PYTHONPATH=TREE python bench/compare_worker.py TREE SEED LINEUP FIRST COUNT

With ``openspiel SEED FIRST COUNT`` it plays OpenSpiel's gin rummy instead (``pyspiel``).
"""

from __future__ import annotations

import hashlib
import json
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from time import process_time


def main(tree: str, seed: str, lineup: str, first: int, count: int) -> None:
    import games

    imported_from = Path(games.__file__).resolve().parent.parent
    if imported_from != Path(tree).resolve():
        sys.exit(f"compare_worker: imported games from {imported_from}, not {tree}")
    from games.bots import STRATEGIES, Memory, clear_memo, rng_for
    from games.engine import FINISHED, apply, new_game, player_view

    compiled = all(getattr(sys.modules.get(name), "__file__", "").endswith(
        tuple(EXTENSION_SUFFIXES)) for name in ("games.engine.rules", "games.bots.outlook"))
    levels = lineup.split(",")
    for number in range(first, first + count):
        # The arena's seat-rotated schedule: each seed four times, the lineup turned a seat.
        game_seed, turn = f"{seed}-{number // 4}", number % 4
        seats = [levels[(s - turn) % 4] for s in range(4)]
        clear_memo()  # as the arena does: a game's time owes nothing to the one before
        played = []
        decisions: dict[str, list[float]] = {level: [] for level in seats}
        started = process_time()
        state, _ = new_game(game_seed)
        while state.phase != FINISHED:
            seat = state.turn
            view = player_view(state, seat)
            tick = process_time()
            action = STRATEGIES[seats[seat]](view, Memory.from_view(view),
                                             rng_for(game_seed, seat, state.actions))
            decisions[seats[seat]].append((process_time() - tick) * 1000)
            state, _ = apply(state, seat, action)
            played.append((seat, action))
        seconds = process_time() - started
        digest = hashlib.sha256()  # outside the timed play: it costs both trees alike
        for seat, action in played:
            digest.update(json.dumps([seat, action.to_json()], sort_keys=True).encode())
        print(json.dumps({"number": number, "digest": digest.hexdigest(),
                          "actions": state.actions, "seconds": seconds,
                          "decision_ms": decisions, "compiled": compiled}), flush=True)


def openspiel(seed: str, first: int, count: int) -> None:
    """The yardstick: games of OpenSpiel's gin rummy (C++ under pybind11) between two random
    players, each move a uniform choice among ``legal_actions()``; the deal's chance outcomes
    are drawn alike and not counted as actions. The same JSON lines as main's."""
    import random

    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    for number in range(first, first + count):
        rng = random.Random(f"{seed}-{number}")
        actions = 0
        started = process_time()
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        print(json.dumps({"number": number, "digest": "", "actions": actions,
                          "seconds": process_time() - started, "decision_ms": {},
                          "compiled": True}), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "openspiel":
        openspiel(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
