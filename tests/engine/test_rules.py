"""One test or more per rule of docs/rules.md, on rigged tables with readable cards."""

from collections import Counter

import pytest

from games.engine import (
    LADDER,
    Discard,
    Draw,
    IllegalAction,
    LayDown,
    LayOff,
    apply,
    new_game,
    player_view,
    read_meld,
    replay,
    result_json,
)
from games.engine.cards import JOKERS, PACK, face_of
from games.engine.rules import places
from games.engine.state import DEALS, FINISHED, PLAY, STOCK_EXHAUSTED, WENT_OUT, evolve

from .helpers import all_cards, c, hand, rigged

# The other seats hold second copies, so that a test's own cards are the first copies.
FILLER = ["2S.2 3S.2 4S.2 5S.2 6S.2 8S.2 10S.2 QS.2 KS.2 JS.2",
          "2D.2 3D.2 4D.2 5D.2 6D.2 8D.2 10D.2 QD.2 KD.2 JD.2",
          "2C.2 3C.2 4C.2 5C.2 6C.2 8C.2 10C.2 QC.2 KC.2 JC.2"]


def seat0(cards, *, others=FILLER, **kwargs):
    """A table where seat 0 holds ``cards`` and the others hold filler."""
    return rigged([cards, *others], **kwargs)


def refused(state, seat, action, code):
    with pytest.raises(IllegalAction) as error:
        apply(state, seat, action)
    assert error.value.code == code, error.value.message
    return error.value


def lay_down(*melds):
    return LayDown(tuple(hand(m) for m in melds))


# R1 ----------------------------------------------------------------------------------------

def test_r1_play_passes_clockwise_after_a_discard():
    state = seat0("7H 8H 9C", stock="KD QD", turn=3)
    state, _ = apply(state, 3, Draw("stock"))
    state, _ = apply(state, 3, Discard(c("KD")))
    assert state.turn == 0 and state.phase == "draw"


def test_r1_only_the_player_whose_turn_it_is_may_act():
    state = seat0("7H 8H 9C", stock="KD", turn=0)
    refused(state, 1, Draw("stock"), "not_your_turn")


# R2, R3, R4 --------------------------------------------------------------------------------

def test_r2_the_pack_is_two_decks_and_three_jokers():
    assert len(PACK) == 107 and len(JOKERS) == 3
    faces = Counter(face_of(card) for card in PACK if card not in JOKERS)
    assert len(faces) == 52 and set(faces.values()) == {2}


def test_r3_a_deal_gives_ten_cards_each_an_upcard_and_66_in_stock():
    state, events = new_game("r3")
    assert [len(h) for h in state.hands] == [10] * 4
    assert len(state.discard_pile) == 1 and len(state.stock) == 66
    assert sorted(all_cards(state)) == list(PACK)
    assert events[0].type == "deal_started"


def test_r3_the_first_dealer_comes_from_the_seed_and_the_deal_passes_clockwise():
    dealers = {new_game(f"seed{i}")[0].dealer for i in range(40)}
    assert dealers == {0, 1, 2, 3}
    state = evolve(seat0("7H", stock="KD QD", phase=PLAY), dealer=3)
    state, events = apply(state, 0, Discard(c("7H")))  # R19: out, next deal
    assert state.deal == 2 and state.dealer == 0
    assert [e.type for e in events] == ["discarded", "deal_ended", "deal_started"]


def test_r3_a_joker_turned_up_may_be_taken():
    state = seat0("7H 8H", stock="KD", discard="JK")
    state, _ = apply(state, 0, Draw("discard"))
    assert c("JK") in state.hands[0]


def test_r3_cards_are_dealt_one_at_a_time_clockwise_from_the_dealers_left():
    from games.engine.rng import Stream

    state, _ = new_game("deal-order")
    pack = Stream.of("deal-order", "deal", 1).shuffle(list(PACK))
    left = (state.dealer + 1) % 4
    assert state.hands[left][:2] == (pack[0], pack[4])
    assert state.discard_pile == (pack[40],) and state.stock[-1] == pack[41]


def test_r4_the_player_left_of_the_dealer_plays_first():
    state, _ = new_game("r4")
    assert state.turn == (state.dealer + 1) % 4 and state.phase == "draw"


