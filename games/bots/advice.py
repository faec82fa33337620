"""Advice for a person: the expert's move in their seat, and why, in a word a client can switch on.

The expert is the ``hard`` level (:mod:`.hard`): it is handed the person's own
:class:`~games.engine.view.PlayerView`, as any bot is, so the advice knows nothing the person
could not (R25). :func:`advise` returns exactly the action ``hard`` would take in that view with
that rng, and a reason code read from the same figures the expert weighed (the draws a card
saves or costs the contract, its penalty points, what the next player collects), so the reason
never contradicts the move.

Reason codes are stable; :data:`REASONS` gives each one's English sentence (clients translate
by code, as they do error codes).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.actions import DISCARD_PILE, Action, Discard, Draw, LayDown, LayOff
from games.engine.cards import penalty_of
from games.engine.rng import Stream
from games.engine.state import FINISHED
from games.engine.view import PlayerView

from . import hard, normal
from .memory import Memory
from .outlook import outlook
from .tactics import feeding_risks, going_out_soon

SAME = 1e-9  # two costs closer than this are equal (they are sums of the same floats)

REASONS = {
    "not_your_turn": "It is not your turn.",
    "game_over": "The game is over.",
    # draw
    "take_to_complete_contract": "Take the top discard: with it you hold your contract.",
    "take_brings_contract_nearer": "Take the top discard: it brings your contract nearer than "
                                   "a card from the stock would, on average.",
    "take_to_lay_off": "Take the top discard: it fits a meld on the table, so it can leave "
                       "your hand this turn.",
    "stock_discard_does_not_help": "Draw from the stock: the top discard does nothing for "
                                   "your contract.",
    "stock_discard_helps_too_little": "Draw from the stock: the top discard helps your "
                                      "contract less than a card from the stock would, on "
                                      "average.",
    "stock_discard_fits_nowhere": "Draw from the stock: the top discard fits no meld on the "
                                  "table.",
    "stock_only": "Draw from the stock: the top discard may not be taken now.",
    # play
    "lay_down_contract": "Lay your contract down now: it climbs you a rung, and from your "
                         "next turn you may lay off on any meld.",
    "lay_off_card": "Lay this card off on the highlighted meld: a card laid off costs no "
                    "points when the deal ends.",
    "discard_does_nothing": "Discard this card: it does nothing for your contract.",
    "discard_least_useful": "Discard this card: your contract needs it least.",
    "discard_high_points": "Discard this card: its penalty points weigh more than the little "
                           "it does for your contract.",
    "discard_not_feeding": "Discard this card: the next player seems to collect the cards you "
                           "could spare instead.",
    "discard_after_lay_down": "Discard this card: it fits no meld on the table and would cost "
                              "you the most points if the deal ended.",
    # the search (hard, once a player has laid down) overturned the expert's first choice
    "best_in_play_outs": "Played out over possible deals from here, this move came out best.",
}
REASON_CODES = tuple(REASONS)


@dataclass(frozen=True)
class Advice:
    action: Action | None  # None when the seat has nothing to do now
    reason: str  # one of REASON_CODES

    @property
    def message(self) -> str:
        return REASONS[self.reason]


def advise(view: PlayerView, rng: Stream) -> Advice:
    """What the expert (``hard``) would do in ``view`` now, with ``rng`` as its chance, and
    why."""
    if view.phase == FINISHED:
        return Advice(None, "game_over")
    if view.turn != view.seat:
        return Advice(None, "not_your_turn")
    memory = Memory.from_view(view)
    action = hard.choose(view, memory, rng)
    return Advice(action, _reason(view, memory, action))


def _reason(view: PlayerView, memory: Memory, action: Action) -> str:
    if isinstance(action, LayDown):
        return "lay_down_contract"
    if isinstance(action, LayOff):
        return "lay_off_card"
    if isinstance(action, Draw):
        return _draw_reason(view, memory, action.source == DISCARD_PILE)
    return _discard_reason(view, memory, action)


def _draw_reason(view: PlayerView, memory: Memory, took: bool) -> str:
    if took != normal.wants_top_discard(view, memory, normal.EXPERT_TAKE_MARGIN):
        return "best_in_play_outs"
    if DISCARD_PILE not in view.legal.draw:
        return "stock_only"
    if view.me.laid_down:
        return "take_to_lay_off" if took else "stock_discard_fits_nowhere"
    gain = normal.top_discard_gain(view, memory)
    if took:
        return ("take_to_complete_contract" if gain == float("inf")
                else "take_brings_contract_nearer")
    return "stock_discard_does_not_help" if gain <= SAME else "stock_discard_helps_too_little"


def _discard_reason(view: PlayerView, memory: Memory, action: Discard) -> str:
    costs = {card: cost for cost, card in normal.discard_order(view, memory)}
    if costs[action.card] > min(costs.values()) + SAME:
        return "best_in_play_outs"
    if view.me.laid_down:
        return "discard_after_lay_down"
    plans = outlook(view.hand, view.me.contract, memory.live)

    def loss(card: int) -> float:  # draws the contract loses with the card
        return plans.without(card) - plans.distance

    thrown = action.card
    least = min(costs, key=lambda c: (loss(c), -penalty_of(c)))
    if loss(thrown) <= loss(least) + SAME:
        return "discard_does_nothing" if loss(thrown) <= SAME else "discard_least_useful"
    # A card the contract needs more went: its points or the next player's wants decided.
    weight = normal.penalty_weight(plans, going_out_soon(view))
    risks = feeding_risks((thrown, least), view, memory)
    points_gain = weight * (penalty_of(thrown) - penalty_of(least))
    feeding_gain = normal.FEEDING_COST * (risks[least] - risks[thrown])
    return "discard_high_points" if points_gain >= feeding_gain else "discard_not_feeding"
