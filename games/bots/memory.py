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

from games.engine.cards import FACES, JOKERS, PACK, is_joker
from games.engine.state import HAND_SIZE, MAX_REBUILDS, SEATS
from games.engine.view import PlayerView

from .memo import MEMO_SIZE, MEMOS

DEALT_STOCK = len(PACK) - SEATS * HAND_SIZE - 1  # R3: 66 cards under the upcard
JOKER = FACES  # index of the jokers in per-face counts
_PACK = frozenset(PACK)
_FULL_PACK_COUNTS = (2,) * FACES + (len(JOKERS),)  # R2: two decks and three jokers
_FACE_INDEX = tuple(JOKER if is_joker(card) else card % FACES for card in PACK)


class Memory:
    """Worked out from the view when first asked: many decisions need little of it (a draw
    whose top discard could not help needs none). Kept in plain attributes, not
    ``functools.cached_property``, which takes a lock at each first look in Python 3.11: a
    Memory is made for every decision of every play-out of the hard player."""

    def __init__(self, view: PlayerView):
        self.seat = view.seat
        self._view = view
        self._replay: _PileReplay | None = None
        self._table_cards: frozenset[int] | None = None
        self._held: tuple[frozenset[int], ...] | None = None
        self._unseen: tuple[int, ...] | None = None
        self._live: tuple[int, ...] | None = None

    @classmethod
    def from_view(cls, view: PlayerView) -> Memory:
        return cls(view)

    @property
    def _replayed(self) -> _PileReplay:
        found = self._replay
        if found is None:
            found = self._replay = _replay_pile_log(self._view.pile_log)
        return found

    @property
    def pile(self) -> tuple[int, ...]:
        """The discard pile, bottom to top."""
        return self._replayed.pile

    @property
    def _on_table(self) -> frozenset[int]:
        found = self._table_cards
        if found is None:
            found = self._table_cards = frozenset(c for t in self._view.table
                                                  for c in t.meld.cards)
        return found

    @property
    def held(self) -> tuple[frozenset[int], ...]:
        """Per seat: cards known in that hand (taken from the pile, not melded since)."""
        found = self._held
        if found is None:
            found = self._held = tuple(self.held_by(s) for s in range(SEATS))
        return found

    def held_by(self, seat: int) -> frozenset[int]:
        """``held[seat]`` alone (the next player's wants ask for one seat every turn)."""
        if seat == self.seat:
            return frozenset(self._view.hand)
        return frozenset(self._replayed.held[seat] - self._on_table)

    @property
    def took(self) -> tuple[tuple[int, ...], ...]:
        """Per seat: every card taken from the pile this deal."""
        return self._replayed.took

    @property
    def discarded(self) -> tuple[tuple[int, ...], ...]:
        """Per seat: every card discarded this deal."""
        return self._replayed.discarded

    @property
    def passed(self) -> tuple[tuple[int, ...], ...]:
        """Per seat: pile tops left there for a stock draw."""
        return self._replayed.passed

    @property
    def unseen(self) -> tuple[int, ...]:
        """Cards not in my hand, on the table or in the pile."""
        found = self._unseen
        if found is None:
            found = self._unseen = tuple(sorted(_PACK - self._seen()))
        return found

    @property
    def live(self) -> tuple[int, ...]:
        """Per face (0-51, JOKER): unseen copies not known in another hand."""
        found = self._live
        if found is None:
            found = self._live = self._count_live()
        return found

    def _count_live(self) -> tuple[int, ...]:
        seen = self._seen()
        for s, cards in enumerate(self._replayed.held):
            if s != self.seat:
                # Known to be in that hand: it will not come this way. (``held`` less the
                # table, which ``seen`` holds already: the same set without making ``held``.)
                seen.update(cards)
        live = list(_FULL_PACK_COUNTS)
        for card in seen:
            live[_FACE_INDEX[card]] -= 1
        return tuple(live)

    def _seen(self) -> set[int]:
        view = self._view
        seen = set(view.hand)
        seen.update(self.pile)
        for placed in view.table:  # _on_table's cards, without making it
            seen.update(placed.meld.cards)
        return seen

    def next_seat(self) -> int:
        """Who plays after this player (R1: clockwise)."""
        return (self.seat + 1) % SEATS

    def _public(self) -> tuple:
        return (self.seat, self.pile, self.held, self.took, self.discarded, self.passed,
                self.unseen, self.live)

    def __eq__(self, other) -> bool:
        return isinstance(other, Memory) and self._public() == other._public()

    def __hash__(self) -> int:
        return hash(self._public())