# R5-R9: melds --------------------------------------------------------------------------------

def test_r5_a_group_may_hold_both_copies_of_a_card():
    assert read_meld(hand("7H 7H 7S")).kind == "group"


def test_r6_ace_low_ace_high_and_the_fourteen_card_run():
    assert read_meld(hand("AH 2H 3H 4H")).rank == 1
    assert read_meld(hand("JH QH KH AH")).high == 14
    assert len(read_meld(hand("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")).cards) == 14
    with pytest.raises(IllegalAction):
        read_meld(hand("QH KH AH 2H"))


def test_r7_every_meld_needs_two_naturals():
    with pytest.raises(IllegalAction) as error:
        read_meld(hand("7H JK JK"))
    assert error.value.rule == "R7"
    assert read_meld(hand("7H 7S JK JK JK")).kind == "group"


def test_r8_a_joker_at_either_end_of_a_run_stands_for_a_fixed_card():
    low = read_meld(hand("JK 6H 7H 8H"))
    assert low.stands_for(0) == (5, 1)
    high = read_meld(hand("6H 7H 8H JK"))
    assert high.stands_for(3) == (9, 1)


def test_r8_a_joker_on_the_table_never_moves():
    state = seat0("8H 3C 4C", stock="KD", table=[(1, "5H 6H 7H JK")], laid_down_turn=(
        1, 1, None, None), phase=PLAY, turn_number=4)
    refused(state, 0, LayOff(0, c("8H")), "does_not_fit")


def test_r8_a_joker_that_fits_both_ends_needs_the_player_to_choose():
    state = seat0("JK 3C 4C", table=[(1, "5H 6H 7H 8H")], laid_down_turn=(1, 1, None, None),
                  phase=PLAY, turn_number=4)
    refused(state, 0, LayOff(0, c("JK")), "choose_end")
    state, _ = apply(state, 0, LayOff(0, c("JK"), "low"))
    assert state.table[0].meld.stands_for(0) == (4, 1)


def test_r9_contiguous_runs_stay_separate_melds():
    state = seat0("8H 3C 4C", table=[(1, "4H 5H 6H 7H"), (2, "9H 10H JH QH")],
                  laid_down_turn=(1, 1, 1, None), phase=PLAY, turn_number=4)
    state, _ = apply(state, 0, LayOff(0, c("8H"), "high"))
    assert len(state.table) == 2 and len(state.table[0].meld.cards) == 5
    assert len(state.table[1].meld.cards) == 4


# R10-R12: the ladder -----------------------------------------------------------------------

def test_r10_the_ladder_has_ten_contracts_with_their_minimum_cards():
    assert [contract.min_cards for contract in LADDER] == [6, 7, 8, 9, 8, 10, 7, 8, 10, 10]


def test_r11_two_groups_of_one_rank_count_in_one_contract():
    state = seat0("7H 7S 7D 7C 7H 7S KD", phase=PLAY)
    state, _ = apply(state, 0, lay_down("7H 7S 7D", "7C 7H.2 7S.2"))
    assert state.hands[0] == hand("KD")


@pytest.mark.parametrize("rung, melds", [
    (3, ["3H 4H 5H 6H", "7H 8H 9H 10H"]),
    (9, ["AD 2D 3D 4D", "5D 6D 7D 8D 9D 10D"]),
])
def test_r11_contiguous_runs_of_one_suit_are_two_melds(rung, melds):
    state = seat0(" ".join(melds) + " KC", phase=PLAY, climbed=(rung - 1, 0, 0, 0))
    state, _ = apply(state, 0, lay_down(*melds))
    assert len(state.table) == 2


def test_r11_the_run_of_seven_may_hold_jokers():
    state = seat0("4C 5C 6C JK 8C JK 10C KD", phase=PLAY, climbed=(6, 0, 0, 0))
    state, _ = apply(state, 0, lay_down("4C 5C 6C JK 8C JK.2 10C"))
    assert state.table[0].meld.stands_for(5) == (9, 3)


