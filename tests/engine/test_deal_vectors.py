"""The browser's re-deal is tested against tests/browser/deal_vectors.json; this holds that
file (and games.engine.redeal) to the engine itself."""

from __future__ import annotations

from bench import deal_vectors
from games.engine import new_game
from games.engine.redeal import ten_deals


def test_the_committed_vectors_are_what_the_engine_deals_today():
    assert deal_vectors.PATH.read_text(encoding="utf-8") == deal_vectors.render(
        deal_vectors.vectors()), "rerun: .venv/bin/python -m bench.deal_vectors"


def test_the_vectors_hold_at_least_two_hundred_seeds_and_every_card_id():
    data = deal_vectors.vectors()
    assert len(data["seeds"]) >= 200
    assert len(set(data["card_ids"])) == 107


def test_the_first_redealt_deal_is_the_deal_a_new_game_starts_with():
    for seed in ("abc", "ไทย", ""):
        state, _ = new_game(seed)
        first = ten_deals(seed)[0]
        assert (first.dealer, first.hands, first.discard_top) == (
            state.dealer, state.hands, state.discard_pile[-1])


def test_each_deal_passes_forty_one_distinct_cards_and_the_deal_to_the_left():
    deals = ten_deals("fairness")
    assert [d.dealer for d in deals] == [(deals[0].dealer + i) % 4 for i in range(10)]
    for d in deals:
        cards = [c for hand in d.hands for c in hand] + [d.discard_top]
        assert [len(h) for h in d.hands] == [10] * 4 and len(set(cards)) == 41
