"""Computer players (docs/bots.md; docs/rules.md R24, R25).

``choose(level, view, rng) -> Action`` is the whole contract with the rest of the system:

- ``view`` is the :class:`~games.engine.view.PlayerView` of the bot's seat, the same door a
  person's browser goes through. A bot is never handed the game state, so it cannot peek: no
  other hand, no stock order, no seed (R25). Its memory of the deal's public events (discards,
  cards taken from the pile) is rebuilt from the view by :meth:`Memory.from_view`, so the server
  need keep nothing between requests.
- ``rng`` is the only source of chance, derived from the game's seed with :func:`rng_for` (R24),
  so the same seed and the same actions give the same choices.

Levels: ``easy``, ``normal``, ``hard`` (see their modules); ``random`` is a baseline for
tournaments.

``advise(view, rng)`` is the expert's (``hard``'s) move for a person's view, with a reason code
(:mod:`.advice`): the practice hint.

``review(view, played, rng)`` is the post-game review of one move of a person against the
expert's (:mod:`.postgame`): the expert's advice, whether they agree, and what the move cost.

``clear_memo()`` forgets what the bots memoised in this thread: the server calls it after each
request's bot turns, since the next request is another game (games.bots.memo says why).
This module is the bots' public interface: the services import nothing else from games.bots.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.compiled import compiled_folder

# The compiled build, when there is an up-to-date one (games/engine/compiled.py), is found first.
__path__[:0] = compiled_folder(__name__)

from games.engine.actions import Action
from games.engine.rng import Stream
from games.engine.view import PlayerView

from . import baseline, easy, hard, normal
from .advice import REASON_CODES, REASONS, Advice, advise
from .memo import clear_memo
from .memory import Memory
from .postgame import Verdict, review

__all__ = ["LEVELS", "REASONS", "REASON_CODES", "STRATEGIES", "Advice", "Memory", "Strategy",
           "Verdict", "advise", "choose", "clear_memo", "review", "rng_for"]

LEVELS = ("easy", "normal", "hard")

Strategy = Callable[[PlayerView, Memory, Stream], Action]
STRATEGIES: dict[str, Strategy] = {
    "random": baseline.choose,
    "easy": easy.choose,
    "normal": normal.choose,
    "hard": hard.choose,
}


def rng_for(seed: str, seat: int, action_index: int) -> Stream:
    """The stream for a bot's choice at this point of the game: derive(seed, "bot", seat,
    action_index), action_index counting the actions applied since the game began (R24)."""
    return Stream.of(seed, "bot", seat, action_index)


def choose(level: str, view: PlayerView, rng: Stream) -> Action:
    """The action the ``level`` bot takes in the seat and moment ``view`` shows."""
    if not isinstance(view, PlayerView):
        raise TypeError("a computer player sees a PlayerView, never the game state (R25)")
    return STRATEGIES[level](view, Memory.from_view(view), rng)