class _PileReplay:
    """The deal's discard-pile moves replayed up to some point: immutable, so one replay serves
    every player and play-out whose log begins with the same moves. Each turn is an optional
    take then a discard (the log's first move is the upcard); a turn with no take drew from the
    stock, and R20 rebuilds the stock from all but the top discard when that leaves it empty."""

    __slots__ = ("moves", "pile", "held", "took", "discarded", "passed", "stock", "rebuilds",
                 "took_this_turn")

    def __init__(self, moves, pile, held, took, discarded, passed, stock, rebuilds,
                 took_this_turn):
        self.moves = moves  # how many moves of the log are replayed
        self.pile: tuple[int, ...] = pile
        self.held: tuple[frozenset[int], ...] = held
        self.took: tuple[tuple[int, ...], ...] = took
        self.discarded: tuple[tuple[int, ...], ...] = discarded
        self.passed: tuple[tuple[int, ...], ...] = passed
        self.stock, self.rebuilds, self.took_this_turn = stock, rebuilds, took_this_turn

    def extended(self, moves) -> _PileReplay:
        """This replay with ``moves`` (the log's next moves) replayed after it, in one pass:
        the per-seat tuples and sets are replaced, never changed, so the result shares what
        the moves leave alone with ``self``, which stays as it was. A whole log costs one new
        replay instead of one a move (the first decision of a request replays the deal so far:
        the memo is cleared between requests), and one more move costs about what a single
        step would."""
        count, stock, rebuilds, took_this_turn = (self.moves, self.stock, self.rebuilds,
                                                  self.took_this_turn)
        pile = list(self.pile)
        held, took = list(self.held), list(self.took)
        discarded, passed = list(self.discarded), list(self.passed)
        for seat, card, taken in moves:
            count += 1
            if taken:
                pile.pop()
                held[seat] = held[seat] | {card}
                took[seat] += (card,)
                took_this_turn = True
                continue
            if count > 1:  # the upcard, the log's first move, is no one's turn
                if not took_this_turn:
                    stock -= 1
                    if pile:
                        passed[seat] += (pile[-1],)
                if card in held[seat]:
                    held[seat] = held[seat] - {card}
                discarded[seat] += (card,)
            pile.append(card)
            if stock == 0 and rebuilds < MAX_REBUILDS and len(pile) > 1:
                stock, rebuilds = len(pile) - 1, rebuilds + 1
                del pile[:-1]
            took_this_turn = False
        return _PileReplay(count, tuple(pile), tuple(held), tuple(took), tuple(discarded),
                           tuple(passed), stock, rebuilds, took_this_turn)


_NOTHING_REPLAYED = _PileReplay(0, (), (frozenset(),) * SEATS, ((),) * SEATS, ((),) * SEATS,
                                ((),) * SEATS, DEALT_STOCK, 0, False)


def _replay_pile_log(log: tuple) -> _PileReplay:
    """The replay of ``log``, memoised by log (games.bots.memo): a log is most often one move
    longer than one already replayed, for the next decision or a play-out's next turn."""
    memo = MEMOS.pile_replays
    found = memo.get(log)
    if found is None:
        start = memo.get(log[:-1], _NOTHING_REPLAYED)
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        found = memo[log] = start.extended(log[start.moves:])
    return found
