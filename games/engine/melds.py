"""Melds: validation (R5-R8), lay-offs (R15), contract search (R10, R11, R14) and lay-off search.

One module used by the rules, the bots and the hints. Cards are the integers of
:mod:`games.engine.cards`; the search works on *faces* (a card without its deck copy), since the
two copies of a card are interchangeable in play (R2).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import accumulate, combinations

from .cards import ACE, HIGH_ACE, face, face_of, is_joker, penalty_of, rank_of, suit_of
from .contracts import GROUP, RUN, Contract, Requirement
from .errors import IllegalAction

LOW, HIGH = "low", "high"
JOKER_FACE = 104


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid meld. Runs list their cards low to high and start at ``rank`` (1-14) in ``suit``;
    a group has its ``rank`` and ``suit`` -1. A joker stands for the card of its place (R8)."""

    kind: str
    cards: tuple[int, ...]
    rank: int
    suit: int = -1
    # ends_for's answers by face (JOKER_FACE for a joker), worked out at the first lay-off
    # asked: a meld stays on the table for the rest of the deal and is asked about every card
    # of every hand, every turn (the bots' fits, legal's lay-offs).
    _ends: dict | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def high(self) -> int:
        """The rank of a run's top card (14 for a high ace)."""
        return self.rank + len(self.cards) - 1

    def stands_for(self, index: int) -> tuple[int, int]:
        """(rank, suit) that the card at ``index`` is or stands for; suit -1 in a group."""
        if self.kind == GROUP:
            return self.rank, -1
        return self.rank + index, self.suit

    def ends_for(self, card: int) -> tuple[str, ...]:
        """Where ``card`` may be laid off (R15): ``("low",)``, ``("high",)``, both, or none.
        A group accepts a card at its (only) end, called ``"high"``."""
        ends = self._ends
        if ends is None:
            ends = self._lay_off_ends()
            _set_ends(self, ends)
        return ends.get(JOKER_FACE if card >= JOKER_FACE else card % 52, ())

    def _lay_off_ends(self) -> dict[int, tuple[str, ...]]:
        """The ends each face that fits this meld may go to (R15); a joker fits any place
        (R7)."""
        if self.kind == GROUP:
            r = self.rank - 1
            return dict.fromkeys((r, r + 13, r + 26, r + 39, JOKER_FACE), (HIGH,))
        ends: dict[int, tuple[str, ...]] = {}
        if self.rank > ACE:
            for f in (face(self.rank - 1, self.suit), JOKER_FACE):
                ends[f] = ends.get(f, ()) + (LOW,)
        if self.high < HIGH_ACE:
            for f in (face(self.high + 1, self.suit), JOKER_FACE):
                ends[f] = ends.get(f, ()) + (HIGH,)
        return ends

    def extended(self, card: int, end: str) -> Meld:
        """This meld with ``card`` laid off at ``end`` (checked by the caller with ends_for)."""
        if self.kind == RUN and end == LOW:
            return replace(self, cards=(card, *self.cards), rank=self.rank - 1)
        return replace(self, cards=(*self.cards, card))


_set_ends = Meld.__dict__["_ends"].__set__


def _fits(card: int, rank: int, suit: int) -> bool:
    """Can ``card`` fill the place of ``rank`` (1-14) in ``suit``? A joker fills any (R7)."""
    return is_joker(card) or (suit_of(card) == suit and rank_of(card) == (rank - 1) % 13 + 1)


def read_meld(cards) -> Meld:
    """The meld these cards make, in this order (run cards low to high), or IllegalAction."""
    cards = tuple(cards)
    naturals = [c for c in cards if not is_joker(c)]
    if len(naturals) < 2:
        raise IllegalAction("meld_needs_two_naturals", "R7",
                            "Every meld needs at least two cards that are not jokers.")
    first_rank = rank_of(naturals[0])
    if all(rank_of(c) == first_rank for c in naturals):
        if len(cards) < 3:
            raise IllegalAction("group_too_short", "R5", "A group needs at least three cards.")
        return Meld(GROUP, cards, first_rank)
    return _read_run(cards, naturals)


def _read_run(cards: tuple[int, ...], naturals: list[int]) -> Meld:
    suit = suit_of(naturals[0])
    if any(suit_of(c) != suit for c in naturals):
        raise IllegalAction("not_a_meld", "R6",
                            "These cards are neither a group (one rank) nor a run (one suit).")
    if len(cards) < 4:
        raise IllegalAction("run_too_short", "R6", "A run needs at least four cards.")
    first = next(i for i, c in enumerate(cards) if not is_joker(c))
    rank = rank_of(cards[first])
    for start in {rank - first, (HIGH_ACE if rank == ACE else rank) - first}:
        if start >= ACE and start + len(cards) - 1 <= HIGH_ACE and all(
                _fits(c, start + i, suit) for i, c in enumerate(cards)):
            return Meld(RUN, cards, start, suit)
    raise IllegalAction("run_not_consecutive", "R6",
                        "A run's cards must follow one another in order, ace low or high, "
                        "with no wrap-around; a joker may fill a gap.")


