"""Easy: plays its contract when it can, otherwise keeps what looks promising at a glance.

It looks only at its own hand, the table and the top of the pile; it keeps no account of
unseen cards or of the other players. A card is worth keeping for the company it has in hand:
cards of its rank where the contract asks for groups, suited neighbours where it asks for runs.
It takes the top discard when that card has such company, and throws the card with the least,
the highest first.
"""

from __future__ import annotations

from games.engine.actions import DISCARD_PILE, STOCK, Action, Discard, Draw
from games.engine.cards import is_joker, penalty_of, rank_of, suit_of
from games.engine.contracts import GROUP, RUN
from games.engine.rng import Stream
from games.engine.state import DRAW
from games.engine.view import PlayerView

from .memory import Memory
from .tactics import fits, lay_down, lay_off, table_melds

JOKER_COMPANY = 10  # a joker fits anything: never worth throwing


def choose(view: PlayerView, memory: Memory, rng: Stream) -> Action:
    if view.phase == DRAW:
        return Draw(DISCARD_PILE if _wants_top_discard(view) else STOCK)
    return lay_down(view) or lay_off(view) or Discard(_discard(view))


def _wants_top_discard(view: PlayerView) -> bool:
    if DISCARD_PILE not in view.legal.draw:
        return False
    if view.me.laid_down:
        return fits(view.discard_top, table_melds(view))
    return company(view.discard_top, view.hand, view) >= 2


def _discard(view: PlayerView) -> int:
    if view.me.laid_down:
        table = table_melds(view)
        return max(view.legal.discards, key=lambda c: (not fits(c, table), penalty_of(c)))
    return min(view.legal.discards,
               key=lambda c: (company(c, view.hand, view), -penalty_of(c)))


def company(card: int, hand, view: PlayerView) -> int:
    """How well ``card`` sits with the rest of ``hand``: 2 for each card of its rank (if the
    contract has groups) or suited neighbour (if it has runs), 1 for a suited card two away."""
    if is_joker(card):
        return JOKER_COMPANY
    kinds = {r.kind for r in view.me.contract.requirements}
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
