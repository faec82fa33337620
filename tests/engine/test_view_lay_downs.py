"""The view's lay-downs (``legal.holds_contract`` and ``legal.lay_downs`` in
``PlayerView.to_json``, the GameView's): every one offered is legal, the first is the engine's
best, and they are searched only when the phase allows a lay-down."""

from games.engine import (
    FINISHED,
    LayDown,
    action_from_json,
    apply,
    best_lay_down,
    holds_contract,
    new_game,
    player_view,
)
from games.engine.rng import Stream
from games.engine.state import PLAY

from .helpers import rigged
from .test_playouts import random_action

GAMES = 1


def test_every_lay_down_the_view_offers_is_legal_and_the_first_is_the_best():
    offered = 0
    for game in range(GAMES):
        seed = f"view-lay-downs-{game}"
        state, _ = new_game(seed)
        rng = Stream.of(seed, "playout")
        while state.phase != FINISHED:
            seat = state.turn
            view = player_view(state, seat)
            legal = view.to_json()["legal"]
            me = view.me
            if view.legal.lay_down:
                assert legal["holds_contract"] == holds_contract(view.hand, me.contract)
            else:
                assert (legal["holds_contract"], legal["lay_downs"]) == (None, [])
            best = best_lay_down(view.hand, me.contract, view.situation.forbidden_face) \
                if view.legal.lay_down else None
            if best is not None:
                assert legal["lay_downs"][0] == LayDown(tuple(m.cards for m in best[0])).to_json()
            for option in legal["lay_downs"]:
                apply(state, seat, action_from_json(option))  # raises if it were illegal
                offered += 1
            assert len(legal["lay_downs"]) <= 10
            state, _ = apply(state, seat, random_action(view, rng))
    assert offered > 5


def test_nothing_is_searched_before_the_draw_and_the_lay_downs_come_after_it():
    state = rigged(["7S 7H 7D 9C 9D 9H 2S 4D 6C JH QS", "2C 3C", "2D 3D", "2H 3H"],
                   stock="KC KD", discard="5S")
    legal = player_view(state, 0).to_json()["legal"]
    assert legal["holds_contract"] is None and legal["lay_downs"] == []
    played, _ = apply(state, 0, action_from_json({"type": "draw", "from": "stock"}))
    assert played.phase == PLAY
    legal = player_view(played, 0).to_json()["legal"]
    assert legal["may_lay_down"] and legal["holds_contract"] and legal["lay_downs"]
    assert all(sorted(len(m) for m in option["melds"]) == [3, 3]
               for option in legal["lay_downs"])


def test_a_hand_whose_every_lay_down_r17_refuses_holds_the_contract_but_is_offered_none():
    # Took the 5S from the pile: laying down 7s and 9s would leave only 5S and its twin.
    state = rigged(["7S 7H 7D 9C 9D 9H 5S 5S", "2C 3C", "2D 3D", "2H 3H"],
                   stock="KC KD", discard="4D", taken="5S", phase=PLAY)
    legal = player_view(state, 0).to_json()["legal"]
    assert legal["may_lay_down"] and legal["holds_contract"] is True and legal["lay_downs"] == []
