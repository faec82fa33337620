"""Table sense shared by the levels: laying down, laying off, and reading the other players."""

from __future__ import annotations

from games.engine.actions import LayDown, LayOff
from games.engine.cards import face_of, is_joker, penalty_of, rank_of, suit_of
from games.engine.contracts import GROUP, RUN
from games.engine.melds import Meld, lay_down_options
from games.engine.view import PlayerView

from .memory import Memory

OUT_SOON_PER_CARD = 0.2  # urgency lost per card an opponent who laid down still holds
LAY_DOWN_OPTIONS = 40  # lay-downs weighed; the engine lists the most natural ones first


def fits(card: int, melds) -> bool:
    """Could ``card`` be laid off on one of these melds (R15)?"""
    return any(m.ends_for(card) for m in melds)


def table_melds(view: PlayerView) -> list[Meld]:
    return [t.meld for t in view.table]


def lay_down(view: PlayerView) -> LayDown | None:
    """The best legal lay-down of the contract (R14), or None when the hand does not hold it.

    Best means the fewest penalty points stuck in hand: after laying down the player discards
    one card, and cards that fit a meld on the table are laid off next turn (R15)."""
    forbidden = view.situation.forbidden_face
    best = None
    for melds, rest in lay_down_options(view.hand, view.me.contract, forbidden,
                                        limit=LAY_DOWN_OPTIONS):
        table = table_melds(view) + melds
        stuck = [penalty_of(c) if not fits(c, table) else 1 for c in rest]
        discardable = [s for s, c in zip(stuck, rest, strict=True) if face_of(c) != forbidden]
        score = sum(stuck) - max(discardable, default=0)
        if best is None or score < best[0]:
            best = (score, melds)
    if best is None:
        return None
    return LayDown(tuple(m.cards for m in best[1]))


def lay_off(view: PlayerView) -> LayOff | None:
    """A legal lay-off (R15): naturals before jokers, dearest first, so that the cards that
    would cost the most are the first to leave the hand."""
    options = view.legal.lay_offs
    if not options:
        return None
    meld, card, end = max(options, key=lambda o: (not is_joker(o[1]), penalty_of(o[1])))
    return LayOff(meld, card, end)


def going_out_soon(view: PlayerView) -> float:
    """0-1: how likely the deal ends soon, when every card in hand will cost its penalty (R21):
    an opponent who has laid down and holds few cards, or the last stock running out (R20)."""
    urgency = 0.0
    for info in view.players:
        if info.seat != view.seat and info.laid_down:
            # One card left: out next turn if it fits; each more card puts that off.
            urgency = max(urgency, 1.0 - OUT_SOON_PER_CARD * (info.hand_size - 1))
    if view.rebuilds == 2 and view.stock_size < 12:
        urgency = max(urgency, 1.0 - view.stock_size / 12)
    return urgency


def feeding_risk(card: int, view: PlayerView, memory: Memory) -> float:
    """0-1: how much the next player visibly wants ``card``.

    A player who has laid down wants whatever fits the table; before that, what matches the
    cards they took from the pile and still hold (R25: only what anyone at the table saw), less
    what they threw away or left on the pile."""
    after = memory.next_seat()
    info = view.players[after]
    if is_joker(card):
        return 1.0
    if info.laid_down:
        return 1.0 if fits(card, table_melds(view)) else 0.0
    kinds = {r.kind for r in info.contract.requirements}
    rank, suit = rank_of(card), suit_of(card)
    risk = 0.0
    for taken in memory.held[after]:
        if is_joker(taken):
            continue
        if GROUP in kinds and rank_of(taken) == rank:
            risk += 0.5
        if RUN in kinds and suit_of(taken) == suit and abs(rank_of(taken) - rank) <= 2:
            risk += 0.35
    for dropped in memory.discarded[after] + memory.passed[after]:
        if not is_joker(dropped) and rank_of(dropped) == rank:
            risk -= 0.25
    return min(max(risk, 0.0), 1.0)
