"""The post-game review of one decision: a person's move against the expert's, on their view.

:func:`review` is handed what the person saw when they decided (their
:class:`~games.engine.view.PlayerView`), the move they made and the rng the hint would have
had at that moment (R24): so the expert's move is exactly the hint's (:func:`.advice.advise`,
the ``hard`` level), and like the hint it knows nothing the person could not (R25).

- A *forced* move is not a decision: a draw when the discard pile may not be taken, or a
  discard when every card that may go has one face and nothing can be laid off or down.
- The moves *agree* when they are of one kind and the same where it matters: the same pile;
  the same card (by face: two decks' twins are one choice); any lay-down (the arrangement is
  a detail: the expert lays down whenever the hand holds the contract); any lay-off (the
  expert lays off every card it can, so the order is a detail).
- Where they differ, ``kind`` names the expert's move ("draw", "discard", "lay_down",
  "lay_off": a missed lay-down or lay-off), and ``cost`` is what the person's move gave up by
  the expert's own measure: the mean difference of hard's chance to win the game after each
  move, both played out in the same :data:`.hard.WORLDS` imagined worlds consistent with the
  view (:meth:`.hard.Hard.gain`). It can be below 0 where the worlds liked the person's move
  better: an estimate, never a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.actions import Action, Discard, Draw, LayDown, LayOff
from games.engine.cards import face_of
from games.engine.rng import Stream
from games.engine.state import DRAW
from games.engine.view import PlayerView

from . import hard
from .advice import Advice, advise
from .memory import Memory

KINDS = {Draw: "draw", Discard: "discard", LayDown: "lay_down", LayOff: "lay_off"}


@dataclass(frozen=True)
class Verdict:
    advice: Advice  # the expert's move and its reason, as the hint gives them
    forced: bool  # the person had no choice: no decision to count
    agrees: bool
    kind: str | None = None  # where they differ: the expert's move's kind
    cost: float | None = None  # where they differ: the chance to win given up, by the expert


def review(view: PlayerView, played: Action, rng: Stream) -> Verdict:
    """The expert's verdict on ``played``, the move made in ``view`` (a person's, at their
    turn), with ``rng`` the bots' stream for that seat and moment (``rng_for``)."""
    if not isinstance(view, PlayerView):
        raise TypeError("the review sees the person's PlayerView, never the game state (R25)")
    advice = advise(view, rng)
    expert = advice.action
    if expert is None:
        raise ValueError("a move reviewed where the seat had nothing to do")
    forced = _forced(view, expert)
    if forced or agree(expert, played):
        return Verdict(advice, forced, agrees=True)
    # The worlds continue the same stream: the whole review is a function of (view, rng).
    cost = hard.choose.gain(view, Memory.from_view(view), rng, expert, played)
    return Verdict(advice, forced, agrees=False, kind=KINDS[type(expert)], cost=cost)


def agree(expert: Action, played: Action) -> bool:
    if type(expert) is not type(played):
        return False
    if isinstance(played, Draw):
        return expert.source == played.source
    if isinstance(played, Discard):
        return face_of(expert.card) == face_of(played.card)
    return True


def _forced(view: PlayerView, expert: Action) -> bool:
    legal = view.legal
    if view.phase == DRAW:
        return len(legal.draw) == 1
    return (isinstance(expert, Discard) and not legal.lay_offs
            and len({face_of(c) for c in legal.discards}) == 1)
