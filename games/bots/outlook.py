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
each discard without searching again (every face at once, at the first card weighed).
"""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache
from itertools import accumulate
from math import exp, log

from games.engine.cards import FACES, HIGH_ACE, JOKERS
from games.engine.contracts import GROUP, Contract
from games.engine.melds import held_bits

from .memo import MEMO_SIZE, MEMOS
from .memo import clear_memo as clear_memo  # the bots' one way to forget, also from here

SUITS, RANKS = 4, 13
ALL_RANKS = (1 << RANKS) - 1
TOP_TARGETS = 5  # targets per requirement worth pairing with the other requirements' targets
TARGETS_PER_SUIT = 3
TOP_GROUP_RANKS = 4
SOFTNESS = 0.5  # how much a second way to the contract counts, in draws
DEAD_SLOT = 50.0  # a place no live card can fill: as good as never
KEEP_PLANS_WITHIN = 3.5  # plans dearer than the best by more hardly move the soft minimum

# A slot that n live cards fit costs one draw plus the wait for one of those n cards.
_SLOT_COST = [1.0 + 3.0 / (outs + 1) for outs in range(40)]


def slot_cost(outs: int) -> float:
    return _SLOT_COST[outs] if outs > 0 else DEAD_SLOT


def _cost_without_joker(plan, jokers: int) -> float:
    """A plan's cost once one of the hand's ``jokers`` is gone: one more of its sorted flexible
    slots (``plan[2]``, after the fixed cost ``plan[1]``) is left for a draw to fill."""
    fixed, flexible = plan[1], plan[2]
    return fixed + sum(flexible[:max(len(flexible) - jokers + 1, 0)])


class Outlook:
    """The plans of one hand for one contract, given the live cards: ``plans``, each as
    (cost, fixed cost, sorted flexible slots, losses), until :meth:`without` lets them go;
    ``distance``, their :func:`soft_min`; ``nearest``, the best plan's cost."""

    __slots__ = ("plans", "jokers", "distance", "nearest", "_without")

    def __init__(self, hand, contract: Contract, live):
        counts, jokers = hand_counts(hand)
        priced = _plans(counts, jokers, contract, live)
        best = min((p[0] for p in priced), default=0.0)
        limit = best + KEEP_PLANS_WITHIN
        self.plans = [p for p in priced if p[0] <= limit]
        self.jokers = jokers
        self.distance = soft_min([p[0] for p in self.plans])
        self.nearest = best  # the best plan's cost: 0 when the hand holds the contract
        self._without: dict[int | None, float] | None = None  # by face, once a card is weighed

    def without(self, card: int) -> float:
        """The distance once ``card`` is discarded."""
        found = self._without
        if found is None:
            found = self._without = self._all_without()
        return found.get(None if card >= JOKERS[0] else card % FACES, self.distance)

    def _all_without(self) -> dict[int | None, float]:
        """The distance without each face that some plan uses (None: a joker), all at once: a
        player weighs every card of its hand. The plans are then let go (the memo keeps fewer
        objects for the garbage collector to walk).

        A face's loss re-prices only the plans that use it: the others keep their cost and, while
        the best cost is unchanged, their exponential in the soft minimum (the same floats summed
        in the same order as :func:`soft_min`)."""
        plans, jokers = self.plans, self.jokers
        changed: dict[int, list] = {}  # face -> [(plan index, its cost without the face)]
        for i, (cost, fixed, flexible, losses) in enumerate(plans):
            sums = None  # the flexible slots' running sums, when a spare slot's loss asks
            kept = len(flexible) + 1 - jokers  # slots left for draws once a natural is lost
            # A face listed twice (two melds use its copies) takes its last loss, as a dict would.
            for face, (slot, needs_natural) in losses:
                if needs_natural:
                    priced = cost + slot
                elif kept <= 0:
                    priced = fixed
                else:
                    if sums is None:
                        sums = [0.0, *accumulate(flexible)]
                    if bisect_left(flexible, slot) >= kept:
                        priced = fixed + sums[kept]
                    else:
                        priced = fixed + sums[kept - 1] + slot
                found = changed.get(face)
                if found is None:
                    changed[face] = [(i, priced)]
                else:
                    found.append((i, priced))
        costs = [p[0] for p in plans]
        best = min(costs, default=0.0)
        terms = [exp((best - c) / SOFTNESS) for c in costs]
        result: dict[int | None, float] = {}
        for face, patches in changed.items():
            costs_now = costs.copy()
            for i, c in patches:
                costs_now[i] = c
            if min(costs_now) == best:
                terms_now = terms.copy()
                for i, c in patches:
                    terms_now[i] = exp((best - c) / SOFTNESS)
                result[face] = best - SOFTNESS * log(sum(terms_now))
            else:
                result[face] = soft_min(costs_now)
        if jokers:
            result[None] = soft_min([_cost_without_joker(p, jokers) for p in plans])
        self.plans = None
        return result


