"""The composer's live check of a meld as the player builds it (cards.js ``checkMeld``, kept in
the page so each card added answers at once) agrees with the engine: every meld the rules
accept (tests/engine/rule_cases.json) the page accepts, and every meld the page accepts, in the
order it puts the cards, the engine reads as a meld of that kind (games.engine.read_meld).
Arrangements and the "why not" of a lay-down come from the server (GameView.legal)."""

import json
import random
from pathlib import Path

import pytest

from games.engine import LADDER, IllegalAction, read_meld
from games.engine.cards import PACK, card_id, card_json, parse_card
from games.engine.melds import lay_down_options

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CASES = json.loads((Path(__file__).parent.parent / "engine" / "rule_cases.json").read_text())
MIN_CARDS = {"group": 3, "run": 4}  # R5, R6


def as_page_cards(codes: list[str]) -> list[dict]:
    """Cards as the API sends them, each copy its own id ("7H.1", "7H.2")."""
    seen: dict[str, int] = {}
    cards = []
    for code in codes:
        seen[code] = seen.get(code, 0) + 1
        card_id = f"{code}.{seen[code]}"
        if code == "JK":
            cards.append({"id": card_id, "joker": True})
        else:
            cards.append({"id": card_id, "rank": code[:-1], "suit": code[-1]})
    return cards


CHECK_IN_PAGE = """async (cases) => {
            const { checkMeld } = await import("/static/frontend/js/cards.js");
            return cases.map((c) => {
              const r = checkMeld(c.cards, c.kind, c.min);
              return { ok: r.ok, order: r.cards.map((card) => card.id) };
            });
        }"""


def engine_reads(order: list[str]):
    try:
        return read_meld([parse_card(i) for i in order])
    except IllegalAction as refused:
        return refused.code


def test_the_pages_meld_check_agrees_with_the_rules_and_the_engine(open_page, site):
    page, _ = open_page({"width": 1280, "height": 800})
    page.goto(site.url + "/rules/")
    checked = page.evaluate(CHECK_IN_PAGE, [
        {"kind": m["kind"], "min": MIN_CARDS[m["kind"]], "cards": as_page_cards(m["cards"])}
        for m in CASES["melds"]])
    assert len(checked) == len(CASES["melds"]) > 20
    for case, result in zip(CASES["melds"], checked, strict=True):
        if case["valid"]:
            assert result["ok"], case
        if result["ok"]:
            meld = engine_reads(result["order"])
            assert getattr(meld, "kind", meld) == case["kind"], (case, result)

    # The melds of the engine's own lay-downs, jokers and extended melds among them, shuffled:
    # the page accepts each, and the engine reads the page's order as the same kind of meld.
    rng, melds = random.Random(43), []
    while len(melds) < 300:
        contract = LADDER[rng.randrange(len(LADDER))]
        for found, _ in lay_down_options(tuple(rng.sample(PACK, 14)), contract, limit=3):
            melds += [(m.kind, rng.sample(m.cards, len(m.cards))) for m in found]
    checked = page.evaluate(CHECK_IN_PAGE, [
        {"kind": kind, "min": MIN_CARDS[kind], "cards": [card_json(c) for c in cards]}
        for kind, cards in melds])
    for (kind, cards), result in zip(melds, checked, strict=True):
        shown = [card_id(c) for c in cards]
        assert result["ok"], (kind, shown)
        assert getattr(engine_reads(result["order"]), "kind", None) == kind, (shown, result)
