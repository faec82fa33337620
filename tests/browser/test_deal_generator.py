"""The browser's re-deal (frontend/static/frontend/js/daily/verify.js) equals the engine's on
the 200 seeds of tests/browser/deal_vectors.json (bench/deal_vectors.py writes it from
games.engine): the first dealer, and every deal's dealer, four hands and first discard, run
in Chromium with Web Crypto under the site's Content-Security-Policy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.templatetags.static import static

from tests.browser.conftest import DESKTOP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VECTORS = json.loads((Path(__file__).parent / "deal_vectors.json").read_text(encoding="utf-8"))

REDEAL_ALL = """async ([url, seeds]) => {
  const deal = await import(url);
  const out = [];
  for (const seed of seeds) {
    const { firstDealer, deals } = await deal.dealsOf(seed);
    out.push({ first_dealer: firstDealer, deals });
  }
  return { out, ids: Array.from({ length: 107 }, (_, c) => deal.cardId(c)) };
}"""


def as_ids(vector: dict, ids: list[str]) -> dict:
    return {"first_dealer": vector["first_dealer"], "deals": [
        {"deal": n, "dealer": d["dealer"], "discard_top": ids[d["discard_top"]],
         "hands": [[ids[c] for c in hand] for hand in d["hands"]]}
        for n, d in enumerate(vector["deals"], start=1)]}


def test_the_javascript_deal_equals_the_engines_on_two_hundred_seeds(open_page, site):
    page, watch = open_page(DESKTOP)
    page.goto(site.url + "/rules/")
    seeds = [v["seed"] for v in VECTORS["seeds"]]
    assert len(seeds) >= 200
    result = page.evaluate(REDEAL_ALL, [static("frontend/js/daily/verify.js"), seeds])
    assert result["ids"] == VECTORS["card_ids"]
    ids = VECTORS["card_ids"]
    for vector, dealt in zip(VECTORS["seeds"], result["out"], strict=True):
        assert dealt == as_ids(vector, ids), f"seed {vector['seed']!r}"
    watch.check()


def test_the_comparison_names_a_changed_card_and_passes_equal_deals(open_page, site):
    page, watch = open_page(DESKTOP)
    page.goto(site.url + "/rules/")
    differences = page.evaluate("""async (url) => {
      const deal = await import(url);
      const { deals } = await deal.dealsOf("abc");
      const served = structuredClone(deals);
      const same = deal.compareDeals(deals, structuredClone(deals));
      served[4].hands[2][7] = served[4].hands[2][7] === "AS.1" ? "AS.2" : "AS.1";
      served[9].discard_top = { id: deals[9].hands[0][0] };  // a card dealt to a hand instead
      return { same, changed: deal.compareDeals(deals, served) };
    }""", static("frontend/js/daily/verify.js"))
    assert differences["same"] == []
    changed = differences["changed"]
    assert [(d["deal"], d["what"], d.get("seat"), d.get("index")) for d in changed] == [
        (5, "hand", 2, 7), (10, "discard", None, None)]
    watch.check()
