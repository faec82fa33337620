"""Random: a uniformly random legal action, the baseline every level must beat.

Laying the contract down counts as one action, whichever melds it could use (it takes the
engine's best_lay_down), so that it is as likely as any single discard or lay-off.
"""

from __future__ import annotations

from games.engine.actions import Action, Discard, Draw, LayDown, LayOff
from games.engine.melds import best_lay_down
from games.engine.rng import Stream
from games.engine.state import DRAW
from games.engine.view import PlayerView

from .memory import Memory


def choose(view: PlayerView, memory: Memory, rng: Stream) -> Action:
    legal = view.legal
    if view.phase == DRAW:
        return Draw(rng.choice(legal.draw))
    options: list[Action] = [Discard(c) for c in legal.discards]
    options += [LayOff(*option) for option in legal.lay_offs]
    if legal.lay_down:
        found = best_lay_down(view.hand, view.me.contract, view.situation.forbidden_face)
        if found is not None:
            options.append(LayDown(tuple(m.cards for m in found[0])))
    return rng.choice(options)
