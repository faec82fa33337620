"""easy's company, counted once per hand, is the card-against-card definition (issue 33)."""

from __future__ import annotations

from dataclasses import fields

from games.bots import easy
from games.engine import new_game, player_view
from games.engine.cards import is_joker, rank_of, suit_of
from games.engine.contracts import GROUP, RUN
from games.engine.rng import Stream


def _company_by_definition(card, hand, kinds) -> int:
    if is_joker(card):
        return easy.JOKER_COMPANY
    rank, suit = rank_of(card), suit_of(card)
    score = 0
    for other in hand:
        if other == card or is_joker(other):
            continue
        if GROUP in kinds and rank_of(other) == rank:
            score += 2
        if RUN in kinds and suit_of(other) == suit:
            score += {1: 2, 2: 1}.get(abs(rank_of(other) - rank), 0)
    return score


def test_company_counts_as_the_definition_for_random_hands_and_every_contract():
    view = player_view(new_game("company")[0], 0)
    rng = Stream.of("company", "hands")
    for i in range(300):
        hand = tuple(rng.shuffle(list(range(107)))[:11])
        rung = 1 + i % 10
        players = tuple(p if p.seat != view.seat else type(p)(
            p.seat, rung, p.climbed, p.laid_down, p.hand_size, p.penalty) for p in view.players)
        seen = type(view)(**{**{f.name: getattr(view, f.name) for f in fields(view) if f.init},
                             "players": players, "hand": hand})
        kinds = {r.kind for r in seen.me.contract.requirements}
        for card in (*hand, rng.below(107)):
            assert easy.company(card, hand, seen) == _company_by_definition(card, hand, kinds)
