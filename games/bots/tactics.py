"""Table sense shared by the levels: laying down, laying off, and reading the other players."""

from __future__ import annotations

from games.engine.actions import LayDown, LayOff
from games.engine.cards import face_of, is_joker, penalty_of, rank_of, suit_of
from games.engine.contracts import GROUP, RUN
from games.engine.melds import Meld, lay_down_options
from games.engine.state import MAX_REBUILDS
from games.engine.view import PlayerView

from .memory import Memory

OUT_SOON_PER_CARD = 0.2  # urgency lost per card an opponent who laid down still holds
LAST_STOCK_CARDS = 12  # when the last stock (R20) is this low, the deal may end without anyone out
LAY_DOWN_OPTIONS = 40  # lay-downs weighed at most
# What a card's links to the next player's visible cards say about wanting it (0-1 in all):
SAME_RANK_PULL = 0.5  # a card of a rank they took, if their contract has a group
NEAR_SUIT_PULL = 0.35  # a card within RUN_NEIGHBOURS ranks of one they took, if it has a run
RUN_NEIGHBOURS = 2
DROPPED_RANK_PUSH = 0.25  # a rank they threw away or left on the pile


def fits(card: int, melds) -> bool:
    """Could ``card`` be laid off on one of these melds (R15)?"""
    for meld in melds:  # a loop, not any(): asked for every card of every hand, every turn
        if meld.ends_for(card):
            return True
    return False


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
    if view.rebuilds == MAX_REBUILDS and view.stock_size < LAST_STOCK_CARDS:
        urgency = max(urgency, 1.0 - view.stock_size / LAST_STOCK_CARDS)
    return urgency


def feeding_risks(cards, view: PlayerView, memory: Memory) -> dict[int, float]:
    """0-1 for each of ``cards``: how much the next player visibly wants it.

    A player who has laid down wants whatever fits the table; before that, what matches the
    cards they took from the pile and still hold (R25: only what anyone at the table saw), less
    what they threw away or left on the pile. Everyone wants a joker."""
    after = memory.next_seat()
    info = view.players[after]
    if info.laid_down:
        table = table_melds(view)
        return {c: 1.0 if is_joker(c) or fits(c, table) else 0.0 for c in cards}
    kinds = {r.kind for r in info.contract.requirements}
    group_pull, run_pull = GROUP in kinds, RUN in kinds  # asked once, not per pair below
    kept = [(rank_of(c), suit_of(c)) for c in memory.held_by(after) if not is_joker(c)]
    dropped: dict[int, int] = {}  # rank -> cards of it they let go
    for c in memory.discarded[after] + memory.passed[after]:
        if not is_joker(c):
            rank = rank_of(c)
            dropped[rank] = dropped.get(rank, 0) + 1
    risks = {}
    for card in cards:
        if is_joker(card):
            risks[card] = 1.0
            continue
        rank, suit = rank_of(card), suit_of(card)
        risk = -DROPPED_RANK_PUSH * dropped.get(rank, 0)
        for held_rank, held_suit in kept:
            if group_pull and held_rank == rank:
                risk += SAME_RANK_PULL
            if run_pull and held_suit == suit and abs(held_rank - rank) <= RUN_NEIGHBOURS:
                risk += NEAR_SUIT_PULL
        risks[card] = min(max(risk, 0.0), 1.0)
    return risks
