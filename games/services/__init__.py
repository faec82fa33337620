"""The only code that writes games: start a game, act, run the bots, finish (docs/design.md,
"One action, from the click to the sockets"). What the person sees is read in games.reads.

One job a module, this package's names the callers' (each module's docstring says more):

- ``actions``: start a game, read it as a seat sees it, act in it (the pipeline below);
- ``turns``: turns a person does not play (the timer ran out, away, back, left for good);
- ``moves``: the bots' replies, the log, the snapshot and the result, under the caller's lock;
- ``seating``: who sits where, the game as one seat sees it, the refusals;
- ``publishing``: each seat's events on its own channel group, after commit;
- ``timers`` (the deadline as data), ``daily``, ``analysis`` (the post-game review).

Checks, then changes, in one transaction; events go out after commit.

``act(game_id, player, expected_version, action)``:

1. parse the action (anything malformed raises IllegalAction before any database work);
2. ``BEGIN``; lock the game row with ``SELECT ... FOR UPDATE`` (PostgreSQL; SQLite serialises
   writers on its own) and read its seats; a game the player does not sit at is simply not
   found;
3. check ``expected_version == game.version`` (else StaleVersion, carrying the current game);
4. apply the action for the player's seat to the snapshot (IllegalAction leaves everything
   unchanged: among others, it is not that seat's turn);
5. let the bots play while the seat to move is a computer player's, each choosing from its
   own PlayerView with the rng ``derive(seed, "bot", seat, action_index)`` (R24, R25), until
   a person is to move or the game is over;
6. append every action to the log (``GameAction``, unique per game and index: a second
   writer that somehow got past the lock would fail on the constraint and roll back), save
   the snapshot and the version, the result if finished, and send ``game_finished`` inside
   the transaction; ``COMMIT``;
7. ``on_commit``: publish the events to each person's seat, filtered for that seat (R25),
   on the seat's own channel group.

A game started alone seats its owner at ``SOLO_SEAT`` (0) and the bots at seats 1-3. The
version of a game is the number of actions applied; an event's ``v`` is the version right
after the action that produced it (0 for the deal of a new game).
"""

from games.services.actions import act, get_game, new_seed, start_game, start_game_together
from games.services.moves import ACTION_COLUMNS
from games.services.publishing import group_name, publish, seat_message
from games.services.seating import (
    SEATING_SQL,
    GameNotFound,
    ModeUnavailable,
    Person,
    Played,
    Seated,
    Seating,
    StaleVersion,
    TimedOut,
    seating_of,
)
from games.services.turns import come_back, leave_game, ready, time_out, time_out_overdue

__all__ = [
    "ACTION_COLUMNS", "SEATING_SQL", "GameNotFound", "ModeUnavailable", "Person", "Played",
    "Seated", "Seating", "StaleVersion", "TimedOut", "act", "come_back", "get_game",
    "group_name", "leave_game", "new_seed", "publish", "ready", "seat_message", "seating_of",
    "start_game", "start_game_together", "time_out", "time_out_overdue",
]
