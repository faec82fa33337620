"""How far a hand is from its contract, counting the cards that could still complete it.

A *plan* picks, for every requirement of the contract (R10), a target meld of its minimum size:
a group of one rank, or a run of one suit over a window of ranks. The cards of the hand that fit
the targets are kept; every missing place is a *slot* that a future draw must fill. A slot is
cheap when many live cards fit it (cards that may still come: in the stock or unseen in another
hand) and dear when few do. The hand's jokers fill the dearest slots, except that each meld
needs two naturals of its own (R7).

A hand's *distance* is a soft minimum over its plans' costs, so that a hand with several ways
to its contract counts as nearer than a hand with one. Its unit is roughly "draws still needed";
0 or less means the hand holds the contract.

``Outlook.without(card)`` re-prices every plan with one card gone, which is how a player weighs
each discard without searching again.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import accumulate
from math import exp, log

from games.engine.cards import FACES, HIGH_ACE, is_joker
from games.engine.contracts import GROUP, Contract

SUITS, RANKS = 4, 13
TOP_TARGETS = 5  # targets per requirement worth pairing with the other requirements' targets
SOFTNESS = 0.5  # how much a second way to the contract counts, in draws
DEAD_SLOT = 50.0  # a place no live card can fill: as good as never
KEEP_PLANS_WITHIN = 5.0  # plans dearer than the best by more hardly move the soft minimum
MEMO_SIZE = 50_000

# A slot that n live cards fit costs one draw plus the wait for one of those n cards.
_SLOT_COST = [1.0 + 3.0 / (outs + 1) for outs in range(40)]
_MEMO: dict = {}


def slot_cost(outs: int) -> float:
    return _SLOT_COST[outs] if outs > 0 else DEAD_SLOT


class _Plan:
    """One plan's price: ``fixed`` slots that need naturals, ``flexible`` slots (sorted) that the
    hand's jokers may fill, and for each natural face used, the slot its loss would open."""

    __slots__ = ("fixed", "flexible", "sums", "jokers", "losses", "cost")

    def __init__(self, fixed, flexible, jokers, losses):
        self.fixed = fixed
        self.flexible = sorted(flexible)
        self.sums = [0.0, *accumulate(self.flexible)]
        self.jokers = jokers
        self.losses = losses  # face -> (slot cost, needs a natural)
        self.cost = fixed + self.sums[max(len(self.flexible) - jokers, 0)]

    def cost_without(self, face: int | None) -> float:
        """The cost once a card of ``face`` (None: a joker) is no longer in hand."""
        if face is None:
            return self.fixed + self.sums[max(len(self.flexible) - self.jokers + 1, 0)]
        loss = self.losses.get(face)
        if loss is None:
            return self.cost
        slot, needs_natural = loss
        if needs_natural:
            return self.cost + slot
        kept = len(self.flexible) + 1 - self.jokers  # slots left for draws to fill
        if kept <= 0:
            return self.fixed
        if bisect_left(self.flexible, slot) >= kept:
            return self.fixed + self.sums[kept]
        return self.fixed + self.sums[kept - 1] + slot


class Outlook:
    """The plans of one hand for one contract, given the live cards."""

    __slots__ = ("plans", "distance")

    def __init__(self, hand, contract: Contract, live):
        counts, jokers = hand_counts(hand)
        plans = _plans(counts, jokers, contract, live)
        if plans:
            best = min(p.cost for p in plans)
            plans = [p for p in plans if p.cost <= best + KEEP_PLANS_WITHIN]
        self.plans = plans
        self.distance = _soft_min([p.cost for p in plans])

    def without(self, card: int) -> float:
        """The distance once ``card`` is discarded."""
        face = None if is_joker(card) else card % FACES
        return _soft_min([p.cost_without(face) for p in self.plans])


def outlook(hand, contract: Contract, live) -> Outlook:
    """The :class:`Outlook` of ``hand`` (memoised: players weigh the same hands again and
    again). ``live`` counts per face, jokers last, the cards that may still come
    (:class:`games.bots.memory.Memory`)."""
    key = (tuple(sorted(hand)), contract.rung, live)
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        found = _MEMO[key] = Outlook(hand, contract, live)
    return found


def hand_counts(hand) -> tuple[list[int], int]:
    """Naturals per face (0-51) and the number of jokers."""
    counts = [0] * FACES
    jokers = 0
    for card in hand:
        if is_joker(card):
            jokers += 1
        else:
            counts[card % FACES] += 1
    return counts, jokers


