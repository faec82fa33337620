"""What one seat may do now: the single source of truth for apply, the bots and the hints.

Everything here works from a :class:`Situation`, which holds only what the player in that seat
knows (their hand, the table, the card they took from the discard pile), so a bot's view and
the full state answer the same questions the same way.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import DISCARD_PILE, STOCK, Discard, Draw, LayDown, LayOff
from .cards import card_id, describe, face_of, is_joker
from .contracts import Contract
from .errors import IllegalAction
from .melds import LOW, Meld, lay_off_options, match_contract, read_meld
from .state import DRAW, FINISHED, PLAY, TableMeld


# A named tuple rather than a frozen dataclass: one is made in every apply and for every view's
# legal moves, and a tuple is built in one step where a frozen dataclass's __init__ sets each
# field through object.__setattr__ (docs/performance.md). As immutable, equal and hashable.
class Situation(NamedTuple):
    seat: int
    turn: int
    phase: str
    hand: tuple[int, ...]
    table: tuple[TableMeld, ...]
    contract: Contract
    laid_down_turn: int | None
    turn_number: int
    taken_from_discard: int | None
    discard_top: int | None

    @property
    def forbidden_face(self) -> int | None:
        """R16: the face of the card taken from the discard pile this turn."""
        t = self.taken_from_discard
        return None if t is None else face_of(t)

    def may_discard(self, card: int) -> bool:
        return face_of(card) != self.forbidden_face

    @property
    def may_lay_off(self) -> bool:
        """R15: only on a turn after the one in which the contract was laid down."""
        return self.laid_down_turn is not None and self.laid_down_turn < self.turn_number


# A named tuple, as Situation is: one is made for every view's moves in the play phase (each
# decision of a bot, each turn of the hard player's play-outs), and a frozen dataclass's
# __init__ set its four fields through object.__setattr__. As immutable and hashable,
# and equal to another Legal of the same moves.
class Legal(NamedTuple):
    draw: tuple[str, ...]
    lay_down: bool  # the contract may be laid down now, if the hand holds it
    lay_offs: tuple[tuple[int, int, str], ...]  # (meld index, card, end)
    discards: tuple[int, ...]

    def to_json(self) -> dict:
        # Each lay-off option is the action itself, posted as it is (docs/api.md).
        return {"draw": list(self.draw), "may_lay_down": self.lay_down,
                "lay_off": [{"type": "lay_off", "meld": m, "card": card_id(c), "end": e}
                            for m, c, e in self.lay_offs],
                "discard": [card_id(c) for c in self.discards]}


NOTHING = Legal((), False, (), ())
# The draw phase has two answers only: made once, since a Legal never changes.
DRAW_EITHER = Legal((STOCK, DISCARD_PILE), False, (), ())
DRAW_STOCK = Legal((STOCK,), False, (), ())


def legal(s: Situation) -> Legal:
    if s.phase == FINISHED or s.turn != s.seat:
        return NOTHING
    if s.phase == DRAW:
        return DRAW_EITHER if _may_take_discard(s) else DRAW_STOCK
    forbidden = s.forbidden_face
    hand = s.hand
    # R16; with nothing taken from the pile, every card of the hand.
    discards = hand if forbidden is None else tuple(c for c in hand if face_of(c) != forbidden)
    lay_offs = ()
    if s.may_lay_off:
        # R17, counted: laying off a card leaves the hand empty, or a discard among the rest.
        alone = len(hand) == 1
        spare = len(discards)
        lay_offs = tuple(o for o in lay_off_options(hand, [t.meld for t in s.table])
                         if alone or spare - (face_of(o[1]) != forbidden) > 0)
    return Legal((), s.laid_down_turn is None, lay_offs, discards)


def _leaves_a_discard(s: Situation, played: list[int]) -> bool:
    """R17: after playing these cards the hand is empty or holds a card that may be discarded."""
    rest = list(s.hand)
    for card in played:
        rest.remove(card)
    return not rest or any(s.may_discard(c) for c in rest)


def _turn_check(s: Situation, phase: str):
    if s.phase == FINISHED:
        raise IllegalAction("game_over", "R22", "The game is over.")
    if s.turn != s.seat:
        raise IllegalAction("not_your_turn", "R1", "It is not your turn.")
    if s.phase != phase:
        if phase == DRAW:
            raise IllegalAction("already_drawn", "R13", "You have already drawn this turn.")
        raise IllegalAction("draw_first", "R13", "Draw a card first, from the stock or the "
                                                 "discard pile.")


def _in_hand(s: Situation, cards) -> None:
    rest = list(s.hand)
    for card in cards:
        if card not in rest:
            raise IllegalAction("card_not_in_hand", None,
                                f"The {describe(card)} is not in your hand.")
        rest.remove(card)


def _may_take_discard(s: Situation) -> bool:
    """R17 applied to the draw (the rules are silent): taking the top discard is refused when
    every card in hand is its twin, since no card could then be discarded (R16)."""
    top = s.discard_top
    if top is None:
        return False
    twin = face_of(top)
    for card in s.hand:
        if face_of(card) != twin:
            return True
    return False


def check_draw(s: Situation, action: Draw) -> None:
    _turn_check(s, DRAW)
    if action.source == DISCARD_PILE and s.discard_top is None:
        raise IllegalAction("discard_pile_empty", "R13", "The discard pile is empty.")
    if action.source == DISCARD_PILE and not _may_take_discard(s):
        raise IllegalAction("no_discard_left", "R17",
                            "Taking that card would leave you nothing you may discard: "
                            "you may not discard the card you took from the pile (R16).")


def check_lay_down(s: Situation, action: LayDown) -> list[Meld]:
    """The melds of a legal lay-down (R14), or IllegalAction."""
    _turn_check(s, PLAY)
    if s.laid_down_turn is not None:
        raise IllegalAction("already_laid_down", "R14",
                            "You have already laid your contract down in this deal.")
    cards = [c for meld in action.melds for c in meld]
    _in_hand(s, cards)
    melds = [read_meld(m) for m in action.melds]
    if not match_contract(melds, s.contract):
        raise IllegalAction("not_the_contract", "R14",
                            f"Your contract is {s.contract.describe()}: lay down exactly those "
                            "melds, no more and no fewer.")
    if not _leaves_a_discard(s, cards):
        raise _no_discard_left()
    return melds


def check_lay_off(s: Situation, action: LayOff) -> Meld:
    """The meld after a legal lay-off (R15), or IllegalAction."""
    _turn_check(s, PLAY)
    if s.laid_down_turn is None:
        raise IllegalAction("contract_not_laid_down", "R15",
                            "You may lay off only after laying your contract down.")
    if not s.may_lay_off:
        raise IllegalAction("lay_off_same_turn", "R15",
                            "You may lay off only on a turn after the one in which you laid "
                            "your contract down.")
    _in_hand(s, [action.card])
    if action.meld >= len(s.table):
        raise IllegalAction("no_such_meld", None, "There is no such meld on the table.")
    meld = s.table[action.meld].meld
    ends = meld.ends_for(action.card)
    if not ends:
        raise IllegalAction("does_not_fit", "R15",
                            f"The {describe(action.card)} does not fit that meld: a group takes "
                            "its rank, a run the next card at either end.")
    end = _choose_end(meld, ends, action)
    if not _leaves_a_discard(s, [action.card]):
        raise _no_discard_left()
    return meld.extended(action.card, end)


def _choose_end(meld: Meld, ends: tuple[str, ...], action: LayOff) -> str:
    if meld.kind != "run":
        return ends[0]
    if action.end is None:
        if len(ends) > 1:
            raise IllegalAction("choose_end", "R8", "That card fits both ends of the run: "
                                                    "choose the low or the high end.")
        return ends[0]
    if action.end not in ends:
        where = "below" if action.end == LOW else "above"
        raise IllegalAction("does_not_fit", "R15",
                            f"The {describe(action.card)} does not fit {where} that run.")
    return action.end


def check_discard(s: Situation, action: Discard) -> None:
    _turn_check(s, PLAY)
    _in_hand(s, [action.card])
    if not s.may_discard(action.card):
        what = "a joker" if is_joker(action.card) else "the card"
        raise IllegalAction("discard_taken_card", "R16",
                            f"You may not discard {what} you took from the discard pile "
                            "this turn (nor its twin).")


def _no_discard_left() -> IllegalAction:
    return IllegalAction("no_discard_left", "R17",
                         "That would leave you only the card you took from the discard pile, "
                         "which you may not discard.")

