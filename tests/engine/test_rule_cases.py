"""Every worked case of shared/rule_cases.json (copied here as data about the rules)."""

import json
from pathlib import Path

import pytest

from games.engine import IllegalAction, contract_for, places, read_meld
from games.engine.cards import face_of, hand_penalty
from games.engine.legal import Situation
from games.engine.melds import match_contract
from games.engine.state import PLAY

from .helpers import hand

CASES = json.loads((Path(__file__).parent / "rule_cases.json").read_text())


def label(case):
    return f"{case['rule']}:{' '.join(map(str, case.get('cards', case.get('hand', ''))))}"


def meld_or_error(cards):
    try:
        return read_meld(cards)
    except IllegalAction as error:
        return error


@pytest.mark.parametrize("case", CASES["melds"], ids=label)
def test_meld_case(case):
    result = meld_or_error(hand(" ".join(case["cards"])))
    if case["valid"]:
        assert not isinstance(result, IllegalAction), result
        assert result.kind == case["kind"]
    else:
        assert isinstance(result, IllegalAction)


@pytest.mark.parametrize("case", CASES["contracts"], ids=lambda c: f"rung{c['rung']}-{c['rule']}")
def test_contract_case(case):
    cards = hand(" ".join(" ".join(m) for m in case["melds"]))
    melds, start = [], 0
    for m in case["melds"]:
        melds.append(meld_or_error(cards[start:start + len(m)]))
        start += len(m)
    valid = all(not isinstance(m, IllegalAction) for m in melds) and match_contract(
        melds, contract_for(case["rung"]))
    assert valid == case["valid"]


@pytest.mark.parametrize("case", CASES["lay_offs"], ids=lambda c: f"{c['rule']}-{c['card']}")
def test_lay_off_case(case):
    meld_cards = hand(" ".join(case["meld"]["cards"]))
    meld = read_meld(meld_cards)
    (card,) = hand(case["card"] + (".2" if case["card"] != "JK" else ""))
    if case["card"] == "JK":
        card = max(set(range(104, 107)) - set(meld_cards))
    ends = meld.ends_for(card)
    end = case.get("end", "high") if meld.kind == "run" else "high"
    assert (end in ends) == case["legal"]
    if case["legal"] and "becomes" in case:
        extended = meld.extended(card, end)
        assert [c % 52 for c in extended.cards] == [c % 52 for c in hand(" ".join(case["becomes"]))]
    if case["legal"] and "joker_as" in case:
        extended = meld.extended(card, end)
        index = 0 if end == "low" else len(extended.cards) - 1
        expected = hand(case["joker_as"])[0]
        rank, suit = extended.stands_for(index)
        assert ((rank - 1) % 13 + 1, suit) == (expected % 13 + 1, expected % 52 // 13)


@pytest.mark.parametrize("case", CASES["penalties"], ids=lambda c: str(c["points"]))
def test_penalty_case(case):
    assert hand_penalty(hand(" ".join(case["hand"]))) == case["points"]


def first_of_face(cards, text):
    return next(c for c in cards if face_of(c) == face_of(hand(text)[0]))


@pytest.mark.parametrize("case", CASES["discards"],
                         ids=lambda c: f"{c['taken_from_discard']}-{c['discard']}")
def test_discard_case(case):
    cards = hand(" ".join(case["hand"]))
    taken = (first_of_face(cards, case["taken_from_discard"])
             if case["taken_from_discard"] else None)
    situation = Situation(seat=0, turn=0, phase=PLAY, hand=cards, table=(),
                          contract=contract_for(1), laid_down_turn=None, turn_number=1,
                          taken_from_discard=taken, discard_top=None)
    assert situation.may_discard(first_of_face(cards, case["discard"])) == case["legal"]


@pytest.mark.parametrize("case", CASES["rankings"], ids=lambda c: str(c["places"]))
def test_ranking_case(case):
    players = case["players"]
    contracts = [p["contracts"] for p in players]
    assert places(contracts, [p["penalty"] for p in players]) == case["places"]
