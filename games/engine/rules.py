"""The game: ``new_game(seed)``, ``apply(state, seat, action) -> (state, events)``, ``replay``.

``apply`` never mutates: an illegal action raises IllegalAction and the caller keeps the old
state. Deals follow one another without a pause; a ``deal_ended`` event marks the seam.
"""

from __future__ import annotations

from .actions import DISCARD_PILE, Action, Discard, Draw, LayDown, LayOff
from .cards import PACK, card_json, hand_penalty
from .events import Event
from .legal import Situation, check_discard, check_draw, check_lay_down, check_lay_off
from .rng import Stream
from .state import (
    DEALS,
    DRAW,
    FINISHED,
    HAND_SIZE,
    MAX_REBUILDS,
    PLAY,
    SEATS,
    STOCK_EXHAUSTED,
    WENT_OUT,
    DealResult,
    GameState,
    TableMeld,
    evolve,
)


def situation(state: GameState, seat: int) -> Situation:
    return Situation(
        seat, state.turn, state.phase, state.hands[seat], state.table, state.contract(seat),
        state.laid_down_turn[seat], state.turn_number,
        state.taken_from_discard if seat == state.turn else None,
        state.discard_pile[-1] if state.discard_pile else None)


def new_game(seed: str) -> tuple[GameState, list[Event]]:
    """Deal 1 of a new game. R3: the first dealer is drawn from the seed."""
    dealer = Stream.of(seed, "dealer").below(SEATS)
    blank = GameState(
        seed=seed, deal=0, dealer=dealer, turn=0, phase=DRAW, hands=((),) * SEATS, stock=(),
        discard_pile=(), table=(), climbed=(0,) * SEATS, laid_down_turn=(None,) * SEATS,
        penalties=(0,) * SEATS, turn_number=0, taken_from_discard=None, rebuilds=0)
    return _deal(blank, 1, dealer)


def _deal(state: GameState, deal: int, dealer: int) -> tuple[GameState, list[Event]]:
    """R3, R4: shuffle the pack with derive(seed, "deal", n); deal pack[0..39] one at a time
    clockwise from the dealer's left; pack[40] starts the discard pile; pack[41] is the top of
    the stock and pack[106] its bottom."""
    pack = Stream.of(state.seed, "deal", deal).shuffle(list(PACK))
    dealt = SEATS * HAND_SIZE
    hands = tuple(tuple(pack[i] for i in range(dealt) if (dealer + 1 + i) % SEATS == seat)
                  for seat in range(SEATS))
    first = (dealer + 1) % SEATS
    state = evolve(
        state, deal=deal, dealer=dealer, turn=first, phase=DRAW, hands=hands,
        stock=tuple(reversed(pack[dealt + 1:])), discard_pile=(pack[dealt],), table=(),
        laid_down_turn=(None,) * SEATS, turn_number=1, taken_from_discard=None, rebuilds=0,
        pile_log=((dealer, pack[dealt], False),))
    event = Event("deal_started", {
        "deal": deal, "dealer": dealer, "first": first, "discard_top": card_json(pack[dealt]),
        "stock_size": len(state.stock), "hand_size": HAND_SIZE,
        "rungs": [state.rung(s) for s in range(SEATS)],
    }, tuple((s, {"hand": [card_json(c) for c in hands[s]]}) for s in range(SEATS)))
    return state, [event]


def apply(state: GameState, seat: int, action: Action) -> tuple[GameState, list[Event]]:
    s = situation(state, seat)
    # Each action makes one new state (and a deal's end or a rebuild one more): the bots'
    # play-outs apply thousands of actions a decision.
    actions = state.actions + 1
    if isinstance(action, Draw):
        check_draw(s, action)
        return _draw(state, action, actions)
    if isinstance(action, LayDown):
        return _lay_down(state, action, check_lay_down(s, action), actions)
    if isinstance(action, LayOff):
        return _lay_off(state, action, check_lay_off(s, action), actions)
    check_discard(s, action)
    return _discard(state, action, actions)