def test_r12_laying_down_climbs_at_once_but_the_new_contract_waits_for_the_next_deal():
    state = seat0("7H 7S 7D 9C 9H 9S KD", phase=PLAY)
    state, events = apply(state, 0, lay_down("7H 7S 7D", "9C 9H 9S"))
    assert state.climbed[0] == 1 and state.rung(0) == 1
    assert events[0].data["climbed"] == 1
    view = player_view(state, 0)
    assert view.me.climbed == 1 and view.me.rung == 1 and view.me.laid_down
    state, _ = apply(state, 0, Discard(c("KD")))  # R19: out, next deal
    assert state.rung(0) == 2 and state.climbed[0] == 1


def test_r12_only_one_contract_per_deal():
    state = seat0("7H 7S 7D 9C 9H 9S KD", phase=PLAY, climbed=(0, 0, 0, 0),
                  laid_down_turn=(2, None, None, None))
    refused(state, 0, lay_down("7H 7S 7D", "9C 9H 9S"), "already_laid_down")


def test_r12_a_player_who_does_not_lay_down_stays_on_their_rung():
    state = seat0("2H", stock="3H", phase=PLAY, others=["KD", "QD", "JD"])
    state, _ = apply(state, 0, Discard(c("2H")))
    assert state.climbed == (0, 0, 0, 0) and state.rung(1) == 1


# R13-R18: a turn ---------------------------------------------------------------------------

def test_r13_a_turn_starts_with_a_compulsory_draw():
    state = seat0("7H 8H", stock="KD", discard="2C")
    refused(state, 0, Discard(c("7H")), "draw_first")
    state, _ = apply(state, 0, Draw("discard"))
    refused(state, 0, Draw("stock"), "already_drawn")


def test_r14_the_contract_must_be_laid_down_exactly():
    state = seat0("7H 7S 7D 9C 9H 9S KC KH KS 2D", phase=PLAY)
    refused(state, 0, lay_down("7H 7S 7D"), "not_the_contract")
    refused(state, 0, lay_down("7H 7S 7D", "9C 9H 9S", "KC KH KS"), "not_the_contract")
    state, _ = apply(state, 0, lay_down("7H 7S 7D", "9C 9H 9S"))
    assert state.hands[0] == hand("KC KH KS 2D")


def test_r14_cards_not_in_hand_are_refused():
    state = seat0("7H 7S 7D 9C 9H KD", phase=PLAY)
    refused(state, 0, lay_down("7H 7S 7D", "9C 9H 9S"), "card_not_in_hand")


def test_r15_no_lay_off_on_the_turn_of_the_lay_down():
    state = seat0("7H 7S 7D 9C 9H 9S 7C KD", phase=PLAY)
    state, _ = apply(state, 0, lay_down("7H 7S 7D", "9C 9H 9S"))
    refused(state, 0, LayOff(0, c("7C")), "lay_off_same_turn")


def test_r15_lay_off_on_a_later_turn_onto_anyones_meld():
    state = seat0("7C 5H 3D", table=[(0, "7H 7S 7D"), (2, "6H 7H.2 8H 9H")],
                  laid_down_turn=(2, None, 3, None), turn_number=6, phase=PLAY)
    state, _ = apply(state, 0, LayOff(0, c("7C")))
    state, _ = apply(state, 0, LayOff(1, c("5H")))
    assert state.table[1].meld.rank == 5 and state.table[1].owner == 2
    assert state.hands[0] == hand("3D")


def test_r15_no_lay_off_before_laying_down():
    state = seat0("7C 5H", table=[(1, "7H 7S 7D")], laid_down_turn=(None, 1, None, None),
                  phase=PLAY)
    refused(state, 0, LayOff(0, c("7C")), "contract_not_laid_down")


def test_r15_cards_are_never_inserted_inside_a_run():
    state = seat0("6H 3D 4D", table=[(0, "4H 5H 6H 7H")], laid_down_turn=(1, None, None, None),
                  phase=PLAY, turn_number=3)
    refused(state, 0, LayOff(0, c("6H")), "does_not_fit")


