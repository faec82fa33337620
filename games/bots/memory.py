"""What a computer player remembers of this deal: only what a person at the table could (R25).

The server keeps no bot state between requests, so the memory is rebuilt from the view alone:
the public log of discard-pile moves (who discarded what, who took what), the table and the
player's own hand. From those it follows where every card it has seen now lies:

- the discard pile, card by card, replaying the log (and R20's rebuilds of the stock, which
  happen at known moments: the stock holds 66 cards after the deal and loses one per stock draw);
- the cards each opponent took from the pile and has neither discarded nor melded since, which
  are still in that opponent's hand;
- the cards still *live* for this player: in the stock or in an opponent's hand unseen, so they
  may yet be drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import FACES, JOKERS, PACK, is_joker
from games.engine.state import HAND_SIZE, MAX_REBUILDS, SEATS
from games.engine.view import PlayerView

DEALT_STOCK = len(PACK) - SEATS * HAND_SIZE - 1  # R3: 66 cards under the upcard
JOKER = FACES  # index of the jokers in per-face counts
_PACK = frozenset(PACK)
_FULL_PACK_COUNTS = (2,) * FACES + (len(JOKERS),)  # R2: two decks and three jokers


@dataclass(frozen=True, slots=True)
class Memory:
    seat: int
    pile: tuple[int, ...]  # the discard pile, bottom to top
    held: tuple[frozenset[int], ...]  # per seat: cards known in that hand (taken from the pile)
    took: tuple[tuple[int, ...], ...]  # per seat: every card taken from the pile this deal
    discarded: tuple[tuple[int, ...], ...]  # per seat: every card discarded this deal
    passed: tuple[tuple[int, ...], ...]  # per seat: pile tops left there for a stock draw
    unseen: tuple[int, ...]  # cards not in my hand, on the table or in the pile
    live: tuple[int, ...]  # per face (0-51, JOKER): unseen copies not known in another hand

    @classmethod
    def from_view(cls, view: PlayerView) -> Memory:
        pile, held, took, discarded, passed = _replay_pile_log(view.pile_log)
        on_table = {c for t in view.table for c in t.meld.cards}
        held = [frozenset(h - on_table) if s != view.seat else frozenset(view.hand)
                for s, h in enumerate(held)]
        seen = set(view.hand) | on_table | set(pile)
        unseen = tuple(sorted(_PACK - seen))
        live = list(_FULL_PACK_COUNTS)
        for s, cards in enumerate(held):
            if s != view.seat:
                seen |= cards  # known to be in that hand: it will not come this way
        for card in seen:
            live[JOKER if is_joker(card) else card % FACES] -= 1
        return cls(view.seat, tuple(pile), tuple(held), took, discarded, passed, unseen,
                   tuple(live))

    def next_seat(self) -> int:
        """Who plays after this player (R1: clockwise)."""
        return (self.seat + 1) % SEATS


def _replay_pile_log(log):
    """Replay the deal's discard-pile moves. Each turn is an optional take then a discard (the
    log's first move is the upcard); a turn with no take drew from the stock, and R20 rebuilds
    the stock from all but the top discard when that leaves it empty."""
    pile: list[int] = []
    held = [set() for _ in range(SEATS)]
    took = [[] for _ in range(SEATS)]
    discarded = [[] for _ in range(SEATS)]
    passed = [[] for _ in range(SEATS)]
    stock, rebuilds, took_this_turn = DEALT_STOCK, 0, False
    for index, (seat, card, taken) in enumerate(log):
        if taken:
            pile.pop()
            held[seat].add(card)
            took[seat].append(card)
            took_this_turn = True
            continue
        if index > 0:  # the upcard is no one's turn
            if not took_this_turn:
                stock -= 1
                if pile:
                    passed[seat].append(pile[-1])
            held[seat].discard(card)
            discarded[seat].append(card)
        pile.append(card)
        took_this_turn = False
        if stock == 0 and rebuilds < MAX_REBUILDS and len(pile) > 1:
            stock, pile, rebuilds = len(pile) - 1, pile[-1:], rebuilds + 1
    return (pile, held, tuple(map(tuple, took)), tuple(map(tuple, discarded)),
            tuple(map(tuple, passed)))
