"""Anything a client can send either parses to an action or raises IllegalAction, and an
illegal action leaves the game as it was."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction, action_from_json, apply, new_game

STATE, _ = new_game("bad-input")
SNAPSHOT = STATE.to_json()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.text(max_size=6)
    | st.sampled_from(["7H.1", "JK.2", "stock", "discard", "low", "high", "draw", "lay_off",
                       "lay_down", "discard"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["type", "from", "card", "meld", "melds", "end", "x"]), inner,
        max_size=5),
    max_leaves=20)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(data=json_values, seat=st.integers(0, 3))
def test_any_json_is_an_action_or_a_clean_refusal(data, seat):
    try:
        action = action_from_json(data)
        apply(STATE, seat, action)
    except IllegalAction as error:
        assert error.code and error.message
    assert STATE.to_json() == SNAPSHOT