def test_r16_the_card_taken_from_the_discard_pile_may_not_go_straight_back():
    state = seat0("7H 8C", discard="7H", stock="KD")
    state, _ = apply(state, 0, Draw("discard"))
    refused(state, 0, Discard(c("7H.2")), "discard_taken_card")
    refused(state, 0, Discard(c("7H")), "discard_taken_card")
    state, _ = apply(state, 0, Discard(c("8C")))
    assert state.discard_pile[-1] == c("8C")


def test_r17_a_lay_down_that_leaves_only_the_taken_card_is_refused():
    state = seat0("7H 7S 7D 9C 9H 9S", discard="KD", stock="2C")
    state, _ = apply(state, 0, Draw("discard"))
    refused(state, 0, lay_down("7H 7S 7D", "9C 9H 9S"), "no_discard_left")


def test_r17_a_lay_off_that_leaves_only_the_taken_card_is_refused():
    state = seat0("7C", discard="KD", stock="2C", table=[(0, "7H 7S 7D")],
                  laid_down_turn=(1, None, None, None))
    state, _ = apply(state, 0, Draw("discard"))
    refused(state, 0, LayOff(0, c("7C")), "no_discard_left")
    assert player_view(state, 0).legal.lay_offs == ()


def test_r17_taking_the_twin_of_your_only_card_is_refused():
    state = seat0("7H", discard="7H", stock="2C", table=[(0, "7S 7D 7C")],
                  laid_down_turn=(1, None, None, None))
    refused(state, 0, Draw("discard"), "no_discard_left")
    assert player_view(state, 0).legal.draw == ("stock",)


def test_r18_a_card_that_could_be_laid_off_may_be_discarded():
    state = seat0("7C 2D", table=[(1, "7H 7S 7D")], laid_down_turn=(1, 1, None, None),
                  phase=PLAY, stock="KH")
    state, _ = apply(state, 0, Discard(c("7C")))
    assert state.discard_pile[-1] == c("7C")


# R19-R21: going out and the end of a deal --------------------------------------------------

def test_r19_going_out_on_the_first_turn_with_a_discard():
    state = seat0("7H 7S 7D 7C 7H 9C 9H 9S 9D JK", stock="KS", turn_number=1)
    state, _ = apply(state, 0, Draw("stock"))
    state, _ = apply(state, 0, lay_down("7H 7S 7D 7C 7H.2", "9C 9H 9S 9D JK"))
    state, events = apply(state, 0, Discard(c("KS")))
    ended = next(e for e in events if e.type == "deal_ended")
    assert ended.data["went_out"] == 0 and ended.data["ending"] == WENT_OUT
    assert ended.data["penalties"][0] == 0 and state.deal == 2


def test_r19_going_out_on_the_first_turn_by_melding_every_card():
    state = seat0("7H 7S 7D 7C 7H 7S 9C 9H 9S JK", stock="9D", turn_number=1)
    state, _ = apply(state, 0, Draw("stock"))
    state, events = apply(state, 0, lay_down("7H 7S 7D 7C 7H.2 7S.2", "9C 9H 9S JK 9D"))
    assert [e.type for e in events][:2] == ["laid_down", "deal_ended"]
    assert state.deal == 2 and state.climbed[0] == 1


def test_r19_going_out_by_melding_without_a_discard():
    state = seat0("7H 7S 7D 9C 9H 9S", stock="9D", turn_number=1)
    state, _ = apply(state, 0, Draw("stock"))
    state, events = apply(state, 0, lay_down("7H 7S 7D", "9C 9H 9S 9D"))
    assert [e.type for e in events][:2] == ["laid_down", "deal_ended"]
    assert state.deal == 2


def test_r19_going_out_by_laying_off_the_last_card():
    state = seat0("7C", stock="KD", table=[(0, "7H 7S 7D")], laid_down_turn=(1, None, None, None),
                  phase=PLAY)
    state, events = apply(state, 0, LayOff(0, c("7C")))
    assert events[1].type == "deal_ended" and events[1].data["went_out"] == 0


def test_r20_an_empty_stock_is_rebuilt_from_the_discard_pile_under_its_top():
    state = seat0("2H 3H", stock="5C", discard="8S 9S 10S JS", phase="draw")
    state, _ = apply(state, 0, Draw("stock"))
    state, events = apply(state, 0, Discard(c("2H")))
    assert events[-1].type == "stock_rebuilt"
    assert state.discard_pile == hand("2H") and sorted(state.stock) == sorted(hand("8S 9S 10S JS"))
    assert state.rebuilds == 1


