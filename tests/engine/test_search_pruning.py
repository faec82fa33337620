"""The contract search's counting prune (melds.holds_contract asks it before searching) never
turns away a hand that holds its contract: hands built around melds of the contract, checked by
the engine's own meld reader, are found to hold it, whatever else they hold."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import contract_for, holds_contract, read_meld
from games.engine.cards import HIGH_ACE, JOKERS, face
from games.engine.contracts import GROUP
from games.engine.melds import match_contract

from .helpers import hand

COPIES = 2  # of each natural card (R1): card face + 52 is the second copy


@st.composite
def holding_hands(draw) -> tuple[list[int], int]:
    """A hand with melds for its rung's contract, as (cards, rung): each requirement met by a
    meld of its size (a run sometimes longer, with naturals at both ends), jokers standing in
    for some naturals, then a few cards of the rest of the pack."""
    rung = draw(st.integers(1, 10))
    contract = contract_for(rung)
    jokers, taken, melds = list(JOKERS), set(), []

    def natural(face_: int) -> int:
        copy = draw(st.sampled_from([face_ + 52 * k for k in range(COPIES)
                                     if face_ + 52 * k not in taken] or [None]))
        if copy is None:  # both copies are in earlier melds: build another hand
            draw(st.nothing())
        taken.add(copy)
        return copy

    def joker() -> int:
        if not jokers:
            draw(st.nothing())
        return jokers.pop()

    for requirement in contract.requirements:
        size = requirement.min_cards
        if requirement.kind == GROUP:
            rank = draw(st.integers(1, 13))
            naturals = draw(st.integers(2, size))
            suits = draw(st.lists(st.integers(0, 3), min_size=naturals, max_size=naturals))
            melds.append([natural(face(rank, s)) for s in suits]
                         + [joker() for _ in range(size - naturals)])
        else:
            length = size + draw(st.integers(0, 2))
            low = draw(st.integers(1, HIGH_ACE - length + 1))
            suit = draw(st.integers(0, 3))
            # Which places hold naturals: at least two (R7), both ends in a longer run.
            places = draw(st.lists(st.booleans(), min_size=length, max_size=length))
            if length > size:
                places[0] = places[-1] = True
            if sum(places) < 2:
                places[0] = places[-1] = True
            melds.append([natural(face(low + i, suit)) if held else joker()
                          for i, held in enumerate(places)])
    assert match_contract([read_meld(m) for m in melds], contract), melds
    rest = [c for c in range(104) if c not in taken] + jokers
    extra = draw(st.lists(st.sampled_from(rest), max_size=5, unique=True))
    return [c for meld in melds for c in meld] + extra, rung


@settings(max_examples=1000, deadline=None)  # each a hand that holds its contract
@given(holding=holding_hands())
def test_every_hand_built_around_its_contract_is_found_to_hold_it(holding):
    cards, rung = holding
    assert holds_contract(cards, contract_for(rung))


def test_a_run_of_five_with_three_jokers_inside_holds_a_run_of_four():
    # R7: ♥2 JK JK JK ♥6 holds a run of 4 though no four ranks of it hold two naturals.
    assert holds_contract(hand("2H JK JK JK 6H 7S 7D 7C"), contract_for(2))


def test_a_hand_with_no_pair_holds_no_two_groups():
    assert not holds_contract(hand("AS 2H 3D 4C 5S 6H 7D 8C 9S 10H"), contract_for(1))


def test_a_run_too_spread_for_the_jokers_is_no_run():
    assert not holds_contract(hand("2H 7H QH 7S 7D 7C JK 9S 10C KD"), contract_for(2))
