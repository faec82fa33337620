"""The random player makes only the action it draws: the same as a uniform choice over every
legal option listed (discards, lay-offs, the best lay-down), with the same stream."""

from games.bots import Memory, baseline, rng_for
from games.engine import FINISHED, Discard, LayDown, LayOff, apply, new_game, player_view
from games.engine.melds import best_lay_down
from games.engine.state import DRAW


def _chosen_from_every_option(view, rng):
    legal = view.legal
    options = [Discard(c) for c in legal.discards]
    options += [LayOff(*option) for option in legal.lay_offs]
    if legal.lay_down:
        found = best_lay_down(view.hand, view.me.contract, view.situation.forbidden_face)
        if found is not None:
            options.append(LayDown(tuple(m.cards for m in found[0])))
    return rng.choice(options)


def test_the_random_player_draws_as_a_choice_over_every_option():
    for seed in ("baseline-1", "baseline-2"):
        state, _ = new_game(seed)
        while state.phase != FINISHED:
            seat = state.turn
            view = player_view(state, seat)
            action = baseline.choose(view, Memory.from_view(view), rng_for(seed, seat,
                                                                           state.actions))
            if view.phase != DRAW:
                assert action == _chosen_from_every_option(view, rng_for(seed, seat,
                                                                         state.actions))
            state, _ = apply(state, seat, action)
