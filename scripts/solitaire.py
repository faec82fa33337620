"""How good is the normal player's plan of its hand? Its discards against a search's, alone.

One player, ten cards, one contract, drawing only from the stock (no table, no pile, nobody
to go out first): how many draws until the hand holds its contract (R10)? Every deal is played
by three discarders from the same cards:

- ``normal``: the normal player's price of each discard (``games.bots.normal.discard_order``
  without what needs a table: feeding the next player, someone about to go out);
- ``search``: normal's ``--candidates`` best discards, each played on in ``--worlds`` imagined
  stocks (the unseen cards shuffled; every candidate meets the same stocks) by normal's
  discards for up to ``--horizon`` draws, keeping the one that held the contract soonest on
  average: hard's kind of search, over the hand alone;
- ``peek`` (not honest): the same search in one world, the true stock: what knowing the
  order of the stock is worth.

If the search holds contracts sooner than normal, normal's plan of its hand leaves something
for a searcher to find; if not, the differences between players lie elsewhere. Prints, per
discarder, the mean draws (a deal not done by ``--cap`` counts ``--cap`` + 1), the share done
within 8 and 12 draws (a deal gives each player about 10), and the paired difference to normal
with its standard error.

    .venv/bin/python scripts/solitaire.py --deals 120 --jobs 2
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from functools import partial
from math import sqrt
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.normal import HOLDS_NEAR, penalty_weight  # noqa: E402 (the repository is on the path now)
from games.bots.outlook import hand_counts, outlook  # noqa: E402
from games.engine.cards import JOKERS, PACK, penalty_of  # noqa: E402
from games.engine.contracts import TOP_RUNG, contract_for  # noqa: E402
from games.engine.melds import holds_contract  # noqa: E402
from games.engine.rng import Stream  # noqa: E402

HAND = 10
DISCARDERS = ("normal", "search", "peek")


def live_counts(seen) -> tuple[int, ...]:
    """Per face, jokers last, the copies not in ``seen`` (R2: two decks, three jokers), as
    :class:`games.bots.memory.Memory` counts the live cards."""
    naturals, jokers = hand_counts(seen)
    return (*(2 - n for n in naturals), len(JOKERS) - jokers)


def ranked_discards(hand, contract, live) -> list[int]:
    """The hand's cards, the cheapest to throw first, as the normal player prices them."""
    plans = outlook(hand, contract, live)
    weight = penalty_weight(plans, urgency=0.0)  # nobody else is at the table to go out
    priced = sorted((plans.without(c) - weight * penalty_of(c), c) for c in set(hand))
    return [c for _, c in priced]


def draws_to_contract(hand, stock, contract, gone, discard, cap) -> int:
    """Draws until ``hand`` holds ``contract``, discarding by ``discard`` after each; cap + 1
    if not within ``cap``. ``gone``: cards discarded before."""
    hand, gone = list(hand), list(gone)
    for drawn in range(1, min(cap, len(stock)) + 1):
        hand.append(stock[drawn - 1])
        live = live_counts(hand + gone)
        if outlook(hand, contract, live).nearest < HOLDS_NEAR and holds_contract(hand, contract):
            return drawn
        card = discard(hand, contract, live, stock[drawn:], gone)
        hand.remove(card)
        gone.append(card)
    return cap + 1


def normal_discard(hand, contract, live, stock, gone) -> int:
    return ranked_discards(hand, contract, live)[0]


def search_discard(hand, contract, live, stock, gone, *, worlds, horizon, candidates, rng,
                   peek=False) -> int:
    """Normal's best ``candidates`` discards, played on in the same stocks; the soonest on
    average, normal's own first choice on a tie."""
    options = ranked_discards(hand, contract, live)[:candidates]
    if len(options) == 1:
        return options[0]
    seen = set(hand).union(gone)
    unseen = [c for c in PACK if c not in seen]
    totals = dict.fromkeys(options, 0)
    for _ in range(1 if peek else worlds):
        world = stock if peek else rng.shuffle(unseen)
        for card in options:
            rest = list(hand)
            rest.remove(card)
            totals[card] += draws_to_contract(rest, world, contract, [*gone, card],
                                              normal_discard, horizon)
    return min(options, key=lambda card: totals[card])  # min keeps the first of equals


def play_deal(number: int, args) -> tuple[int, dict[str, int]]:
    rung = 1 + number % TOP_RUNG
    cards = Stream.of(args.seed, "deal", number).shuffle(list(PACK))
    hand, stock = cards[:HAND], cards[HAND:]
    results = {}
    for name in DISCARDERS:
        if name == "normal":
            discard = normal_discard
        else:
            discard = partial(search_discard, worlds=args.worlds, horizon=args.horizon,
                              candidates=args.candidates, peek=name == "peek",
                              rng=Stream.of(args.seed, "worlds", number))
        results[name] = draws_to_contract(hand, stock, contract_for(rung), [], discard, args.cap)
    return rung, results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=120, help="deals, rungs 1-10 in turn")
    parser.add_argument("--worlds", type=int, default=20)
    parser.add_argument("--horizon", type=int, default=20, help="draws a play-out looks ahead")
    parser.add_argument("--candidates", type=int, default=3)
    parser.add_argument("--cap", type=int, default=30, help="draws a deal is played to")
    parser.add_argument("--seed", default="solitaire")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    with Pool(args.jobs) as pool:
        played = pool.map(partial(play_deal, args=args), range(args.deals), chunksize=1)
    print(f"{args.deals} deals (seed {args.seed!r}), draws until the hand holds its contract; "
          f"search: {args.candidates} candidates, {args.worlds} worlds, horizon {args.horizon}")
    normal = [results["normal"] for _, results in played]
    for name in DISCARDERS:
        draws = [results[name] for _, results in played]
        line = (f"{name:<7} mean {statistics.mean(draws):5.2f}  within 8: "
                f"{sum(d <= 8 for d in draws) / len(draws):4.0%}  within 12: "
                f"{sum(d <= 12 for d in draws) / len(draws):4.0%}")
        if name != "normal":
            gains = [n - d for n, d in zip(normal, draws, strict=True)]
            line += (f"  draws saved against normal {statistics.mean(gains):+.2f} "
                     f"± {statistics.stdev(gains) / sqrt(len(gains)):.2f}")
        print(line)
    for rung in range(1, TOP_RUNG + 1):
        here = [results for r, results in played if r == rung]
        if here:
            print(f"rung {rung:>2}: " + "  ".join(
                f"{name} {statistics.mean(r[name] for r in here):4.1f}" for name in DISCARDERS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
