"""The ten deals a seed makes, as the game deals them (R3, R24): the first dealer, and for each
deal its dealer, the four hands and the first card of the discard pile.

What a revealed daily is checked against: ``manage.py verify_daily``, the day's deals read
(``GET /api/v1/daily/{date}/deals``) and the browser's own re-deal
(frontend/static/frontend/js/daily/verify.js, held to this module by
``bench/deal_vectors.py``'s vectors). It calls the engine's own dealing, never a copy of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rng import Stream
from .rules import _deal, new_game
from .state import DEALS, SEATS


@dataclass(frozen=True)
class Dealt:
    deal: int  # 1-10
    dealer: int  # seat 0-3
    hands: tuple[tuple[int, ...], ...]  # seat 0 (the person) first, in the order dealt
    discard_top: int  # the first card of the discard pile


def first_dealer(seed: str) -> int:
    """R3: drawn as new_game draws it."""
    return Stream.of(seed, "dealer").below(SEATS)


def ten_deals(seed: str) -> list[Dealt]:
    state, _ = new_game(seed)
    first = first_dealer(seed)
    dealt = []
    for number in range(1, DEALS + 1):
        dealer = (first + number - 1) % SEATS  # R3: the deal passes to the left
        after, _ = _deal(state, number, dealer)
        dealt.append(Dealt(number, dealer, after.hands, after.discard_pile[-1]))
    return dealt
