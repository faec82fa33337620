"""Seeded random playouts: whole ten-deal games of random legal players, with the invariants
checked after every action."""

import json

import pytest

from games.engine import (
    FINISHED,
    Discard,
    Draw,
    GameState,
    LayDown,
    LayOff,
    apply,
    best_lay_down,
    new_game,
    parse_card,
    player_view,
    read_meld,
    replay,
)
from games.engine.cards import PACK
from games.engine.rng import Stream

from .helpers import all_cards

GAMES = 200
QUICK_GAMES = 10  # the quick lane's share (the rest are marked slow)


def random_action(view, rng):
    """A uniformly random legal action, except that a contract in hand is always laid down
    (so that deals end the ways real ones do)."""
    legal = view.legal
    if legal.draw:
        return Draw(rng.choice(legal.draw))
    if legal.lay_down:
        found = best_lay_down(view.hand, view.me.contract, view.situation.forbidden_face)
        if found:
            return LayDown(tuple(m.cards for m in found[0]))
    options = [Discard(c) for c in legal.discards] + [LayOff(*o) for o in legal.lay_offs]
    return rng.choice(options)


def cards_in(data) -> set[int]:
    """Every card named (by its "id") anywhere in a JSON-able structure."""
    found = set()
    if isinstance(data, dict):
        if "id" in data and isinstance(data["id"], str):
            found.add(parse_card(data["id"]))
        for value in data.values():
            found |= cards_in(value)
    elif isinstance(data, list | tuple):
        for value in data:
            found |= cards_in(value)
    return found


def cards_in_view(view) -> set[int]:
    """Every card a PlayerView holds: its JSON form is built from exactly these fields."""
    cards = set(view.hand) | {card for t in view.table for card in t.meld.cards}
    cards |= {card for _, card, _ in view.pile_log}
    return cards | {c for c in (view.discard_top, view.taken_from_discard) if c is not None}


def unknown_to(seat: int, cards: set[int], *states: GameState) -> set[int]:
    """Those of ``cards`` that ``seat`` has not seen in any of ``states``: not in its hand,
    on the table, in the discard pile, nor moved through the pile in public."""
    for state in states:
        if not cards:
            return cards
        cards = cards - set(state.hands[seat]) - set(state.discard_pile)
        cards -= {card for t in state.table for card in t.meld.cards}
    for state in states:
        if cards:
            cards -= {card for _, card, _ in state.pile_log}
    return cards


def revealed(action) -> set[int]:
    """Cards an action shows the whole table."""
    if isinstance(action, LayDown):
        return {c for m in action.melds for c in m}
    if isinstance(action, (LayOff, Discard)):
        return {action.card}
    return set()


def told_by_events(before: GameState, events) -> tuple[list[int], int]:
    """The hand sizes and the turn a client reads from the events alone (the browser's
    animator does), starting from ``before``: nothing worked out by the rules."""
    sizes, turn = [len(h) for h in before.hands], before.turn
    for event in events:
        data = event.data
        if event.type == "deal_started":
            sizes, turn = [data["hand_size"]] * len(sizes), data["first"]
        elif "hand_size" in data:
            sizes[data["seat"]] = data["hand_size"]
        turn = data.get("turn", data["seat"] if event.type == "drew" else turn)
    return sizes, turn


def check_invariants(state: GameState, events, before: GameState, action):
    assert sorted(all_cards(state)) == list(PACK)
    if state.phase != FINISHED:
        assert told_by_events(before, events) == ([len(h) for h in state.hands], state.turn)
    for t in state.table:
        assert read_meld(t.meld.cards) == t.meld
    shown = revealed(action)
    for seat in range(4):
        size = len(state.hands[seat])
        expected = 11 if seat == state.turn and state.phase == "play" else 10
        assert size == expected if not state.has_laid_down(seat) else size <= expected
        seen = set().union(*(cards_in(e.for_seat(seat)) for e in events)) - shown
        assert not unknown_to(seat, seen, state, before), events
    view = player_view(state, state.turn)
    assert not unknown_to(state.turn, cards_in_view(view), state)
    assert {f for f in view.__slots__ if "seed" in f or "stock" == f or "hands" == f} == set()


def play(seed: str):
    state, events = new_game(seed)
    rng = Stream.of(seed, "playout")
    log = []
    while state.phase != FINISHED:
        seat = state.turn
        action = random_action(player_view(state, seat), rng)
        before = state
        state, events = apply(state, seat, action)
        log.append((seat, action))
        check_invariants(state, events, before, action)
        assert len(log) < 20_000, "the game must terminate"
    return state, log


@pytest.mark.parametrize("game", [
    game if game < QUICK_GAMES else pytest.param(game, marks=pytest.mark.slow)
    for game in range(GAMES)])
def test_a_random_game_keeps_every_invariant_and_replays(game):
    seed = f"playout-{game}"
    state, log = play(seed)
    assert len(state.history) == 10
    assert replay(seed, log) == state
    assert GameState.from_json(json.loads(json.dumps(state.to_json()))) == state
    final_view = player_view(state, 0).to_json()
    assert cards_in(final_view) <= cards_in_view(player_view(state, 0))
    assert seed not in json.dumps(final_view)