def _soft_min(costs: list[float]) -> float:
    if not costs:
        return DEAD_SLOT * 4
    best = min(costs)
    return best - SOFTNESS * log(sum(exp((best - c) / SOFTNESS) for c in costs))


def _plans(counts, jokers, contract: Contract, live) -> list[_Plan]:
    """Every plan pairing the requirements' most promising targets. Runs are placed first, as
    in the engine's own search: a group then takes any naturals of its rank that are left."""
    runs = sorted((r.min_cards for r in contract.requirements if r.kind != GROUP), reverse=True)
    groups = sorted((r.min_cards for r in contract.requirements if r.kind == GROUP),
                    reverse=True)
    live_jokers = live[FACES]
    run_targets = {size: _run_targets(counts, live, size) for size in set(runs)}
    group_ranks = _group_ranks(counts, live)
    plans: list[_Plan] = []

    def place_groups(index, first, fixed, flexible, used):
        if index == len(groups):
            losses = {f: (slot, natural) for f, slot, natural in used if counts[f] == 0}
            plans.append(_Plan(fixed, flexible, jokers, losses))
            return
        size = groups[index]
        for i in range(first if index and groups[index - 1] == size else 0, len(group_ranks)):
            faces = range(group_ranks[i] - 1, FACES, RANKS)
            live_rank = sum(live[f] for f in faces)
            held = min(sum(counts[f] for f in faces), size)
            # R7: a group needs two naturals; the first missing ones must be naturals.
            naturals_needed = max(0, 2 - held)
            if naturals_needed > live_rank:
                continue
            taken = _take_rank(counts, faces, held)
            fixed_here = sum(_SLOT_COST[live_rank - k] for k in range(naturals_needed))
            slots = [slot_cost(max(live_rank - k, 0) + live_jokers)
                     for k in range(naturals_needed, size - held)]
            loss = ((slot_cost(live_rank), True) if held <= 2
                    else (slot_cost(live_rank + live_jokers), False))
            place_groups(index + 1, i, fixed + fixed_here, flexible + slots,
                         used + [(f, *loss) for f in taken])
            for f in taken:
                counts[f] += 1

    def place_runs(index, first, fixed, flexible, used):
        if index == len(runs):
            place_groups(0, 0, fixed, flexible, used)
            return
        size = runs[index]
        targets = run_targets[size]
        for i in range(first if index and runs[index - 1] == size else 0, len(targets)):
            window = targets[i]
            held = [f for f in window if counts[f]]
            missing = [f for f in window if not counts[f]]
            naturals_needed = max(0, 2 - len(held))
            natural_slots = sorted(_SLOT_COST[live[f]] for f in missing if live[f])
            if naturals_needed > len(natural_slots):
                continue
            slots = sorted(slot_cost(live[f] + live_jokers) for f in missing)
            natural = len(held) <= 2
            here = [(f, slot_cost(live[f]) if natural else slot_cost(live[f] + live_jokers),
                     natural) for f in held]
            for f in held:
                counts[f] -= 1
            place_runs(index + 1, i, fixed + sum(natural_slots[:naturals_needed]),
                       flexible + slots[naturals_needed:], used + here)
            for f in held:
                counts[f] += 1

    place_runs(0, 0, 0.0, [], [])
    return plans


def _take_rank(counts, faces, n) -> list[int]:
    taken = []
    for f in faces:
        while n and counts[f]:
            counts[f] -= 1
            taken.append(f)
            n -= 1
    return taken


def _group_ranks(counts, live) -> list[int]:
    """The ranks most worth a group: most naturals held, then most live."""
    scored = []
    for rank in range(1, RANKS + 1):
        faces = range(rank - 1, FACES, RANKS)
        held = sum(counts[f] for f in faces)
        if held:
            scored.append((-held, -sum(live[f] for f in faces), rank))
    scored.sort()
    return [rank for _, _, rank in scored[:TOP_TARGETS]]


def _run_targets(counts, live, size) -> list[tuple[int, ...]]:
    """The windows of ``size`` ranks most worth a run: most faces held, then most live."""
    scored = []
    for suit in range(SUITS):
        base = suit * RANKS
        if not any(counts[base:base + RANKS]):
            continue
        for low in range(1, HIGH_ACE - size + 2):
            window = tuple(base + (r - 1) % RANKS for r in range(low, low + size))
            held = sum(1 for f in window if counts[f])
            if held:
                scored.append((-held, -sum(live[f] for f in window), window))
    scored.sort()
    return [window for _, _, window in scored[:TOP_TARGETS]]