def outlook(hand, contract: Contract, live) -> Outlook:
    """The :class:`Outlook` of ``hand`` (memoised: players weigh the same hands again and
    again). ``live`` counts per face, jokers last, the cards that may still come
    (:class:`games.bots.memory.Memory`)."""
    key = (tuple(sorted(hand)), contract.rung, live)
    memo = MEMOS.outlooks
    found = memo.get(key)
    if found is None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        found = memo[key] = Outlook(hand, contract, live)
    return found


def hand_counts(hand) -> tuple[list[int], int]:
    """Naturals per face (0-51) and the number of jokers."""
    counts = [0] * FACES
    jokers = 0
    for card in hand:
        if card >= JOKERS[0]:  # is_joker, inlined: every priced hand is counted
            jokers += 1
        else:
            counts[card % FACES] += 1
    return counts, jokers


def soft_min(costs: list[float]) -> float:
    """The soft minimum of plans' ``costs``, a hand's distance: the cheapest, less SOFTNESS
    times the log of the plans' weights (1 for the cheapest, less for each dearer one); four
    dead slots when there is no plan."""
    if not costs:
        return DEAD_SLOT * 4
    best = min(costs)
    return best - SOFTNESS * log(sum([exp((best - c) / SOFTNESS) for c in costs]))


_SHAPES: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}  # rung -> run, group sizes


def _shape(contract: Contract) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The sizes of the contract's runs and of its groups, largest first."""
    found = _SHAPES.get(contract.rung)
    if found is None:
        runs = tuple(sorted((r.min_cards for r in contract.requirements if r.kind != GROUP),
                            reverse=True))
        groups = tuple(sorted((r.min_cards for r in contract.requirements if r.kind == GROUP),
                              reverse=True))
        found = _SHAPES[contract.rung] = (runs, groups)
    return found


def _priced(fixed: float, flexible: list[float], jokers: int) -> float:
    """The hand's jokers fill the dearest flexible slots; draws must fill the rest."""
    ordered = sorted(flexible)
    kept = len(ordered) - jokers
    return fixed + sum(ordered[:kept]) if kept > 0 else fixed


# slot_cost by live count, a list lookup (a count is at most 2 copies and 3 jokers).
_SLOT_OR_DEAD = [slot_cost(outs) for outs in range(len(_SLOT_COST))]


def _window_price(window, counts, live, live_jokers):
    """A run over ``window`` (faces, low to high) from these counts: (cost of the naturals it
    still needs, its flexible slots, the faces held, each held face's loss), or None when it
    can never get its two naturals (R7)."""
    held = [f for f in window if counts[f]]
    missing = [f for f in window if not counts[f]]
    naturals_needed = 2 - len(held)
    if naturals_needed > 0:
        natural_slots = sorted([_SLOT_COST[live[f]] for f in missing if live[f]])
        if naturals_needed > len(natural_slots):
            return None
        natural_cost = sum(natural_slots[:naturals_needed])
    else:
        naturals_needed, natural_cost = 0, 0
    cost_of = _SLOT_OR_DEAD
    slots = sorted([cost_of[live[f] + live_jokers] for f in missing])
    if len(held) <= 2:  # R7: losing one of only two naturals needs a natural back
        here = [(f, (cost_of[live[f]], True)) for f in held]
    else:
        here = [(f, (cost_of[live[f] + live_jokers], False)) for f in held]
    return natural_cost, slots[naturals_needed:], held, here


