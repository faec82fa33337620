"""The only code that writes games: start a game, act, run the bots, finish (docs/design.md,
"One action, from the click to the sockets"). What the person sees is read in games.reads.

Checks, then changes, in one transaction; events go out after commit.

``act(game_id, player, expected_version, action)``:

1. parse the action (anything malformed raises IllegalAction before any database work);
2. ``BEGIN``; lock the game row with ``SELECT ... FOR UPDATE`` (PostgreSQL; SQLite serialises
   writers on its own), filtered by owner, so someone else's game is simply not found;
3. check ``expected_version == game.version`` (else StaleVersion, carrying the current game);
4. apply the person's action to the snapshot (IllegalAction leaves everything unchanged);
5. let the bots play, each choosing from its own PlayerView with the rng
   ``derive(seed, "bot", seat, action_index)`` (R24, R25), until it is the person's turn
   again or the game is over;
6. append every action to the log (``GameAction``, unique per game and index: a second
   writer that somehow got past the lock would fail on the constraint and roll back), save
   the snapshot and the version, the result if finished, and send ``game_finished`` inside
   the transaction; ``COMMIT``;
7. ``on_commit``: publish the events, filtered for the person, to the game's channel group.

The person sits at seat 0 and the bots at seats 1-3 (R1). The version of a game is the
number of actions applied; an event's ``v`` is the version right after the action that
produced it (0 for the deal of a new game).
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from functools import partial

from django.db import transaction
from django.utils import timezone

from games import signals
from games.bots import LEVELS, choose, clear_memo, rng_for
from games.daily import day_has_ended
from games.engine import (
    DRAW,
    ENGINE_VERSION,
    FINISHED,
    STOCK,
    Action,
    Discard,
    Draw,
    Event,
    GameState,
    IllegalAction,
    action_from_json,
    apply,
    new_game,
    player_view,
    result_json,
)
from games.models import DailyDeal, Game, GameAction
from games.players.models import Player
from games.web.groups import group_send
from games.web.rows import insert_rows, insert_rows_and_update, select_row

logger = logging.getLogger(__name__)

PERSON = 0
ACTION_COLUMNS = ("game", "index", "seat", "action", "created_at")


class GameNotFound(Exception):
    """No such game, or not this player's (the two are never told apart)."""


class StaleVersion(Exception):
    """The client acted on an old version; ``game`` is the current one."""

    def __init__(self, game: Game, state: GameState):
        super().__init__("stale version")
        self.game = game
        self.state = state


class ModeUnavailable(Exception):
    pass


@dataclass
class Played:
    """The outcome of a write: the game, its state and the events the person may see."""

    game: Game
    state: GameState
    messages: list[dict] = field(default_factory=list)  # [{"v", "t", "d"}]


def group_name(game_public_id: str) -> str:
    return f"game.{game_public_id}"


# --- Games --------------------------------------------------------------------------------


def new_seed() -> str:
    """A practice game's secret random seed (tests fix it here)."""
    return secrets.token_hex(16)


def start_game(player: Player, mode: str = Game.PRACTICE, level: str = "normal", *,
               daily: DailyDeal | None = None, address_hash: str = "",
               device_hash: str = "") -> Played:
    """A new game: the deal, then the bots up to the person's first turn. A practice game gets
    a secret random seed; a daily (mode "daily", started by games.services.daily.start_daily,
    which passes the day's deal) plays the day's seed (R26)."""
    if (mode == Game.DAILY) != (daily is not None) or mode not in (Game.PRACTICE, Game.DAILY):
        raise ModeUnavailable(mode)
    if level not in LEVELS:
        raise ValueError(level)
    seed = daily.seed if daily is not None else new_seed()
    state, events = new_game(seed)
    messages = person_messages(events, 0)
    with transaction.atomic():
        game = Game(owner=player, mode=mode, level=level, seed=seed, daily=daily,
                    address_hash=address_hash, device_hash=device_hash,
                    engine_version=ENGINE_VERSION, version=0,
                    state={})
        steps: list[tuple[int, Action]] = []
        state = _run_bots(game, state, steps, messages)
        game.state = state.to_json()
        game.version = state.actions
        _finish_if_over(game, state)
        game.save(force_insert=True)
        _append(game, steps, first_index=0)
        _after_commit(game, messages)
    return Played(game, state, messages)


def get_game(player: Player, public_id: str) -> Game:
    game = select_row(Game, public_id=public_id, owner_id=player.pk)
    if game is None:
        raise GameNotFound(public_id)
    game.owner = player
    return game


