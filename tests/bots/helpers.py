"""Readable scenes for bot tests: deals in progress with chosen cards, played on by the engine."""

from __future__ import annotations

from games.bots import STRATEGIES, Memory, rng_for
from games.engine import (
    Discard,
    Draw,
    GameState,
    TableMeld,
    apply,
    cards_from_text,
    new_game,
    player_view,
)
from games.engine.melds import read_meld
from games.engine.state import DRAW, evolve

hand = cards_from_text


def card(text: str) -> int:
    """One card: ``card("7H")`` is 7H.1, ``card("7H.2")`` its twin, ``card("JK")`` JK.1."""
    (found,) = cards_from_text(text)
    return found


def scene(hands, *, stock="", discard="2C", table=(), turn=0, climbed=(0, 0, 0, 0),
          laid_down_turn=(None, None, None, None), turn_number=5, seed="scene") -> GameState:
    """A deal in progress holding exactly these cards, in the draw phase of ``turn``.

    ``hands`` are four card strings, ``stock`` is listed top first, ``discard`` bottom first,
    ``table`` holds (owner, "cards") pairs. Copies of a face are shared out in the order hands,
    table, discard, stock. The discard pile's public log shows its cards discarded in turn
    (the first as the upcard), as a real deal's would."""
    texts = [*hands, *(cards for _, cards in table), discard, stock]
    cards = cards_from_text(" ".join(texts))
    parts, start = [], 0
    for text in texts:
        parts.append(cards[start:start + len(text.split())])
        start += len(text.split())
    dealer = (turn - 1) % 4
    base, _ = new_game(seed)
    return evolve(
        base, dealer=dealer, turn=turn, phase=DRAW, hands=tuple(parts[:4]),
        stock=tuple(reversed(parts[-1])), discard_pile=parts[-2],
        table=tuple(TableMeld(owner, read_meld(melded))
                    for (owner, _), melded in zip(table, parts[4:-2], strict=True)),
        climbed=tuple(climbed), laid_down_turn=tuple(laid_down_turn), turn_number=turn_number,
        pile_log=tuple((dealer, c, False) for c in parts[-2]))


def play(state: GameState, *moves) -> GameState:
    """Apply (seat, action) moves with the engine."""
    for seat, action in moves:
        state, _ = apply(state, seat, action)
    return state


def turns(state: GameState, *moves) -> GameState:
    """Whole turns as (seat, source, thrown): draw from "stock" or "discard", then discard
    ``thrown``, or with None the card just drawn."""
    for seat, source, thrown in moves:
        state, _ = apply(state, seat, Draw(source))
        card_thrown = state.hands[seat][-1] if thrown is None else card(thrown)
        state, _ = apply(state, seat, Discard(card_thrown))
    return state


def decide(level: str, state: GameState, seat: int | None = None, strategy=None):
    """What ``level`` (or ``strategy``) does as ``seat`` (default: whose turn it is)."""
    seat = state.turn if seat is None else seat
    view = player_view(state, seat)
    chooser = strategy or STRATEGIES[level]
    return chooser(view, Memory.from_view(view), rng_for(state.seed, seat, state.actions))