def satisfies(meld: Meld, requirement: Requirement) -> bool:
    return meld.kind == requirement.kind and len(meld.cards) >= requirement.min_cards


def match_contract(melds: list[Meld], contract: Contract) -> bool:
    """Do these melds fill the contract exactly, one meld per requirement (R11, R14)?"""
    if len(melds) != len(contract.requirements):
        return False
    return _assign(list(melds), list(contract.requirements))


def _assign(melds: list[Meld], requirements: list[Requirement]) -> bool:
    if not requirements:
        return True
    first, rest = requirements[0], requirements[1:]
    return any(satisfies(m, first) and _assign(melds[:i] + melds[i + 1:], rest)
               for i, m in enumerate(melds))


# -- Lay-off search ---------------------------------------------------------------------------

def lay_off_options(hand, table) -> list[tuple[int, int, str]]:
    """Every single legal lay-off (meld index, card, end) of a card in ``hand`` onto ``table``,
    in table then hand order."""
    options = []
    for index, meld in enumerate(table):
        for card in hand:
            for end in meld.ends_for(card):
                options.append((index, card, end))
    return options


# -- Contract search --------------------------------------------------------------------------
#
# A candidate meld is a tuple of faces in meld order, JOKER_FACE for a joker's place. The search
# places runs before groups: a group only needs so many cards of a rank, so once the runs are
# chosen any naturals of that rank will do. Each requirement is met by a meld of exactly its size,
# except runs, which may be longer when both ends are naturals: ♥2 JK JK JK ♥6 is a run of 5 with
# no sub-run of 4 holding two naturals (R7).


def _counts(cards) -> tuple[list[int], int]:
    counts = [0] * 52
    jokers = 0
    for c in cards:
        if c >= JOKER_FACE:  # is_joker, inlined: every lay-down question counts a hand
            jokers += 1
        else:
            counts[c % 52] += 1
    return counts, jokers


def _group_candidates(counts, jokers, size):
    for r in range(13):  # rank r + 1; its faces are r, r + 13, r + 26, r + 39
        if counts[r] + counts[r + 13] + counts[r + 26] + counts[r + 39] < 2:
            continue  # R7: a group needs two naturals
        faces = [f for f in (r, r + 13, r + 26, r + 39) for _ in range(counts[f])]
        for naturals in range(min(len(faces), size), 1, -1):
            if size - naturals <= jokers:
                yield tuple(faces[:naturals]) + (JOKER_FACE,) * (size - naturals)


def _run_candidates(counts, jokers, size, swaps):
    for suit in range(4):
        row = counts[suit * 13:suit * 13 + 13]  # ace to king
        if sum(row) < 2:
            continue
        row.append(row[0])  # the high ace
        held_below = [0, *accumulate(n > 0 for n in row)]  # ranks held below each place
        for low in range(1, HIGH_ACE - size + 2):
            yield from _windows(row, held_below, suit, low, size, jokers, swaps)


def _windows(row, held_below, suit, low, size, jokers, swaps):
    """Runs from ``low`` in ``suit``. With ``swaps``, also those that leave out a natural for a
    joker, since a later meld may need that natural more (a group with one other natural)."""
    for length in range(size, HIGH_ACE - low + 2):
        both_aces = low == ACE and length == 14  # both come from the ace's count
        held = held_below[low + length - 1] - held_below[low - 1]
        if both_aces:
            held += (row[0] >= 2) - (row[0] > 0)
        missing = length - held
        if missing > jokers:
            return
        places = range(low, low + length)
        have = [row[r - 1] > 0 for r in places]
        if both_aces:
            have[-1] = row[0] >= 2
        if length > size and not (have[0] and have[-1]):
            continue
        present = [i for i, h in enumerate(have) if h]
        if len(present) < 2:
            continue
        swappable = present if length == size else [i for i in present[1:-1]]
        most = min(jokers - missing, len(present) - 2) if swaps else 0
        for extra in range(0, most + 1):
            for swapped in combinations(swappable, extra):
                yield tuple(
                    face(r, suit) if have[i] and i not in swapped else JOKER_FACE
                    for i, r in enumerate(places))