def _plans(counts, jokers, contract: Contract, live) -> list[tuple]:
    """(cost, fixed, sorted flexible slots, losses) of every plan pairing the requirements' most
    promising targets, less those clearly dearer than the best found. Runs are placed first, as
    in the engine's own search: a group then takes any naturals of its rank that are left.

    A branch is cut as soon as its price, which only grows as targets are added, is dearer than
    the best plan so far by KEEP_PLANS_WITHIN: such a plan would be dropped anyway. A run
    window's price is worked out once and reused for a second run unless the first took some
    of its cards."""
    runs, groups = _shape(contract)
    live_jokers = live[FACES]
    rank_live = [live[r] + live[r + 13] + live[r + 26] + live[r + 39] for r in range(RANKS)]
    group_ranks = _group_ranks(counts, rank_live) if groups else []
    group_live = [rank_live[r] for r in group_ranks]
    plans: list[tuple] = []
    best = DEAD_SLOT * 4
    limit = best + KEEP_PLANS_WITHIN  # plans dearer than this are dropped
    last_group = len(groups) - 1

    def finish(fixed, flexible, losses):
        """A plan of runs alone, priced."""
        nonlocal best, limit
        flexible = sorted(flexible)  # once, for the price and for the plan
        kept = len(flexible) - jokers  # _priced, inlined
        cost = fixed + sum(flexible[:kept]) if kept > 0 else fixed
        if cost > limit:
            return
        if cost < best:
            best = cost
            limit = best + KEEP_PLANS_WITHIN
        plans.append((cost, fixed, flexible, losses))

    def place_groups(index, first, fixed, flexible, run_losses, available, chosen):
        nonlocal best, limit
        if index and _priced(fixed, flexible, jokers) > limit:
            return
        size = groups[index]
        for i in range(first if index and groups[index - 1] == size else 0, len(group_ranks)):
            held = available[i]
            if held > size:
                held = size
            slots = _group_slots(held, size, group_live[i], live_jokers)
            if slots is None:
                continue
            fixed_here, flexible_here, loss = slots
            available[i] -= held
            if index == last_group:  # finish, inlined: the search's innermost step
                plan_fixed = fixed + fixed_here
                plan_flexible = sorted(flexible + flexible_here)
                kept = len(plan_flexible) - jokers
                cost = plan_fixed + sum(plan_flexible[:kept]) if kept > 0 else plan_fixed
                if cost <= limit:
                    if cost < best:
                        best = cost
                        limit = best + KEEP_PLANS_WITHIN
                    losses = run_losses  # shared by the plans of these runs until one adds
                    for position, group_loss in (*chosen, (i, loss)):
                        if not available[position]:  # no spare natural to take a lost one's place
                            r = group_ranks[position]
                            for f in (r, r + 13, r + 26, r + 39):
                                if counts[f]:
                                    if losses is run_losses:
                                        losses = run_losses.copy()
                                    losses.append((f, group_loss))
                    plans.append((cost, plan_fixed, plan_flexible, losses))
            else:
                place_groups(index + 1, i, fixed + fixed_here, flexible + flexible_here,
                             run_losses, available, chosen + [(i, loss)])
            available[i] += held

    def after_runs(fixed, flexible, run_losses):
        # The faces whose loss opens a slot of these runs: those with no spare copy.
        losses = [(f, loss) for f, loss in run_losses if not counts[f]]
        if not groups:
            finish(fixed, flexible, losses)
            return
        available = [counts[r] + counts[r + 13] + counts[r + 26] + counts[r + 39]
                     for r in group_ranks]
        place_groups(0, 0, fixed, flexible, losses, available, [])

    try:
        if not runs:
            after_runs(0.0, [], [])
            return plans
        targets = {size: _run_targets(counts, live, size) for size in set(runs)}
        priced = {size: [_window_price(w, counts, live, live_jokers) for w in windows]
                  for size, windows in targets.items()}
        if len(runs) == 2 and not groups:
            _pair_runs(runs, targets, priced, counts, jokers, live, plans)
            return plans
        size = runs[0]
        for i, price in enumerate(priced[size]):
            if price is None:
                continue
            natural_cost, slots, held, here = price
            fixed, flexible = 0.0 + natural_cost, slots
            for f in held:
                counts[f] -= 1
            if len(runs) == 1:
                after_runs(fixed, flexible, here)
            elif _priced(fixed, flexible, jokers) <= limit:
                second = runs[1]
                windows = targets[second]
                for j in range(i if second == size else 0, len(windows)):
                    window = windows[j]
                    price_2 = priced[second][j]
                    if any(f in window for f in held):  # the first run took some of its cards
                        price_2 = _window_price(window, counts, live, live_jokers)
                    if price_2 is None:
                        continue
                    natural_cost_2, slots_2, held_2, here_2 = price_2
                    for f in held_2:
                        counts[f] -= 1
                    after_runs(fixed + natural_cost_2, flexible + slots_2, here + here_2)
                    for f in held_2:
                        counts[f] += 1
            for f in held:
                counts[f] += 1
        return plans
    finally:
        # place_groups calls itself, and the helpers share this call's variables: unless the
        # names are dropped, every search leaves a reference cycle holding its plans and lists
        # for the garbage collector to find (13 059 objects in tests/bots/test_determinism.py's
        # game; the collector's walks were a fifth of a normal game's time once compiled).
        place_groups = finish = None  # noqa: F841


