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
    discards, lay_offs = legal.discards, legal.lay_offs
    found = None
    if legal.lay_down:
        found = best_lay_down(view.hand, view.me.contract, view.situation.forbidden_face)
    # rng.choice over the discards, the lay-offs and the lay-down in that order, but only the
    # chosen action is made (every play of a four-random game would make a dozen).
    pick = rng.below(len(discards) + len(lay_offs) + (found is not None))
    if pick < len(discards):
        return Discard(discards[pick])
    pick -= len(discards)
    if pick < len(lay_offs):
        return LayOff(*lay_offs[pick])
    return LayDown(tuple(m.cards for m in found[0]))
