"""Normal: plays for its contract with everything a careful person at the table knows.

- Before laying down it prices each hand by :mod:`games.bots.outlook`: the draws still needed
  for its contract, each missing card weighed by how many live copies remain.
- It takes the top discard whenever that brings the contract nearer, however little. An expert
  (:data:`EXPERT`, hard's own judgment) takes it only when it brings the contract nearer than a
  stock draw would on average: the one judgment that sets the two apart, and worth much (one
  expert against three normal players wins about 46 % of games, docs/bots.md).
- It lays its contract down at once (R12: the climb is what ranks, R22), then lays off every
  card it can (R15) to empty its hand.
- It discards the card whose loss costs the least, never feeding the next player what they
  visibly collect, and dumps high cards when someone may go out or its own contract is out
  of reach (R21).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import inf

from games.engine.actions import DISCARD_PILE, STOCK, Action, Discard, Draw, LayDown
from games.engine.cards import face_of, is_joker, penalty_of, rank_of, suit_of
from games.engine.contracts import GROUP, RUN
from games.engine.melds import best_lay_down
from games.engine.rng import Stream
from games.engine.state import DRAW
from games.engine.view import PlayerView

from .memory import Memory
from .outlook import Outlook, outlook
from .tactics import feeding_risks, fits, going_out_soon, lay_down, lay_off, table_melds

EXPERT_TAKE_MARGIN = 0.35  # what a stock draw is worth on average, in draws saved
FEEDING_COST = 0.8  # handing the next player a card they collect, in draws
FEEDING_POINTS = 10  # the same, in penalty points, once this player has laid down
PENALTY_WEIGHT = 0.005  # per penalty point, in draws, when nobody is near going out
URGENT_PENALTY_WEIGHT = 0.05  # per penalty point when someone may go out now
HOLDS_NEAR = 2.5  # below this an outlook may hold the contract: ask the engine
RUN_REACH = 4  # suited cards this many ranks apart or more share no run of four
NEAR_FIT_KEEP = 0.5  # share of a card's penalty worth risking on it fitting the table later
HOPELESS_DRAWS = 3.0  # a contract further than this many draws away is losing hope
HOPELESS_PENALTY_WEIGHT = 0.06  # per penalty point, per 3 draws beyond that


@dataclass(frozen=True)
class Planner:
    """A player of this module's plan, ``take_margin`` the draws a top discard must save to be
    taken: 0 for the normal player, which takes any card that helps; what a stock draw is worth
    for the expert, which takes only a card that beats one."""

    take_margin: float = 0.0

    def __call__(self, view: PlayerView, memory: Memory, rng: Stream | None) -> Action:
        """No dice: the choices follow from the view alone (hard's play-outs call it without
        an rng)."""
        if view.phase == DRAW:
            taken = wants_top_discard(view, memory, self.take_margin)
            return Draw(DISCARD_PILE if taken else STOCK)
        return may_lay_down(view, memory) or lay_off(view) or Discard(best_discard(view, memory))


def may_lay_down(view: PlayerView, memory: Memory) -> LayDown | None:
    """Lay the contract down at once when the hand holds it; the engine's exact search runs
    only when the outlook says the hand may."""
    if view.me.laid_down:
        return None
    if outlook(view.hand, view.me.contract, memory.live).nearest >= HOLDS_NEAR:
        return None
    return lay_down(view)


def wants_top_discard(view: PlayerView, memory: Memory, take_margin: float) -> bool:
    """Take the top discard when it completes the contract, or brings it nearer by more than
    ``take_margin`` draws; once down, when it can be laid off at once."""
    if DISCARD_PILE not in view.legal.draw:
        return False
    if view.me.laid_down:
        # R15: laid down on an earlier turn, so a card that fits the table leaves at once.
        return fits(view.discard_top, table_melds(view))
    return top_discard_gain(view, memory) > take_margin


def top_discard_gain(view: PlayerView, memory: Memory) -> float:
    """Before laying down: the draws that taking the top discard saves on the way to the
    contract (``inf`` when it completes the contract), or 0 when a quick look
    (:func:`could_help`) says it cannot help."""
    if not could_help(view.discard_top, view):
        return 0.0
    return taking_gain(view, memory)


def taking_gain(view: PlayerView, memory: Memory) -> float:
    """The outlook's figure that :func:`top_discard_gain` skips when the quick look sees no
    use: the draws saved by taking the top discard and throwing the card the hand then needs
    least (``inf`` when the contract is then held)."""
    top = view.discard_top
    contract = view.me.contract
    hand = view.hand + (top,)
    taken = outlook(hand, contract, memory.live)
    if taken.nearest < HOLDS_NEAR and best_lay_down(hand, contract, face_of(top)) is not None:
        return inf
    now = taken.without(top)
    # R16: whatever goes back on the pile this turn, it is not the card just taken.
    after = min(taken.without(c) for c in view.hand if face_of(c) != face_of(top))
    return now - after


def could_help(card: int, view: PlayerView) -> bool:
    """A quick look before pricing: a card can only help a contract's group if the hand holds
    its rank, and a run if the hand holds a card of its suit near it."""
    if is_joker(card):
        return True
    kinds = {r.kind for r in view.me.contract.requirements}
    rank, suit = rank_of(card), suit_of(card)
    for other in view.hand:
        if is_joker(other):
            continue
        if GROUP in kinds and rank_of(other) == rank:
            return True
        if RUN in kinds and suit_of(other) == suit and _ranks_apart(other, card) < RUN_REACH:
            return True
    return False


def _ranks_apart(a: int, b: int) -> int:
    """Distance in a run, the ace counting low or high (R6)."""
    low, high = sorted((rank_of(a), rank_of(b)))
    return min(high - low, low + 13 - high) if low == 1 else high - low


def best_discard(view: PlayerView, memory: Memory) -> int:
    return min(discard_order(view, memory), key=lambda pair: pair[0])[1]


def discard_order(view: PlayerView, memory: Memory) -> list[tuple[float, int]]:
    """Every legal discard with its cost to this player (lower is better to throw)."""
    discards = view.legal.discards
    risks = feeding_risks(discards, view, memory)
    if view.me.laid_down:
        # Only penalties are at stake now: keep what will cost most if the deal ends.
        return [(FEEDING_POINTS * risks[c] - _burden_kept(c, view), c) for c in discards]
    plans = outlook(view.hand, view.me.contract, memory.live)
    weight = penalty_weight(plans, going_out_soon(view))
    return [(plans.without(c) - weight * penalty_of(c) + FEEDING_COST * risks[c], c)
            for c in discards]


def penalty_weight(plans: Outlook, urgency: float) -> float:
    """What a penalty point in hand is worth, in draws, before laying down: a little, more when
    the deal may end soon (``urgency`` 0-1, :func:`going_out_soon`), and more when the
    contract is out of reach, as its cards are then only points to lose (R21)."""
    weight = PENALTY_WEIGHT + URGENT_PENALTY_WEIGHT * urgency
    return weight + HOPELESS_PENALTY_WEIGHT * max(0.0, plans.distance - HOPELESS_DRAWS) / 3


def _burden_kept(card: int, view: PlayerView) -> float:
    """After laying down, the penalty a card is likely to cost if kept: nothing if it fits the
    table (laid off next turn), part of it if it may fit once a run grows toward it."""
    table = table_melds(view)
    if fits(card, table):
        return -100.0  # never throw away a card that will leave the hand anyway
    penalty = penalty_of(card)
    if is_joker(card):
        return penalty
    for meld in table:
        if meld.kind == RUN and meld.suit == suit_of(card):
            gap = (meld.rank - 2 == rank_of(card)) or (meld.high + 2 == rank_of(card))
            if gap:
                return penalty * (1 - NEAR_FIT_KEEP)
    return penalty


choose = Planner()
EXPERT = Planner(take_margin=EXPERT_TAKE_MARGIN)
