"""The contract and lay-off searches against a slow, obviously-correct brute force."""

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import contract_for, lay_off_options, read_meld
from games.engine.cards import is_joker, rank_of, suit_of
from games.engine.melds import best_lay_down, holds_contract, lay_down_options, match_contract

from .helpers import hand

# A small pack (three suits, ranks A-8 and K-Q, jokers) so random hands often hold contracts.
DENSE = [card for card in range(107) if is_joker(card) or (
    suit_of(card) < 3 and rank_of(card) in (1, 2, 3, 4, 5, 6, 7, 8, 12, 13))]


def subset_kind(cards) -> set[str]:
    """Which kinds of meld these cards can be arranged into, by a different method from the
    engine's: a group is one rank; a run fits its naturals' span plus jokers into 14 places."""
    naturals = [c for c in cards if not is_joker(c)]
    jokers = len(cards) - len(naturals)
    kinds = set()
    if len(naturals) < 2:
        return kinds
    if len(cards) >= 3 and len({rank_of(c) for c in naturals}) == 1:
        kinds.add("group")
    if len(cards) >= 4 and len(cards) <= 14 and len({suit_of(c) for c in naturals}) == 1:
        for high_aces in product((False, True), repeat=sum(rank_of(c) == 1 for c in naturals)):
            flags = iter(high_aces)
            ranks = [14 if rank_of(c) == 1 and next(flags) else rank_of(c) for c in naturals]
            span = max(ranks) - min(ranks) + 1
            if len(set(ranks)) == len(ranks) and span - len(ranks) <= jokers:
                kinds.add("run")
    return kinds


def brute_holds(cards, contract) -> bool:
    melds = {}
    for mask in range(1, 1 << len(cards)):
        subset = [cards[i] for i in range(len(cards)) if mask >> i & 1]
        for kind in subset_kind(subset):
            melds.setdefault(kind, []).append((mask, len(subset)))

    def fill(requirements, used):
        if not requirements:
            return True
        first = requirements[0]
        return any(size >= first.min_cards and not mask & used and fill(requirements[1:],
                                                                         used | mask)
                   for mask, size in melds.get(first.kind, []))

    return fill(list(contract.requirements), 0)


hands = st.lists(st.sampled_from(DENSE), min_size=6, max_size=11, unique=True)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(cards=hands, rung=st.integers(1, 10))
def test_contract_search_agrees_with_brute_force(cards, rung):
    contract = contract_for(rung)
    assert holds_contract(cards, contract) == brute_holds(cards, contract)


@settings(max_examples=200, deadline=None)
@given(cards=hands, rung=st.integers(1, 10))
def test_every_lay_down_found_is_legal_and_uses_only_the_hand(cards, rung):
    contract = contract_for(rung)
    for melds, rest in lay_down_options(cards, contract, limit=20):
        used = [c for m in melds for c in m.cards]
        assert sorted(used + rest) == sorted(cards)
        assert match_contract([read_meld(m.cards) for m in melds], contract)
    found = best_lay_down(cards, contract)
    assert (found is not None) == holds_contract(cards, contract)


def test_a_long_run_with_jokers_inside_counts_when_no_short_one_does():
    # ♥2 JK JK JK ♥6 is a run of 5 with no run of 4 holding two naturals (R7).
    cards = hand("2H JK JK JK 6H 9C 9S 9D")
    assert holds_contract(cards, contract_for(2))
    assert brute_holds(cards, contract_for(2))


def test_best_lay_down_adds_extra_cards_to_the_contract_melds():
    melds, rest = best_lay_down(hand("7H 7S 7D 7C 9C 9H 9S 3H 4H 5H KD"), contract_for(1))
    assert sorted(len(m.cards) for m in melds) == [3, 4] and sorted(rest) == sorted(
        hand("3H 4H 5H KD"))


def test_lay_off_search_finds_every_fitting_card():
    table = [read_meld(hand("4H 5H 6H 7H")), read_meld(hand("QS QD QC"))]
    options = lay_off_options(hand("3H 8H QH JK 2C"), table)
    found = {(m, c, e) for m, c, e in options}
    h = dict(zip("3H 8H QH JK 2C".split(), hand("3H 8H QH JK 2C"), strict=True))
    assert found == {(0, h["3H"], "low"), (0, h["8H"], "high"), (0, h["JK"], "low"),
                     (0, h["JK"], "high"), (1, h["QH"], "high"), (1, h["JK"], "high")}
