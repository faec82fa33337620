"""Easy: plays its contract when it can, otherwise keeps what looks promising at a glance.

It looks only at its own hand, the table and the top of the pile; it keeps no account of
unseen cards or of the other players. A card is worth keeping for the company it has in hand:
cards of its rank where the contract asks for groups, suited neighbours where it asks for runs.
It takes the top discard when that card has such company, and throws the card with the least,
the highest first.
"""

from __future__ import annotations

from games.engine.actions import DISCARD_PILE, STOCK, Action, Discard, Draw
from games.engine.cards import KING, is_joker, penalty_of, rank_of, suit_of
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
    score = _Company(view.hand, view).score
    return min(view.legal.discards, key=lambda c: (score(c), -penalty_of(c)))


def company(card: int, hand, view: PlayerView) -> int:
    """How well ``card`` sits with the rest of ``hand``: 2 for each card of its rank (if the
    contract has groups) or suited neighbour (if it has runs), 1 for a suited card two away."""
    return _Company(hand, view).score(card)


class _Company:
    """:func:`company` for every card against one hand, from the hand's counts per rank and
    per suit and rank, counted once: easy weighs each card of its hand against all the others
    (company was 30 % of a four-easy game's CPU, card by card)."""

    __slots__ = ("hand", "groups", "runs", "by_rank", "by_suit")

    def __init__(self, hand, view: PlayerView):
        kinds = {r.kind for r in view.me.contract.requirements}
        self.hand = hand
        self.groups, self.runs = GROUP in kinds, RUN in kinds
        self.by_rank = [0] * (KING + 1)
        # Rank r of a suit at index r + 2, so that r - 2 and r + 2 need no bounds check.
        self.by_suit = [[0] * (KING + 5) for _ in range(4)]
        for other in hand:
            if not is_joker(other):
                self.by_rank[rank_of(other)] += 1
                self.by_suit[suit_of(other)][rank_of(other) + 2] += 1

    def score(self, card: int) -> int:
        if is_joker(card):
            return JOKER_COMPANY
        rank = rank_of(card)
        score = 0
        if self.groups:
            score += 2 * (self.by_rank[rank] - (card in self.hand))  # not the card itself
        if self.runs:
            row, i = self.by_suit[suit_of(card)], rank + 2
            score += 2 * (row[i - 1] + row[i + 1]) + row[i - 2] + row[i + 2]
        return score