def test_r20_a_third_empty_stock_ends_the_deal_with_nobody_out():
    state = seat0("2H 3H", stock="5C", discard="8S 9S", rebuilds=2)
    state, _ = apply(state, 0, Draw("stock"))
    state, events = apply(state, 0, Discard(c("2H")))
    ended = next(e for e in events if e.type == "deal_ended")
    assert ended.data["ending"] == STOCK_EXHAUSTED and ended.data["went_out"] is None


def test_r20_nothing_under_the_top_discard_ends_the_deal():
    state = seat0("2H 3H", stock="5C", discard="")
    state, _ = apply(state, 0, Draw("stock"))
    state, events = apply(state, 0, Discard(c("2H")))
    assert next(e for e in events if e.type == "deal_ended").data["ending"] == STOCK_EXHAUSTED


def test_r21_cards_left_in_hand_score_and_accumulate():
    state = seat0("7C", stock="KD", table=[(0, "7H 7S 7D")], laid_down_turn=(1, None, None, None),
                  phase=PLAY, others=["AH KD JK", "2C", "10S QS"])
    state = evolve(state, penalties=(5, 10, 0, 0))
    state, _ = apply(state, 0, LayOff(0, c("7C")))
    assert state.history[-1].penalties == (0, 50, 2, 20)
    assert state.penalties == (5, 60, 2, 20)


# R22-R23: the end of the game ---------------------------------------------------------------

def test_r22_the_game_ends_after_the_tenth_deal():
    state = seat0("7C", stock="KD", table=[(0, "7H 7S 7D")], laid_down_turn=(1, None, None, None),
                  phase=PLAY, deal=DEALS)
    state, events = apply(state, 0, LayOff(0, c("7C")))
    assert state.phase == FINISHED and events[-1].type == "game_finished"
    refused(state, 0, Draw("stock"), "game_over")


def test_r22_rank_by_contracts_then_penalty_and_share_ties():
    assert places([5, 5, 7, 5], [120, 80, 200, 80]) == [4, 2, 1, 2]


def test_r23_the_result_gives_contracts_penalty_and_place():
    state = evolve(new_game("r23")[0], climbed=(3, 4, 4, 0), penalties=(10, 50, 40, 0))
    assert result_json(state) == [
        {"seat": 0, "contracts": 3, "penalty": 10, "place": 3},
        {"seat": 1, "contracts": 4, "penalty": 50, "place": 2},
        {"seat": 2, "contracts": 4, "penalty": 40, "place": 1},
        {"seat": 3, "contracts": 0, "penalty": 0, "place": 4},
    ]


# R24-R25: randomness and hidden information -------------------------------------------------

def test_r24_the_same_seed_and_actions_rebuild_the_same_game():
    state, _ = new_game("r24")
    log = []
    for _ in range(3):
        seat = state.turn
        action = Draw("stock")
        state, _ = apply(state, seat, action)
        log.append((seat, action))
        action = Discard(state.hands[seat][0])
        state, _ = apply(state, seat, action)
        log.append((seat, action))
    assert replay("r24", log) == state
    assert new_game("r24")[0] == new_game("r24")[0] and new_game("r24")[0] != new_game("r25")[0]


def test_r25_a_view_holds_only_its_own_hand():
    state, _ = new_game("r25")
    view = player_view(state, 2)
    assert view.hand == state.hands[2]
    visible = {card for card in view.hand} | {view.discard_top}
    hidden = set(state.stock) | {card for s in (0, 1, 3) for card in state.hands[s]}
    assert not visible & hidden
    assert not hasattr(view, "stock") and not hasattr(view, "seed") and not hasattr(view, "hands")


def test_r25_a_stock_draw_shows_the_card_only_to_the_drawer():
    state, _ = new_game("r25")
    seat = state.turn
    state, (event,) = apply(state, seat, Draw("stock"))
    assert "card" in event.for_seat(seat)
    assert all("card" not in event.for_seat(other) for other in range(4) if other != seat)
    assert "card" not in event.for_seat(None)