def _pair_runs(runs, targets, priced, counts, jokers, live, plans) -> None:
    """_plans for a contract of two runs and no group, less its calls per plan: a pair of
    windows sharing no card is priced from the two windows' prices as they are, its losses
    the faces each holds only once; only a pair whose second window holds a card the first
    took is priced again from the counts left (as _plans does for every pair)."""
    best = DEAD_SLOT * 4
    limit = best + KEEP_PLANS_WITHIN
    live_jokers = live[FACES]
    size, second = runs
    windows = targets[second]
    window_masks = [_WINDOW_MASKS[w] for w in windows]
    held_once = {n: [None if price is None else [(f, loss) for f, loss in price[3]
                                                 if counts[f] == 1]
                     for price in prices]
                 for n, prices in priced.items()}
    for i, price in enumerate(priced[size]):
        if price is None:
            continue
        natural_cost, flexible, held, here = price
        fixed = 0.0 + natural_cost
        kept = len(flexible) - jokers  # _priced, inlined: the slots are sorted already
        if (fixed + sum(flexible[:kept]) if kept > 0 else fixed) > limit:
            continue
        held_mask = 0
        for f in held:
            held_mask |= 1 << f
        losses_1 = held_once[size][i]
        for j in range(i if second == size else 0, len(windows)):
            if held_mask & window_masks[j]:  # the first run took some of its cards
                for f in held:
                    counts[f] -= 1
                price_2 = _window_price(windows[j], counts, live, live_jokers)
                if price_2 is not None:
                    for f in price_2[2]:
                        counts[f] -= 1
                    # The faces whose loss opens a slot of these runs: no spare copy left.
                    losses = [(f, loss) for f, loss in here + price_2[3] if not counts[f]]
                    for f in price_2[2]:
                        counts[f] += 1
                for f in held:
                    counts[f] += 1
                if price_2 is None:
                    continue
            else:
                price_2 = priced[second][j]
                if price_2 is None:
                    continue
                losses = None  # made only for a plan kept
            plan_fixed = fixed + price_2[0]
            plan_flexible = sorted(flexible + price_2[1])
            kept = len(plan_flexible) - jokers  # _priced, inlined
            cost = plan_fixed + sum(plan_flexible[:kept]) if kept > 0 else plan_fixed
            if cost <= limit:
                if cost < best:
                    best = cost
                    limit = best + KEEP_PLANS_WITHIN
                if losses is None:
                    losses = losses_1 + held_once[second][j]
                plans.append((cost, plan_fixed, plan_flexible, losses))


