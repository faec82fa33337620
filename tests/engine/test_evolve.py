"""games.engine.state.evolve: dataclasses.replace for GameState, cheaper, and as strict."""

from dataclasses import replace

import pytest

from games.engine import new_game
from games.engine.state import evolve


def test_evolve_makes_what_replace_makes():
    state, _ = new_game("evolve")
    changed = evolve(state, turn=(state.turn + 1) % 4, actions=7)
    assert changed == replace(state, turn=(state.turn + 1) % 4, actions=7)
    assert changed is not state and state.actions == 0  # the original is untouched


def test_evolve_refuses_a_field_the_state_does_not_have():
    state, _ = new_game("evolve")
    with pytest.raises(TypeError):
        evolve(state, tunr=1)