def act(public_id: str, player: Player, expected_version: int, action_data) -> Played:
    """Apply the person's action and the bots' replies (see the module's docstring).

    Raises IllegalAction (malformed or against the rules), GameNotFound, StaleVersion."""
    action = action_from_json(action_data)
    with transaction.atomic():
        game = select_row(Game, for_update=True, public_id=public_id, owner_id=player.pk)
        if game is None:
            raise GameNotFound(public_id)
        game.owner = player
        if day_has_ended(game):  # R26: its seed is public now
            raise IllegalAction("daily_over", "R26", "This daily's day has ended (UTC): it "
                                                     "can no longer be played.")
        state = game.load_state()
        if expected_version != game.version:
            raise StaleVersion(game, state)
        first_index = game.version
        state, events = apply(state, PERSON, action)
        steps: list[tuple[int, Action]] = [(PERSON, action)]
        messages = person_messages(events, state.actions)
        state = _run_bots(game, state, steps, messages)
        game.state = state.to_json()
        game.version = state.actions
        game.updated_at = timezone.now()
        insert_rows_and_update(
            GameAction, ACTION_COLUMNS, _action_rows(game, steps, first_index, game.updated_at),
            game, ["state", "version", "updated_at", *_finish_if_over(game, state)])
        if game.finished:
            signals.game_finished.send(sender=Game, game=game)
        _after_commit(game, messages)
    return Played(game, state, messages)


def _run_bots(game: Game, state: GameState, steps: list, messages: list) -> GameState:
    """R25: each bot sees only its PlayerView; R24: its chance comes from the game's seed."""
    try:
        return _play_bot_turns(game, state, steps, messages)
    finally:
        clear_memo()  # the next request is another game


def _play_bot_turns(game: Game, state: GameState, steps: list, messages: list) -> GameState:
    while state.phase != FINISHED and state.turn != PERSON:
        seat = state.turn
        view = player_view(state, seat)
        try:
            action = choose(game.level, view, rng_for(game.seed, seat, state.actions))
            state, events = apply(state, seat, action)
        except Exception:  # a bot's bug must not wedge the person's game
            logger.exception("Bot %s at seat %s failed in game %s at action %s; "
                             "playing a safe fallback", game.level, seat, game.public_id,
                             state.actions)
            action = _fallback(state, seat)
            state, events = apply(state, seat, action)
        steps.append((seat, action))
        messages.extend(person_messages(events, state.actions))
    return state


def _fallback(state: GameState, seat: int) -> Action:
    legal = player_view(state, seat).legal
    if state.phase == DRAW:
        return Draw(STOCK)
    return Discard(legal.discards[0])


def person_messages(events: list[Event], version: int) -> list[dict]:
    """Events as the person may see them (R25): ``{"v", "t", "d"}``."""
    result = []
    for event in events:
        data = event.for_seat(PERSON)
        data.pop("type", None)
        result.append({"v": version, "t": event.type, "d": data})
    return result


def _append(game: Game, steps: list[tuple[int, Action]], first_index: int) -> None:
    insert_rows(GameAction, ACTION_COLUMNS,
                _action_rows(game, steps, first_index, timezone.now()))


def _action_rows(game: Game, steps: list[tuple[int, Action]], first_index: int, now):
    """The log's rows for ``steps`` (R24: with the seed, they are the whole game)."""
    return [(game.pk, first_index + i, seat, action.to_json(), now)
            for i, (seat, action) in enumerate(steps)]


def _finish_if_over(game: Game, state: GameState) -> list[str]:
    if state.phase != FINISHED:
        return []
    mine = result_json(state)[PERSON]
    game.status = Game.FINISHED
    game.contracts, game.penalty, game.place = mine["contracts"], mine["penalty"], mine["place"]
    game.finished_at = timezone.now()
    return ["status", "contracts", "penalty", "place", "finished_at"]


def _after_commit(game: Game, messages: list[dict]) -> None:
    if messages:
        transaction.on_commit(partial(publish, game.public_id, messages), robust=True)


def publish(game_public_id: str, messages: list[dict]) -> None:
    """Send the events to the game's websocket group (games.consumers forwards them).

    Never raises (games.web.groups logs a failed send): it runs after commit, when the action
    is already acknowledged, and the HTTP response is the source of truth. (A raising
    ``on_commit(partial(...), robust=True)`` callback also turned into a 500: Django logs it
    with ``func.__qualname__``, which a ``partial`` lacks.) With Redis down the events are
    lost; clients resync by version."""
    group_send(group_name(game_public_id), {"type": "game.events", "events": messages})
