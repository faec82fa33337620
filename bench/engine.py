"""How fast the rules engine is (docs/design.md, "The apps"): pure Python, no Django, no server.

Prints p50/p99 of the contract search and the lay-off search over random 11-card hands with up
to three jokers (each the fastest of three runs), and the median/p90 time to simulate a whole
ten-deal game of random legal players, then the host yardstick (games.bots.yardstick).
Figures, not pass/fail: the machines are noisy, so quote medians and ratios.

    .venv/bin/python -m bench.engine --hands 10000 --games 20
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench.stats import fastest, percentile
from games.bots import choose, rng_for, yardstick
from games.engine import FINISHED, apply, contract_for, new_game, player_view, read_meld
from games.engine.cards import JOKERS, PACK
from games.engine.melds import best_lay_down, holds_contract, lay_off_options
from games.engine.rng import Stream

NATURALS = [c for c in PACK if c not in JOKERS]


def random_hand(rng: Stream, size: int = 11) -> list[int]:
    jokers = rng.below(4)
    return rng.shuffle(list(NATURALS))[:size - jokers] + list(JOKERS[:jokers])


def random_table(rng: Stream) -> list:
    """Four to eight melds of the kinds contracts make: groups of 3-4 and runs of 4-7."""
    melds = []
    for _ in range(4 + rng.below(5)):
        if rng.below(2):
            rank, copies = 1 + rng.below(13), rng.shuffle([0, 1, 2, 3, 0, 1, 2, 3])
            melds.append(read_meld([copy * 13 + rank - 1 + 52 * (i % 2)
                                    for i, copy in enumerate(copies[:3 + rng.below(2)])]))
        else:
            suit, length = rng.below(4), 4 + rng.below(4)
            low = 1 + rng.below(14 - length + 1)
            melds.append(read_meld([suit * 13 + (r - 1) % 13 for r in range(low, low + length)]))
    return melds


def simulate_game(seed: str, level: str) -> int:
    state, _ = new_game(seed)
    while state.phase != FINISHED:
        seat = state.turn
        action = choose(level, player_view(state, seat), rng_for(seed, seat, state.actions))
        state, _ = apply(state, seat, action)
    return state.actions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--level", default="random", help="the players of simulated games")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    print(measure(args.hands, args.games, args.level, args.seed))
    return 0


def measure(hands: int, games: int, level: str, seed: str) -> str:
    """The figures, as lines of text."""
    host_before_ms = yardstick.game_ms()
    rng = Stream.of(seed, "hands")
    holds, best, lay_offs, found = [], [], [], 0
    for i in range(hands):
        hand, contract = random_hand(rng), contract_for(1 + i % 10)
        holds.append(fastest(holds_contract, hand, contract))
        best.append(fastest(best_lay_down, hand, contract))
        found += holds_contract(hand, contract)
        lay_offs.append(fastest(lay_off_options, hand, random_table(rng)))
    lines = [f"{hands} random 11-card hands (0-3 jokers), rungs 1-10 in turn; "
             f"{found} hold their contract"]
    for name, samples in (("holds_contract", holds), ("best_lay_down", best),
                          ("lay_off_options", lay_offs)):
        lines.append(f"  {name:<16} p50 {percentile(samples, 50) * 1e3:7.3f} ms   "
                     f"p99 {percentile(samples, 99) * 1e3:7.3f} ms   "
                     f"max {max(samples) * 1e3:7.3f} ms")
    durations, actions = [], []
    for g in range(games):
        start = time.perf_counter()
        actions.append(simulate_game(f"{seed}-{g}", level))
        durations.append(time.perf_counter() - start)
    per_action = statistics.median(d / a for d, a in zip(durations, actions, strict=True))
    lines.append(
        f"{games} ten-deal games of four '{level}' players: median "
        f"{statistics.median(durations) * 1e3:.0f} ms, "
        f"p90 {percentile(durations, 90) * 1e3:.0f} ms; "
        f"{statistics.median(actions):.0f} actions per game (median), "
        f"{per_action * 1e6:.0f} µs per action including the players' choices")
    lines.append(yardstick.describe(host_before_ms, yardstick.game_ms()))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
