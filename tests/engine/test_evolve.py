"""games.engine.state.evolve: the named tuple's ``_replace`` for GameState, as strict as
``dataclasses.replace`` was."""

import pytest

from games.engine import GameState, new_game
from games.engine.state import evolve


def test_evolve_makes_the_state_with_those_fields_changed():
    state, _ = new_game("evolve")
    changed = evolve(state, turn=(state.turn + 1) % 4, actions=7)
    fields = {**state._asdict(), "turn": (state.turn + 1) % 4, "actions": 7}
    assert type(changed) is GameState and changed == GameState(**fields)
    assert changed is not state and state.actions == 0  # the original is untouched


def test_evolve_refuses_a_field_the_state_does_not_have():
    state, _ = new_game("evolve")
    with pytest.raises(ValueError, match="tunr"):
        evolve(state, tunr=1)