def _set(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def _draw(state: GameState, action: Draw, actions: int):
    seat = state.turn
    hand = state.hands[seat]
    if action.source == DISCARD_PILE:
        card = state.discard_pile[-1]
        state = evolve(state, discard_pile=state.discard_pile[:-1],
                       pile_log=state.pile_log + ((seat, card, True),),
                       hands=_set(state.hands, seat, hand + (card,)), phase=PLAY,
                       taken_from_discard=card, actions=actions)
        event = Event("drew", {"seat": seat, "from": action.source, "card": card_json(card),
                               "hand_size": len(hand) + 1})
    else:
        card = state.stock[-1]
        state = evolve(state, stock=state.stock[:-1],
                       hands=_set(state.hands, seat, hand + (card,)), phase=PLAY,
                       taken_from_discard=None, actions=actions)
        event = Event("drew", {"seat": seat, "from": action.source, "hand_size": len(hand) + 1},
                      ((seat, {"card": card_json(card)}),))
    return state, [event]


def _without(hand: tuple[int, ...], cards) -> tuple[int, ...]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return tuple(rest)


def _lay_down(state: GameState, action: LayDown, melds, actions: int):
    seat = state.turn
    first_id = len(state.table)
    state = evolve(
        state, actions=actions,
        hands=_set(state.hands, seat, _without(state.hands[seat],
                                               [c for m in action.melds for c in m])),
        table=state.table + tuple(TableMeld(seat, m) for m in melds),
        laid_down_turn=_set(state.laid_down_turn, seat, state.turn_number),
        climbed=_set(state.climbed, seat, state.climbed[seat] + 1))  # R12: climb at once
    event = Event("laid_down", {
        "seat": seat, "melds": [state.table[i].to_json(i)
                                for i in range(first_id, len(state.table))],
        "climbed": state.climbed[seat], "hand_size": len(state.hands[seat])})
    return _after_play(state, [event])


def _lay_off(state: GameState, action: LayOff, meld, actions: int):
    seat = state.turn
    table = _set(state.table, action.meld, TableMeld(state.table[action.meld].owner, meld))
    state = evolve(state, table=table, actions=actions,
                   hands=_set(state.hands, seat, _without(state.hands[seat], [action.card])))
    event = Event("laid_off", {"seat": seat, "card": card_json(action.card),
                               "meld": table[action.meld].to_json(action.meld),
                               "hand_size": len(state.hands[seat])})
    return _after_play(state, [event])


def _after_play(state: GameState, events: list[Event]):
    """R19: a player who melds or lays off every card has gone out."""
    if not state.hands[state.turn]:
        return _end_deal(state, events, went_out=state.turn)
    return state, events


def _discard(state: GameState, action: Discard, actions: int):
    seat = state.turn
    hand = _without(state.hands[seat], [action.card])
    common = dict(hands=_set(state.hands, seat, hand),
                  discard_pile=state.discard_pile + (action.card,),
                  pile_log=state.pile_log + ((seat, action.card, False),), actions=actions)
    discarded = {"seat": seat, "card": card_json(action.card), "hand_size": len(hand)}
    if not hand:
        return _end_deal(evolve(state, **common), [Event("discarded", discarded)], went_out=seat)
    # The next player's turn, in the same new state; the event names it (clients follow the
    # engine's turn order rather than work it out).
    turn = (seat + 1) % SEATS
    events = [Event("discarded", {**discarded, "turn": turn})]
    state = evolve(state, **common, turn=turn, phase=DRAW,
                   turn_number=state.turn_number + 1, taken_from_discard=None)
    if state.stock:
        return state, events
    return _rebuild_stock(state, events)


def _rebuild_stock(state: GameState, events: list[Event]):
    """R20: shuffle all but the top discard with derive(seed, "reshuffle", deal, k) into a new
    stock, the shuffled list's first card on top; a third time, or with nothing to shuffle,
    the deal ends with nobody out."""
    under_top = state.discard_pile[:-1]
    if state.rebuilds >= MAX_REBUILDS or not under_top:
        return _end_deal(state, events, went_out=None)
    rebuilds = state.rebuilds + 1
    shuffled = Stream.of(state.seed, "reshuffle", state.deal, rebuilds).shuffle(list(under_top))
    state = evolve(state, stock=tuple(reversed(shuffled)),
                   discard_pile=state.discard_pile[-1:], rebuilds=rebuilds)
    return state, events + [Event("stock_rebuilt", {"rebuild": rebuilds,
                                                    "stock_size": len(state.stock)})]


def _end_deal(state: GameState, events: list[Event], went_out: int | None):
    """R21: every card left in hand scores its penalty; then the next deal, or R22 the end."""
    deal_points = tuple(hand_penalty(h) for h in state.hands)
    result = DealResult(
        deal=state.deal, dealer=state.dealer,
        ending=WENT_OUT if went_out is not None else STOCK_EXHAUSTED, went_out=went_out,
        penalties=deal_points,
        climbed=tuple(t is not None for t in state.laid_down_turn))
    totals = tuple(a + b for a, b in zip(state.penalties, deal_points, strict=True))
    state = evolve(state, penalties=totals,
                   history=state.history + (result,), taken_from_discard=None)
    events = events + [Event("deal_ended", {**result.to_json(),
                                            "totals": list(state.penalties),
                                            "contracts": list(state.climbed)})]
    if state.deal == DEALS:
        state = evolve(state, phase=FINISHED)
        return state, events + [Event("game_finished", {"result": result_json(state)})]
    state, started = _deal(state, state.deal + 1, (state.dealer + 1) % SEATS)
    return state, events + started


def places(contracts, penalties) -> list[int]:
    """R22: more contracts first, then fewer penalty points; equals share the place."""
    keys = [(-c, p) for c, p in zip(contracts, penalties, strict=True)]
    return [1 + sum(other < key for other in keys) for key in keys]


def result_json(state: GameState) -> list[dict]:
    """R23: each seat's contracts completed, penalty points and place."""
    ranks = places(state.climbed, state.penalties)
    return [{"seat": s, "contracts": state.climbed[s], "penalty": state.penalties[s],
             "place": ranks[s]} for s in range(SEATS)]


def replay(seed: str, actions) -> GameState:
    """Rebuild the exact state from the seed and the (seat, action) pairs applied to it."""
    state, _ = new_game(seed)
    for seat, action in actions:
        state, _ = apply(state, seat, action)
    return state