def _candidates(counts, jokers, requirement, last):
    if requirement.kind == GROUP:
        return _group_candidates(counts, jokers, requirement.min_cards)
    return _run_candidates(counts, jokers, requirement.min_cards, swaps=not last)


class _Search:
    """Every choice of minimal melds (tuples of faces) for the requirements, in order.

    Prunes a branch when the cards left cannot fill the requirements left (each needs its
    size and two naturals, R7) and remembers the states (cards left, requirement) that came to
    nothing, since different first melds often leave the same cards."""

    def __init__(self, requirements: list[Requirement]):
        self.requirements = requirements
        self.cards_needed = [sum(r.min_cards for r in requirements[i:])
                             for i in range(len(requirements) + 1)]
        self.dead: set = set()

    def solutions(self, counts, jokers, index=0, chosen=(), previous=None):
        requirements = self.requirements
        if index == len(requirements):
            yield list(chosen)
            return
        naturals = sum(counts)
        left = len(requirements) - index
        if naturals < 2 * left or naturals + jokers < self.cards_needed[index]:
            return
        requirement = requirements[index]
        same_as_previous = index > 0 and requirements[index - 1] == requirement
        key = (tuple(counts), jokers, index, previous if same_as_previous else None)
        if key in self.dead:
            return
        found = False
        for candidate in _candidates(counts, jokers, requirement, last=left == 1):
            if same_as_previous and candidate < previous:
                continue  # identical requirements: take their melds in one order only
            used_jokers, fits = 0, True
            for f in candidate:
                if f == JOKER_FACE:
                    used_jokers += 1
                else:
                    counts[f] -= 1
                    fits = fits and counts[f] >= 0
            if fits:
                for solution in self.solutions(counts, jokers - used_jokers, index + 1,
                                               (*chosen, candidate), candidate):
                    found = True
                    yield solution
            for f in candidate:
                if f != JOKER_FACE:
                    counts[f] += 1
        if not found:
            self.dead.add(key)