@lru_cache(maxsize=4096)
def _group_slots(held: int, size: int, live_rank: int, live_jokers: int):
    """(fixed cost, flexible slots, loss of one of its naturals) of a group of ``size`` with
    ``held`` naturals in hand, or None if it can never get its two naturals (R7)."""
    naturals_needed = max(0, 2 - held)
    if naturals_needed > live_rank:
        return None
    fixed = sum(_SLOT_COST[live_rank - k] for k in range(naturals_needed))
    flexible = [slot_cost(max(live_rank - k, 0) + live_jokers)
                for k in range(naturals_needed, size - held)]
    loss = ((slot_cost(live_rank), True) if held <= 2
            else (slot_cost(live_rank + live_jokers), False))
    return fixed, flexible, loss


def _group_ranks(counts, rank_live) -> list[int]:
    """The ranks (0-12 for ace to king) most worth a group: most naturals held, then most
    live."""
    scored = []
    for r in range(RANKS):
        held = counts[r] + counts[r + 13] + counts[r + 26] + counts[r + 39]
        if held:
            scored.append((-held, -rank_live[r], r))
    scored.sort()
    return [r for _, _, r in scored[:TOP_GROUP_RANKS]]


# The faces of every run window, by size: (suit, lowest rank 1-14) -> faces, low to high.
_WINDOWS = {size: {(suit, low): tuple(suit * RANKS + (r - 1) % RANKS
                                      for r in range(low, low + size))
                   for suit in range(SUITS) for low in range(1, HIGH_ACE - size + 2)}
            for size in range(4, HIGH_ACE + 1)}


# Each window's faces as a bit mask: does a run take cards another window would use?
_WINDOW_MASKS = {window: sum(1 << f for f in window)
                 for by_low in _WINDOWS.values() for window in by_low.values()}


def _run_targets(counts, live, size) -> list[tuple[int, ...]]:
    """The windows of ``size`` ranks most worth a run: most faces held, then most live, at most
    TARGETS_PER_SUIT of a suit so that a second run may look elsewhere."""
    best = []
    for suit in range(SUITS):
        base = suit * RANKS
        held = held_bits(counts[base:base + RANKS])  # bit r-1 for each rank r held
        if held:
            best += _suit_targets(suit, held, live[base:base + RANKS], size)
    best.sort()
    windows = _WINDOWS[size]
    return [windows[suit, low + 1] for _, _, suit, low in best[:TOP_TARGETS]]


@lru_cache(maxsize=8192)
def _suit_targets(suit: int, held: int, live_row: tuple[int, ...], size: int) -> list[tuple]:
    """The best windows of one suit as (-cards held, -live cards, suit, lowest rank - 1). A
    window holding only cards that a better one holds too is left out."""
    live_sums = [0, *accumulate(live_row), 0]
    live_sums[-1] = live_sums[-2] + live_row[0]
    insides = {}
    scored = []
    for held_here, low, inside in _held_windows(held, size):
        scored.append((held_here, live_sums[low] - live_sums[low + size], suit, low))
        insides[low] = inside
    scored.sort()
    kept: list[int] = []  # the cards each kept window holds, the high ace folded to low
    best = []
    for entry in scored:
        inside = insides[entry[3]]
        for other in kept:
            if inside & ~other == 0:
                break
        else:
            kept.append(inside)
            best.append(entry)
            if len(kept) == TARGETS_PER_SUIT:
                break
    return best


@lru_cache(maxsize=4096)
def _held_windows(held: int, size: int) -> tuple[tuple[int, int, int], ...]:
    """The windows of ``size`` ranks over a suit's held ranks (bit r-1 for rank r) that hold
    any: (-cards held, lowest rank - 1, the cards held with the high ace folded to low), the
    part of _suit_targets that owes nothing to the live cards (kept apart: a hand's suits
    come back with other live cards in every imagined world of the hard player)."""
    held |= (held & 1) << RANKS  # the high ace (R6)
    span = (1 << size) - 1
    windows = []
    for low in range(HIGH_ACE - size + 1):
        inside = held & (span << low)
        n = inside.bit_count()
        if n:
            windows.append((-n, low, (inside | inside >> RANKS) & ALL_RANKS))
    return tuple(windows)
