"""The four actions a player takes (R13-R16), and their JSON form (docs/api.md)."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import card_id, parse_card
from .errors import IllegalAction

STOCK, DISCARD_PILE = "stock", "discard"


@dataclass(frozen=True, slots=True)
class Draw:
    source: str  # STOCK or DISCARD_PILE

    def to_json(self) -> dict:
        return {"type": "draw", "from": self.source}


@dataclass(frozen=True, slots=True)
class LayDown:
    melds: tuple[tuple[int, ...], ...]  # run cards low to high; a joker's place fixes it (R8)

    def to_json(self) -> dict:
        return {"type": "lay_down", "melds": [[card_id(c) for c in m] for m in self.melds]}


@dataclass(frozen=True, slots=True)
class LayOff:
    meld: int  # index of the meld on the table
    card: int
    end: str | None = None  # "low" or "high"; needed only where both ends fit

    def to_json(self) -> dict:
        data = {"type": "lay_off", "meld": self.meld, "card": card_id(self.card)}
        if self.end is not None:
            data["end"] = self.end
        return data


@dataclass(frozen=True, slots=True)
class Discard:
    card: int

    def to_json(self) -> dict:
        return {"type": "discard", "card": card_id(self.card)}


Action = Draw | LayDown | LayOff | Discard


def _malformed(message: str) -> IllegalAction:
    return IllegalAction("malformed_action", None, message)


def _card(value) -> int:
    if not isinstance(value, str):
        raise _malformed("A card is given by its id, such as \"7H.1\" or \"JK.2\".")
    try:
        return parse_card(value)
    except KeyError:
        # Quote a few characters only: the id is the client's, of any length.
        shown = repr(value[:8]) + ("…" if len(value) > 8 else "")
        raise IllegalAction("unknown_card", None, f"There is no card {shown}.") from None


def action_from_json(data) -> Action:
    """Parse a client's action; anything malformed raises IllegalAction (never another error)."""
    if not isinstance(data, dict):
        raise _malformed("An action is a JSON object with a \"type\".")
    kind = data.get("type")
    if kind == "draw":
        if data.get("from") not in (STOCK, DISCARD_PILE):
            raise _malformed("Draw \"from\" the \"stock\" or the \"discard\" pile.")
        return Draw(data["from"])
    if kind == "discard":
        return Discard(_card(data.get("card")))
    if kind == "lay_off":
        meld, end = data.get("meld"), data.get("end")
        if not isinstance(meld, int) or isinstance(meld, bool) or meld < 0:
            raise _malformed("\"meld\" is the index of a meld on the table.")
        if end not in (None, "low", "high"):
            raise _malformed("\"end\" is \"low\" or \"high\".")
        return LayOff(meld, _card(data.get("card")), end)
    if kind == "lay_down":
        melds = data.get("melds")
        if not isinstance(melds, list) or not melds or len(melds) > 4 or not all(
                isinstance(m, list) and 0 < len(m) <= 14 for m in melds):
            raise _malformed("\"melds\" is a list of melds, each a list of card ids.")
        return LayDown(tuple(tuple(_card(c) for c in m) for m in melds))
    raise IllegalAction("unknown_action", None,
                        "The action type must be draw, lay_down, lay_off or discard.")
