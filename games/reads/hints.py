"""The practice hint: what the server's expert player would do in the asker's seat now.

Reads only. The expert is the ``hard`` level, handed the seat's PlayerView as any bot is
(R25: it knows nothing the person could not), with the chance a bot in that seat would have
at this point of the game, ``derive(seed, "bot", seat, actions)`` (R24): so a hint is the
same every time it is asked for the same version, and equals ``choose("hard", view, rng)``.

Cost: while nobody has laid down the expert decides in well under a millisecond; afterwards
``hard`` may search a fixed number of imagined worlds (games.bots.hard: at most 8 worlds of 3
choices, a round of the table each), about 100 ms at worst. The endpoint is throttled per
player (the ``hints`` scope) so that this stays bounded.
"""

from __future__ import annotations

import logging

from games import bots
from games.bots import Advice, clear_memo, rng_for
from games.engine import LayDown, player_view
from games.engine.cards import card_id
from games.services import Seated
from games.web.errors import Refusal

logger = logging.getLogger(__name__)


class HintsForbidden(Refusal):
    """Hints are for practice games played alone: a ranked game (the daily) refuses them, and
    so does a game where several people sit (``shared``)."""

    status, code, message = 403, "no_hints_in_ranked_games", "Hints are for practice games only."

    @classmethod
    def shared(cls) -> HintsForbidden:
        return cls(code="no_hints_at_shared_games",
                   message="Hints are off where several people play together.")


class NoAdvice(Refusal):
    """The expert failed on this view (a bug in the bots, logged): no hint this time. The game
    is unchanged; the bots' own turns have a fallback (games.services), a hint has none."""

    status, code = 503, "hint_unavailable"
    message = "No hint this time, sorry: your game is unchanged."


def hint(seated: Seated) -> dict:
    """The expert's move for the asker's seat now (``action``, as ``POST /actions`` takes it, or
    None when there is nothing to do), its ``reason`` (code and English sentence), the
    expert's lay-down again as ``lay_down`` (None unless the move is a lay-down) and the
    lay-offs open now (R15)."""
    game = seated.game
    if game.ranked:
        raise HintsForbidden()
    if len(seated.seating.people) > 1:
        raise HintsForbidden.shared()
    state = game.load_state()
    view = player_view(state, seated.seat)
    try:
        advice = bots.advise(view, rng_for(game.seed, seated.seat, state.actions))
    except Exception as exc:
        logger.exception("The expert failed in game %s at version %s", game.public_id,
                         game.version)
        raise NoAdvice() from exc
    finally:
        clear_memo()  # the next request is another game (games.bots.outlook)
    return {
        "version": game.version,
        "action": None if advice.action is None else advice.action.to_json(),
        "reason": {"code": advice.reason, "message": advice.message},
        "lay_down": _lay_down(advice),
        "lay_off": view.legal.to_json()["lay_off"],
    }


def _lay_down(advice: Advice) -> list[list[str]] | None:
    if not isinstance(advice.action, LayDown):
        return None
    return [[card_id(c) for c in meld] for meld in advice.action.melds]
