"""The post-game review of one decision (games.bots.postgame, issue 41): the expert's move is the
hint's, moves that agree and moves that differ are told apart (a discard, a draw, a missed
lay-down or lay-off), forced moves are no decision, and the verdict is a function of the
person's view alone: cards they could not see change nothing.
"""

from __future__ import annotations

import pytest

from games.bots import advise, review, rng_for
from games.bots.postgame import agree
from games.engine import Discard, Draw, LayDown, apply, player_view
from games.engine.actions import DISCARD_PILE, STOCK
from games.engine.state import evolve
from tests.bots.helpers import card, play, scene

PERSON = 0
OTHERS = ["2S 3S 4S 5S 6S 8H 8D 10C QC AH", "3H 4H.2 6H 10H QH 2H 3C 5C 6C 8C",
          "AD 3D 5D 6D 8S 10S JS QS"]


def rung_one(hand: str, discard: str, stock: str = "AC KD", **kwargs):
    """Rung 1 (two groups of three), the person to draw."""
    return scene([hand, *OTHERS], stock=stock, discard=discard, **kwargs)


def verdict_at(state, played):
    view = player_view(state, PERSON)
    return review(view, played, rng_for(state.seed, PERSON, state.actions))


def expert_at(state):
    view = player_view(state, PERSON)
    return advise(view, rng_for(state.seed, PERSON, state.actions))


# Drew the AC: the hand holds two groups and five loose cards, the KS the dearest of them.
AFTER_DRAW = play(rung_one("7H 7S 7D 9C 9S 9D 2D 4C 5H KS", "8C"), (PERSON, Draw(STOCK)))


def test_the_expert_is_the_hints_and_the_same_card_agrees():
    verdict = verdict_at(AFTER_DRAW, expert_at(AFTER_DRAW).action)
    assert verdict.advice == expert_at(AFTER_DRAW)
    assert verdict.agrees and not verdict.forced
    assert verdict.kind is None and verdict.cost is None


def test_a_different_discard_is_marked_with_the_experts_card_and_reason():
    expert = expert_at(AFTER_DRAW).action
    assert isinstance(expert, LayDown)  # it holds its contract: laying down comes first
    laid = play(AFTER_DRAW, (PERSON, expert))
    expert = expert_at(laid).action
    assert isinstance(expert, Discard)
    other = next(c for c in player_view(laid, PERSON).legal.discards
                 if c != expert.card and c != card("AC"))
    verdict = verdict_at(laid, Discard(other))
    assert not verdict.agrees and verdict.kind == "discard"
    assert verdict.advice.action == expert and verdict.advice.reason.startswith("discard")
    assert -1 <= verdict.cost <= 1


def test_a_missed_lay_down_is_marked_as_one():
    """The hand holds both groups: discarding instead of laying down is a missed lay-down."""
    verdict = verdict_at(AFTER_DRAW, Discard(card("KS")))
    assert not verdict.agrees and verdict.kind == "lay_down"
    assert verdict.advice.reason == "lay_down_contract"
    assert verdict.cost is not None


def test_a_missed_lay_off_is_marked_as_one():
    """Laid down on an earlier turn, the person took the 9H that fits the nines, then threw it
    rather than laying it off."""
    state = scene(["7C 9H 3D", *OTHERS], table=[(0, "7H 7S 7D"), (0, "9C 9S 9D")],
                  stock="AC KH", discard="QD", climbed=(1, 0, 0, 0),
                  laid_down_turn=(2, None, None, None))
    state = play(state, (PERSON, Draw(STOCK)))
    assert expert_at(state).reason == "lay_off_card"
    verdict = verdict_at(state, Discard(card("9H")))
    assert not verdict.agrees and verdict.kind == "lay_off"


def test_a_different_draw_is_marked_and_the_same_choice_agrees():
    """The top discard completes the contract: drawing blind is marked; the same pile agrees."""
    state = rung_one("7H 7S 7D 9C 9D 2D 4C 5H JD KS", "8C 9S")
    assert expert_at(state).action == Draw(DISCARD_PILE)
    missed = verdict_at(state, Draw(STOCK))
    assert (missed.agrees, missed.kind) == (False, "draw")
    assert missed.advice.reason == "take_to_complete_contract"
    assert verdict_at(state, Draw(DISCARD_PILE)).agrees
    # Two decks: a card's twin is the same choice.
    assert agree(Discard(card("KS")), Discard(card("KS.2")))
    assert not agree(Discard(card("KS")), Discard(card("KH")))


def test_a_forced_move_is_no_decision():
    """Laid down, holding the twin of the top discard's face: the pile may not be taken."""
    state = scene(["4D", *OTHERS], table=[(0, "7H 7S 7D"), (0, "9C 9S 9D")], stock="AC KH",
                  discard="4D", climbed=(1, 0, 0, 0), laid_down_turn=(2, None, None, None))
    assert player_view(state, PERSON).legal.draw == (STOCK,)
    verdict = verdict_at(state, Draw(STOCK))
    assert verdict.forced and verdict.agrees


def hidden_cards_shuffled(state):
    """The same moment with every card the person cannot see dealt otherwise among the other
    hands and the stock (each to its size)."""
    hidden = [c for s in range(1, 4) for c in state.hands[s]] + list(state.stock)
    hidden.reverse()
    hands, start = [state.hands[0]], 0
    for s in range(1, 4):
        size = len(state.hands[s])
        hands.append(tuple(hidden[start:start + size]))
        start += size
    return evolve(state, hands=tuple(hands), stock=tuple(hidden[start:]))


@pytest.mark.parametrize("played", [Discard(card("KS")), Discard(card("2D"))])
def test_the_verdict_reads_only_the_persons_view(played):
    """Cards the person could not see (the other hands, the stock's order) change nothing: not
    the expert's move, its reason, nor the cost it puts on the person's move."""
    moment = apply(AFTER_DRAW, PERSON, expert_at(AFTER_DRAW).action)[0]  # laid down: searched
    other = hidden_cards_shuffled(moment)
    assert other.hands[1:] != moment.hands[1:] and other.stock != moment.stock
    assert player_view(other, PERSON) == player_view(moment, PERSON)
    assert verdict_at(other, played) == verdict_at(moment, played)


def test_the_review_refuses_the_game_state():
    with pytest.raises(TypeError):
        review(AFTER_DRAW, Draw(STOCK), rng_for(AFTER_DRAW.seed, PERSON, AFTER_DRAW.actions))
