"""A bot sees what a person in its seat could see, and nothing else (R25).

By construction: ``choose`` takes a PlayerView, never the state, and the view holds no other
hand, no stock order and no seed. Shown here: the view's fields are the public ones, and a bot
chooses the same whatever the cards it cannot see.
"""

from dataclasses import fields

import pytest

from games.bots import STRATEGIES, Memory, choose, rng_for
from games.bots.hard import Hard
from games.engine import FINISHED, PlayerView, apply, new_game, player_view
from games.engine.rng import Stream
from games.engine.state import evolve

QUICK = {**STRATEGIES, "hard": Hard(worlds=2, horizon=2, candidates=2)}
PUBLIC_FIELDS = {
    "seat", "deal", "dealer", "turn", "phase", "turn_number", "hand", "table", "discard_top",
    "discard_size", "stock_size", "rebuilds", "players", "taken_from_discard", "laid_down_turn",
    "history", "pile_log",
    # The seat's situation and legal moves, worked out from the fields above at the first look.
    "_situation", "_legal",
}


def test_a_bot_refuses_the_game_state():
    state, _ = new_game("peek")
    with pytest.raises(TypeError):
        choose("normal", state, rng_for("peek", state.turn, 0))


def test_the_view_holds_only_public_fields_and_the_seats_own_hand():
    # A new field on PlayerView must be judged public before the bots may see it.
    assert {f.name for f in fields(PlayerView)} == PUBLIC_FIELDS
    state, _ = new_game("fields")
    view = player_view(state, state.turn)
    others = {c for seat, cards in enumerate(state.hands) if seat != view.seat for c in cards}
    visible = set(view.hand) | {view.discard_top} | {c for _, c, _ in view.pile_log}
    assert not others & visible
    assert not set(state.stock) & visible


def hidden_cards_dealt_afresh(state, seat: int, rng: Stream):
    """The state with every card ``seat`` cannot know shuffled among the other hands (each
    keeping its size) and the stock. Cards that crossed the discard pile in public stay put."""
    public = {card for _, card, _ in state.pile_log}
    hidden = [c for s, cards in enumerate(state.hands) if s != seat for c in cards
              if c not in public] + [c for c in state.stock if c not in public]
    rng.shuffle(hidden)
    hands = []
    for s, cards in enumerate(state.hands):
        if s == seat:
            hands.append(cards)
            continue
        kept = tuple(c for c in cards if c in public)
        dealt = len(cards) - len(kept)
        hands.append(kept + tuple(hidden[:dealt]))
        hidden = hidden[dealt:]
    stock = tuple(c if c in public else hidden.pop() for c in state.stock)
    return evolve(state, hands=tuple(hands), stock=stock)


@pytest.mark.parametrize("level", sorted(QUICK))
def test_a_bot_chooses_the_same_whatever_the_cards_it_cannot_see(level):
    state, _ = new_game(f"unseen-{level}")
    compared = 0
    while state.phase != FINISHED and compared < 60:
        seat = state.turn
        other = hidden_cards_dealt_afresh(state, seat, Stream.of("shuffle", state.actions))
        assert other.hands != state.hands or state.actions == 0
        view, other_view = player_view(state, seat), player_view(other, seat)
        assert other_view == view
        assert Memory.from_view(other_view) == Memory.from_view(view)
        rng, same_rng = (rng_for(state.seed, seat, state.actions) for _ in range(2))
        action = QUICK[level](view, Memory.from_view(view), rng)
        assert QUICK[level](other_view, Memory.from_view(other_view), same_rng) == action
        state, _ = apply(state, seat, action)
        compared += 1
    assert compared == 60
