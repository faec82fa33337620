"""The contract search's counting prune (melds._may_hold) never turns away a hand that holds
its contract: it is checked against the search itself, without the prune."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import contract_for
from games.engine.cards import JOKERS, PACK
from games.engine.melds import _counts, _may_hold, _ordered, _Search

from .helpers import hand

NATURALS = [card for card in PACK if card not in JOKERS]


def search_finds(cards, contract) -> bool:
    counts, jokers = _counts(cards)
    return next(_Search(_ordered(contract)).solutions(counts, jokers), None) is not None


def may_hold(cards, contract) -> bool:
    counts, jokers = _counts(cards)
    return _may_hold(counts, jokers, _ordered(contract))


# Whole-pack hands, as dealt: most are far from their contract, which is what the prune is for.
hands = st.builds(lambda naturals, jokers: naturals + list(JOKERS[:jokers]),
                  st.lists(st.sampled_from(NATURALS), min_size=7, max_size=12, unique=True),
                  st.integers(0, 3))


@settings(max_examples=3000, deadline=None)
@given(cards=hands, rung=st.integers(1, 10))
def test_the_prune_lets_through_every_hand_the_search_finds_a_lay_down_in(cards, rung):
    contract = contract_for(rung)
    if search_finds(cards, contract):
        assert may_hold(cards, contract)


def test_a_run_of_five_with_three_jokers_inside_is_not_pruned():
    # R7: ♥2 JK JK JK ♥6 holds a run of 4 though no four ranks of it hold two naturals.
    assert may_hold(hand("2H JK JK JK 6H 7S 7D 7C"), contract_for(2))


def test_the_prune_turns_away_a_hand_with_no_pair_for_two_groups():
    assert not may_hold(hand("AS 2H 3D 4C 5S 6H 7D 8C 9S 10H"), contract_for(1))


def test_the_prune_turns_away_a_run_too_spread_for_the_jokers():
    assert not may_hold(hand("2H 7H QH 7S 7D 7C JK 9S 10C KD"), contract_for(2))
