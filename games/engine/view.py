"""``player_view(state, seat)``: the only door through which information leaves the engine (R25).

A view holds the seat's own hand and what every player at the table can see: melds, the top
of the discard pile, counts, rungs, penalties and the history of deals. It never holds another
hand, the stock's order or the seed, so a bot given a view cannot peek.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .actions import LayDown
from .cards import card_json
from .contracts import TOP_RUNG, Contract, contract_for
from .legal import Legal, Situation, legal
from .melds import holds_contract, ranked_lay_downs
from .state import DealResult, GameState, TableMeld


# A named tuple: immutable, equal and hashable as the frozen dataclass was, and built in one
# step rather than a frozen __init__'s object.__setattr__ per field (docs/performance.md).
class PlayerInfo(NamedTuple):
    seat: int
    rung: int  # the rung whose contract this player plays in this deal
    climbed: int  # contracts completed so far, 0-10
    laid_down: bool
    hand_size: int
    penalty: int

    @property
    def contract(self) -> Contract:
        return contract_for(self.rung)

    def to_json(self) -> dict:
        return {"seat": self.seat, "rung": self.rung, "climbed": self.climbed,
                "contract": self.contract.to_json(), "laid_down": self.laid_down,
                "hand_size": self.hand_size, "penalty": self.penalty}


# Slotted but not frozen: a view is made for every decision, for each simulated turn of the
# hard player's play-outs too, and a frozen __init__ sets each of its 18 fields through
# object.__setattr__ (docs/performance.md). Nothing writes to a view after player_view makes
# it but ``situation`` and ``legal`` below, which keep their answers; nothing hashes one.
@dataclass(slots=True)
class PlayerView:
    seat: int
    deal: int
    dealer: int
    turn: int
    phase: str
    turn_number: int
    hand: tuple[int, ...]
    table: tuple[TableMeld, ...]
    discard_top: int | None
    discard_size: int
    stock_size: int
    rebuilds: int
    players: tuple[PlayerInfo, ...]
    taken_from_discard: int | None  # by this seat, this turn (R16)
    laid_down_turn: int | None  # this seat's
    history: tuple[DealResult, ...]
    # Public memory a person at the table could keep: this deal's discard-pile moves as
    # (seat, card, took); the upcard counts as discarded by the dealer.
    pile_log: tuple[tuple[int, int, bool], ...] = ()
    _situation: Situation | None = field(default=None, init=False, repr=False, compare=False)
    _legal: Legal | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def me(self) -> PlayerInfo:
        return self.players[self.seat]

    @property
    def situation(self) -> Situation:
        """The seat's situation, made at the first look and kept, as ``legal`` is: ``legal``,
        the lay-downs of the view's JSON and the bots' tactics each ask for it."""
        found = self._situation
        if found is None:
            found = self._situation = Situation(
                self.seat, self.turn, self.phase, self.hand, self.table,
                contract_for(self.players[self.seat].rung), self.laid_down_turn,
                self.turn_number, self.taken_from_discard, self.discard_top)
        return found

    @property
    def legal(self) -> Legal:
        """What this seat may do now: worked out at the first look and kept (a view is a
        moment of the game; it never changes), since a player looks more than once."""
        found = self._legal
        if found is None:
            found = self._legal = legal(self.situation)
        return found

    def to_json(self) -> dict:
        return {
            "deal": self.deal, "dealer": self.dealer, "turn": self.turn, "phase": self.phase,
            "you": self.seat, "hand": [card_json(c) for c in self.hand],
            "players": [p.to_json() for p in self.players],
            "table": [t.to_json(i) for i, t in enumerate(self.table)],
            "discard_top": None if self.discard_top is None else card_json(self.discard_top),
            "discard_size": self.discard_size, "stock_size": self.stock_size,
            "rebuilds": self.rebuilds,
            "taken_from_discard": (None if self.taken_from_discard is None
                                   else card_json(self.taken_from_discard)),
            "deals": [d.to_json() for d in self.history],
            "legal": self._legal_json(),
        }

    def _legal_json(self) -> dict:
        """``legal`` with the legal lay-downs and whether the hand holds the contract, searched
        only when the phase allows a lay-down (the search costs a little on the answer to
        every draw: docs/api.md)."""
        legal_now = self.legal
        data = legal_now.to_json()
        lay_downs, holds = [], None
        if legal_now.lay_down:
            contract, forbidden = self.players[self.seat].contract, self.situation.forbidden_face
            lay_downs = ranked_lay_downs(self.hand, contract, forbidden)
            # None legal: the hand may still hold the contract where R17 refused every one,
            # which only a card taken from the discard pile can do.
            holds = bool(lay_downs) or (forbidden is not None
                                        and holds_contract(self.hand, contract))
        data["holds_contract"] = holds
        data["lay_downs"] = [LayDown(tuple(m.cards for m in melds)).to_json()
                             for melds, _ in lay_downs]
        return data


# The players' public facts by (climbed, laid_down_turn, penalties, hand sizes): within a deal
# only the hand sizes move, between 10 and 11 cards mostly, so the same few tuples come back
# every turn (PlayerInfo values are immutable: one may serve any number of views). Bounded like
# the bots' memos; measured (timeit, interleaved, a busy host): player_view 3.2-4.6 -> 1.7-2.2 µs.
_PLAYERS: dict[tuple, tuple[PlayerInfo, ...]] = {}
_PLAYERS_KEPT = 4096


def _players(climbed, laid_down_turn, penalties, hands) -> tuple[PlayerInfo, ...]:
    key = (climbed, laid_down_turn, penalties, tuple([len(h) for h in hands]))
    found = _PLAYERS.get(key)
    if found is None:
        if len(_PLAYERS) >= _PLAYERS_KEPT:
            _PLAYERS.clear()
        found = _PLAYERS[key] = tuple([PlayerInfo(
            # GameState.rung, inlined.
            s, min(climbed[s] + (laid_down_turn[s] is None), TOP_RUNG), climbed[s],
            laid_down_turn[s] is not None, len(hands[s]), penalties[s])
            for s in range(len(hands))])
    return found


def player_view(state: GameState, seat: int) -> PlayerView:
    hands, laid_down_turn = state.hands, state.laid_down_turn
    discard_pile = state.discard_pile
    return PlayerView(
        seat, state.deal, state.dealer, state.turn, state.phase, state.turn_number, hands[seat],
        state.table, discard_pile[-1] if discard_pile else None, len(discard_pile),
        len(state.stock), state.rebuilds,
        _players(state.climbed, laid_down_turn, state.penalties, hands),
        state.taken_from_discard if state.turn == seat else None, laid_down_turn[seat],
        state.history, state.pile_log)
