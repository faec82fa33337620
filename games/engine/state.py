"""The full state of a game: immutable, derived from (seed, actions), round-trips through JSON.

The full state holds every hidden card; it never leaves the engine except through
:func:`games.engine.view.player_view` (R25) and the replay of a finished game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import SUITS, card_json, rank_label
from .contracts import TOP_RUNG, Contract, contract_for
from .melds import Meld

ENGINE_VERSION = 1
SEATS = 4
DEALS = 10  # R3
HAND_SIZE = 10  # R3
MAX_REBUILDS = 2  # R20

DRAW, PLAY, FINISHED = "draw", "play", "finished"
WENT_OUT, STOCK_EXHAUSTED = "went_out", "stock_exhausted"


@dataclass(frozen=True, slots=True)
class TableMeld:
    owner: int
    meld: Meld

    def to_json(self, index: int) -> dict:
        cards = []
        for i, card in enumerate(self.meld.cards):
            data = card_json(card)
            if data.get("joker"):
                rank, suit = self.meld.stands_for(i)
                data["as"] = _card_face_json(rank, suit)
            cards.append(data)
        return {"id": index, "owner": self.owner, "kind": self.meld.kind, "cards": cards}


def _card_face_json(rank: int, suit: int) -> dict:
    data = {"rank": rank_label(rank)}
    if suit >= 0:
        data["suit"] = SUITS[suit]
    return data


@dataclass(frozen=True, slots=True)
class DealResult:
    deal: int
    dealer: int
    ending: str  # WENT_OUT or STOCK_EXHAUSTED
    went_out: int | None
    penalties: tuple[int, ...]  # points scored in this deal (R21)
    climbed: tuple[bool, ...]  # who laid their contract down in this deal (R12)

    def to_json(self) -> dict:
        return {"deal": self.deal, "dealer": self.dealer, "ending": self.ending,
                "went_out": self.went_out, "penalties": list(self.penalties),
                "climbed": list(self.climbed)}

    @classmethod
    def from_json(cls, data: dict) -> DealResult:
        return cls(data["deal"], data["dealer"], data["ending"], data["went_out"],
                   tuple(data["penalties"]), tuple(data["climbed"]))


# A named tuple: every action makes a new state (thousands in each of the hard player's
# decisions), and a named tuple's ``_replace`` makes one in a few C calls where
# ``dataclasses.replace`` walks the fields of a dataclass in Python, three times the
# instructions for these 19 fields (docs/performance.md). Immutable, as a state always was:
# apply and evolve make new ones.
class GameState(NamedTuple):
    seed: str
    deal: int  # 1-10
    dealer: int
    turn: int  # whose turn
    phase: str  # DRAW, PLAY or FINISHED
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]  # the top card is last
    discard_pile: tuple[int, ...]  # the top card is last
    table: tuple[TableMeld, ...]
    climbed: tuple[int, ...]  # contracts completed, 0-10 (R12)
    laid_down_turn: tuple[int | None, ...]  # the deal's turn number in which each seat laid down
    penalties: tuple[int, ...]  # accumulated over the game (R21)
    turn_number: int  # 1 for the first turn of the deal
    taken_from_discard: int | None  # the card drawn from the discard pile this turn (R16)
    rebuilds: int  # stock rebuilds in this deal (R20)
    pile_log: tuple[tuple[int, int, bool], ...] = ()  # this deal's (seat, card, took) moves
    history: tuple[DealResult, ...] = ()
    actions: int = 0  # actions applied since the start of the game
    version: int = ENGINE_VERSION

    def rung(self, seat: int) -> int:
        """The rung whose contract ``seat`` plays in this deal (R12: a climb counts from the next
        deal)."""
        return min(self.climbed[seat] + 1 - (self.laid_down_turn[seat] is not None), TOP_RUNG)

    def contract(self, seat: int) -> Contract:
        return contract_for(self.rung(seat))

    def has_laid_down(self, seat: int) -> bool:
        return self.laid_down_turn[seat] is not None

    def to_json(self) -> dict:
        return {
            "version": self.version, "seed": self.seed, "deal": self.deal,
            "dealer": self.dealer, "turn": self.turn, "phase": self.phase,
            "hands": [list(h) for h in self.hands], "stock": list(self.stock),
            "discard_pile": list(self.discard_pile),
            "table": [{"owner": t.owner, "kind": t.meld.kind, "cards": list(t.meld.cards),
                       "rank": t.meld.rank, "suit": t.meld.suit} for t in self.table],
            "climbed": list(self.climbed), "laid_down_turn": list(self.laid_down_turn),
            "penalties": list(self.penalties), "turn_number": self.turn_number,
            "taken_from_discard": self.taken_from_discard, "rebuilds": self.rebuilds,
            "pile_log": [list(m) for m in self.pile_log],
            "history": [d.to_json() for d in self.history], "actions": self.actions,
        }

    @classmethod
    def from_json(cls, data: dict) -> GameState:
        return cls(
            seed=data["seed"], deal=data["deal"], dealer=data["dealer"], turn=data["turn"],
            phase=data["phase"], hands=tuple(tuple(h) for h in data["hands"]),
            stock=tuple(data["stock"]), discard_pile=tuple(data["discard_pile"]),
            table=tuple(TableMeld(t["owner"], Meld(t["kind"], tuple(t["cards"]), t["rank"],
                                                    t["suit"])) for t in data["table"]),
            climbed=tuple(data["climbed"]), laid_down_turn=tuple(data["laid_down_turn"]),
            penalties=tuple(data["penalties"]), turn_number=data["turn_number"],
            taken_from_discard=data["taken_from_discard"], rebuilds=data["rebuilds"],
            pile_log=tuple(tuple(m) for m in data["pile_log"]),
            history=tuple(DealResult.from_json(d) for d in data["history"]),
            actions=data["actions"], version=data["version"],
        )


evolve = GameState._replace
"""``evolve(state, **changes)``: a new state with those fields changed (every action makes
one); a name the state does not have raises ValueError."""
