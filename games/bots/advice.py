"""Advice for a person: the expert's move in their seat, and why, in a word a client can switch on.

The expert is the ``hard`` level (:mod:`.hard`): it is handed the person's own
:class:`~games.engine.view.PlayerView`, as any bot is, so the advice knows nothing the person
could not (R25). :func:`advise` returns exactly the action ``hard`` would take in that view with
that rng, and a reason code read from the same figures the expert weighed (the draws a card
saves or costs the contract, its penalty points, what the next player collects).

Reason codes are stable; :data:`REASONS` gives each one's English sentence (clients translate
by code, as they do error codes; the pages' catalogue takes the sentences from here). Each code
claims something definite of the position it is given for, and is given only when that holds;
where a stronger claim fails, a weaker true one is given instead (tests/bots/test_advice.py
checks every claim apart from this module). "The outlook" is the expert's measure of a hand's
distance from its contract in draws (:mod:`.outlook`); "the cards you may discard" are the
legal discards (R16). The claims:

- ``not_your_turn``, ``game_over``: so, and there is no move.
- ``take_to_complete_contract``: not laid down; the hand with the top discard holds the
  contract (a legal lay-down exists).
- ``take_brings_contract_nearer``: not laid down; taking the top discard and throwing the card
  the hand then needs least puts the contract more draws nearer, in the outlook, than
  ``normal.EXPERT_TAKE_MARGIN`` (what a stock card brings on average).
- ``take_to_lay_off``: laid down on an earlier turn; the top discard fits a meld on the table.
- ``stock_discard_does_not_help``: not laid down; taking the top discard would put the
  contract no nearer, in the outlook.
- ``stock_discard_helps_too_little``: not laid down; it would put it nearer by no more than
  ``EXPERT_TAKE_MARGIN`` draws.
- ``stock_discard_unmatched`` (weaker, where the outlook sees more use than the expert's quick
  look, :func:`.normal.could_help`): no card in hand has its rank, if the contract asks for a
  group, nor is of its suit within three ranks of it, if it asks for a run; it is no joker.
- ``stock_discard_fits_nowhere``: laid down; the top discard fits no meld on the table.
- ``stock_only``: the top discard may not be taken now.
- ``lay_down_contract``: the move is a legal lay-down of the contract (R12, R14).
- ``lay_off_card``: the move is a legal lay-off (R15).
- ``discard_does_nothing``: not laid down; without the card the outlook is unchanged.
- ``discard_least_useful``: not laid down; no card you may discard costs the outlook less.
- ``discard_high_points``: not laid down; against each card you may discard that costs the
  outlook less, this card's extra penalty points, at what a point is worth to the expert now
  (``normal.penalty_weight``), outweigh its extra cost to the outlook.
- ``discard_not_feeding``: not laid down; the next player seems to collect each card you may
  discard that costs the outlook less (``tactics.feeding_risks``) more than this card.
- ``discard_points_or_feeding`` (weaker): each card you may discard that costs the outlook less
  has fewer penalty points than this card, or seems collected by the next player more.
- ``discard_after_lay_down``: laid down; the card fits no meld on the table, and no card in hand
  has more penalty points.
- ``discard_fits_nowhere`` (weaker): laid down; the card fits no meld on the table.
- ``discard_all_fit``: laid down; every card you may discard fits a meld on the table (the
  expert throws a card that fits only then).
- ``discard_to_go_out``: the card is the last in hand, so discarding it goes out (R19).
- ``best_in_play_outs``: someone has laid down, and the move is not the one the expert's own
  judgment (:data:`.normal.EXPERT`) makes: hard's search of play-outs chose it.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import inf

from games.engine.actions import DISCARD_PILE, Action, Discard, Draw, LayDown, LayOff
from games.engine.cards import penalty_of
from games.engine.rng import Stream
from games.engine.state import FINISHED
from games.engine.view import PlayerView

from . import hard, normal
from .memory import Memory
from .outlook import outlook
from .tactics import feeding_risks, fits, going_out_soon, table_melds


def gettext_noop(sentence: str) -> str:
    """Marks a sentence for the pages' catalogue (makemessages finds it by this name; the
    bots import no Django): the API answers in English, the pages translate by the sentence."""
    return sentence


SAME = 1e-9  # two costs closer than this are equal (they are sums of the same floats)

REASONS = {
    "not_your_turn": gettext_noop("It is not your turn."),
    "game_over": gettext_noop("The game is over."),
    # draw
    "take_to_complete_contract": gettext_noop("Take the top discard: with it you hold your "
                                              "contract."),
    "take_brings_contract_nearer": gettext_noop("Take the top discard: it brings your contract "
                                                "nearer than a card from the stock would, on "
                                                "average."),
    "take_to_lay_off": gettext_noop("Take the top discard: it fits a meld on the table, so it can"
                                    " leave your hand this turn."),
    "stock_discard_does_not_help": gettext_noop("Draw from the stock: the top discard does "
                                                "nothing for your contract."),
    "stock_discard_helps_too_little": gettext_noop("Draw from the stock: the top discard helps "
                                                   "your contract less than a card from the stock"
                                                   " would, on average."),
    "stock_discard_unmatched": gettext_noop("Draw from the stock: none of your cards is close to "
                                            "the top discard (the same rank, for a group; the "
                                            "same suit within three ranks, for a run)."),
    "stock_discard_fits_nowhere": gettext_noop("Draw from the stock: the top discard fits no meld"
                                               " on the table."),
    "stock_only": gettext_noop("Draw from the stock: the top discard may not be taken now."),
    # play
    "lay_down_contract": gettext_noop("Lay your contract down now: it climbs you a rung, and from"
                                      " your next turn you may lay off on any meld."),
    "lay_off_card": gettext_noop("Lay this card off on the highlighted meld: a card laid off "
                                 "costs no points when the deal ends."),
    "discard_does_nothing": gettext_noop("Discard this card: it does nothing for your contract."),
    "discard_least_useful": gettext_noop("Discard this card: your contract needs it least."),
    "discard_high_points": gettext_noop("Discard this card: its penalty points weigh more than "
                                        "the little it does for your contract."),
    "discard_not_feeding": gettext_noop("Discard this card: the next player seems to collect the "
                                        "cards you could spare instead."),
    "discard_points_or_feeding": gettext_noop("Discard this card: each card your contract needs "
                                              "less has fewer penalty points, or the next player "
                                              "seems to collect it."),
    "discard_after_lay_down": gettext_noop("Discard this card: it fits no meld on the table and "
                                           "would cost you the most points if the deal ended."),
    "discard_fits_nowhere": gettext_noop("Discard this card: it fits no meld on the table."),
    "discard_all_fit": gettext_noop("Discard this card: every card you may discard fits a meld on"
                                    " the table."),
    "discard_to_go_out": gettext_noop("Discard your last card: you go out, and the deal ends."),
    # the search (hard, once a player has laid down) overturned the expert's first choice
    "best_in_play_outs": gettext_noop("Played out over possible deals from here, this move came "
                                      "out best."),
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
    if took:
        return ("take_to_complete_contract" if normal.top_discard_gain(view, memory) == inf
                else "take_brings_contract_nearer")
    # The expert may have passed it over on a quick look (could_help): ask the outlook itself.
    gain = normal.taking_gain(view, memory)
    if gain <= SAME:
        return "stock_discard_does_not_help"
    if gain <= normal.EXPERT_TAKE_MARGIN:
        return "stock_discard_helps_too_little"
    return "stock_discard_unmatched"  # the quick look's verdict, all that is left true


def _discard_reason(view: PlayerView, memory: Memory, action: Discard) -> str:
    costs = {card: cost for cost, card in normal.discard_order(view, memory)}
    if costs[action.card] > min(costs.values()) + SAME:
        return "best_in_play_outs"
    thrown = action.card
    if view.me.laid_down:
        if len(view.hand) == 1:
            return "discard_to_go_out"
        if fits(thrown, table_melds(view)):  # priced dearest: thrown only when all fit
            return "discard_all_fit"
        dearest = max(penalty_of(c) for c in view.hand)
        return ("discard_after_lay_down" if penalty_of(thrown) == dearest
                else "discard_fits_nowhere")
    plans = outlook(view.hand, view.me.contract, memory.live)

    def loss(card: int) -> float:  # draws the contract loses with the card
        return plans.without(card) - plans.distance

    if loss(thrown) <= SAME:
        return "discard_does_nothing"
    spare = [c for c in costs if loss(c) < loss(thrown) - SAME]  # the contract needs them less
    if not spare:
        return "discard_least_useful"
    # A card the contract needs more went: its points or the next player's wants decided.
    weight = normal.penalty_weight(plans, going_out_soon(view))
    if all(weight * (penalty_of(thrown) - penalty_of(c)) >= loss(thrown) - loss(c)
           for c in spare):
        return "discard_high_points"
    risks = feeding_risks((thrown, *spare), view, memory)
    if all(risks[c] > risks[thrown] for c in spare):
        return "discard_not_feeding"
    return "discard_points_or_feeding"