def _may_hold(counts: list[int], jokers: int, requirements: list[Requirement]) -> bool:
    """A count that every hand holding the requirements passes, and most hands that do not
    fail: the search then runs only for hands that may hold them.

    Each meld needs two naturals (R7) and jokers for the places its naturals do not fill, so
    the requirements need at least the sum of each one's fewest jokers, each counted as if it
    had the hand to itself. A group of m takes at most its rank's naturals; the groups
    together at most the naturals of as many ranks as there are groups, and each group two
    of its rank. A run of n in a suit has, wherever it lies, at most the most places held in
    n consecutive ranks of the suit plus one per place it is longer (R6: ace low or high)."""
    group_sizes, run_sizes = _sizes(requirements)
    needed = 0
    if group_sizes:
        by_rank = [counts[r] + counts[r + 13] + counts[r + 26] + counts[r + 39]
                   for r in range(13)]
        by_rank.sort(reverse=True)
        if sum([n // 2 for n in by_rank]) < len(group_sizes):
            return False
        needed += max(0, sum(group_sizes) - sum(by_rank[:len(group_sizes)]))
    if run_sizes:
        masks = []  # the held ranks of each suit with two naturals or more
        for base in (0, 13, 26, 39):
            row = counts[base:base + 13]
            if sum(row) >= 2:
                masks.append(_held_mask(row))
        if not masks:
            return False
        for size in run_sizes:
            needed += size - max([_most_held(mask, size) for mask in masks])
            if needed > jokers:
                return False
    return needed <= jokers


_SIZES: dict[int, tuple[list, tuple[int, ...], tuple[int, ...]]] = {}  # by the list's id


def _sizes(requirements: list[Requirement]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The group sizes and the run sizes of ``requirements``, each in their order (kept per
    list: _may_hold is asked with one of _ordered's lists at every lay-down question)."""
    found = _SIZES.get(id(requirements))
    if found is None or found[0] is not requirements:
        found = _SIZES[id(requirements)] = (
            requirements, tuple(r.min_cards for r in requirements if r.kind == GROUP),
            tuple(r.min_cards for r in requirements if r.kind == RUN))
    return found[1], found[2]


# Any count of a face as the digit 1, none as 0 (a face has at most two natural copies, R2).
_HELD_DIGIT = bytes([ord("0")] + [ord("1")] * 255)


def held_bits(row: list[int]) -> int:
    """Bit i for each nonzero count ``row[i]``: read as a binary number in C, not a loop per
    rank (asked for every suit of every hand counted)."""
    return int(bytes(row)[::-1].translate(_HELD_DIGIT), 2)


def _held_mask(row: list[int]) -> int:
    """Bit r - 1 for each rank r (1-14, 14 the high ace) held in one suit's counts."""
    mask = held_bits(row)
    return mask | (mask & 1) << 13


@lru_cache(maxsize=4096)
def _most_held(mask: int, size: int) -> int:
    """The most places of ``mask`` in any ``size`` consecutive ranks (1-14)."""
    span = (1 << size) - 1
    return max((mask >> low & span).bit_count() for low in range(HIGH_ACE - size + 1))


_ORDERED: dict[int, tuple[Contract, list[Requirement]]] = {}  # by the contract's id


def _ordered(contract: Contract) -> list[Requirement]:
    """The requirements in the search's order, runs first and largest first (kept per
    contract, which is one of the ladder's: asked at every decision; callers only read it)."""
    found = _ORDERED.get(id(contract))
    if found is None or found[0] is not contract:
        found = _ORDERED[id(contract)] = (contract, sorted(
            contract.requirements, key=lambda r: (r.kind != RUN, -r.min_cards)))
    return found[1]


def holds_contract(hand, contract: Contract) -> bool:
    """Does ``hand`` hold melds for ``contract``? (Ignores R17; see best_lay_down.)"""
    if len(hand) < contract.min_cards:
        return False
    counts, jokers = _counts(hand)
    requirements = _ordered(contract)
    if not _may_hold(counts, jokers, requirements):
        return False
    search = _Search(requirements).solutions(counts, jokers)
    return next(search, None) is not None


def _to_cards(face_melds, hand) -> tuple[list[list[int]], list[int]]:
    """Concrete cards for melds of faces, and the cards of ``hand`` left over."""
    pool: dict[int, list[int]] = {}
    for c in hand:
        pool.setdefault(face_of(c), []).append(c)
    melds = [[pool[f].pop() for f in m] for m in face_melds]
    return melds, [c for cards in pool.values() for c in cards]


def _extend(melds: list[Meld], rest: list[int]) -> tuple[list[Meld], list[int]]:
    """Add leftover cards to the melds while any fits (R11: contract melds may hold extra cards).
    Naturals go first; a joker is placed only when no natural fits, since it may open a run end
    for further naturals."""
    rest = list(rest)
    while True:
        placed = _place_one(melds, [c for c in rest if not is_joker(c)])
        if placed is None:
            placed = _place_one(melds, [c for c in rest if is_joker(c)])
        if placed is None:
            return melds, rest
        rest.remove(placed)


def _place_one(melds: list[Meld], cards: list[int]) -> int | None:
    for card in cards:
        for i, meld in enumerate(melds):
            ends = meld.ends_for(card)
            if ends:
                melds[i] = meld.extended(card, ends[-1])
                return card
    return None


def lay_down_options(hand, contract: Contract, forbidden_face: int | None = None, limit=200):
    """Up to ``limit`` legal lay-downs of ``contract`` from ``hand`` as (melds, cards left),
    melds extended with every leftover card that fits. R17: a lay-down that leaves cards but
    none that may be discarded (all of ``forbidden_face``) is skipped."""
    if len(hand) < contract.min_cards:
        return
    counts, jokers = _counts(hand)
    requirements = _ordered(contract)
    if not _may_hold(counts, jokers, requirements):
        return
    seen = set()
    for face_melds in _Search(requirements).solutions(counts, jokers):
        key = tuple(sorted(face_melds))
        if key in seen:
            continue
        seen.add(key)
        card_melds, rest = _to_cards(face_melds, hand)
        melds, rest = _extend([read_meld(m) for m in card_melds], rest)
        if rest and all(face_of(c) == forbidden_face for c in rest):
            continue
        yield melds, rest
        limit -= 1
        if limit <= 0:
            return


def ranked_lay_downs(hand, contract: Contract, forbidden_face: int | None = None,
                     most: int = 10) -> list[tuple[list[Meld], list[int]]]:
    """At most ``most`` legal lay-downs as (melds, cards left), fewest penalty points left
    first: the first is best_lay_down's."""
    options = list(lay_down_options(hand, contract, forbidden_face))
    options.sort(key=lambda option: sum(penalty_of(c) for c in option[1]))
    return options[:most]


def best_lay_down(hand, contract: Contract, forbidden_face: int | None = None):
    """The legal lay-down leaving the fewest penalty points in hand, as (melds, cards left),
    or None when the hand does not hold the contract."""
    best = None
    for melds, rest in lay_down_options(hand, contract, forbidden_face):
        score = sum(penalty_of(c) for c in rest)
        if best is None or score < best[0]:
            best = (score, melds, rest)
            if score == 0:
                break
    return None if best is None else (best[1], best[2])
