"""The moves of a write, after its checks: the bots' replies, the log's rows, the snapshot
and the result, and the events to publish after commit. The caller holds the game's row
lock (or is creating the game) inside its transaction."""

from __future__ import annotations

import logging
from functools import partial

from django.db import transaction
from django.utils import timezone

from games import signals
from games.bots import choose, clear_memo, rng_for
from games.engine import (
    DRAW,
    FINISHED,
    STOCK,
    Action,
    Discard,
    Draw,
    Event,
    GameState,
    apply,
    player_view,
    result_json,
)
from games.models import Game, GameAction, Seat
from games.services import timers
from games.services.publishing import publish_after_commit
from games.services.seating import Seating
from games.web.rows import insert_rows, insert_rows_and_update

logger = logging.getLogger(__name__)

ACTION_COLUMNS = ("game", "index", "seat", "action", "created_at", "bot")


def save_moves(game: Game, seating: Seating, state: GameState,
               steps: list[tuple[int, Action]], first_index: int,
               happened: list[tuple[int, Event]], *, before: list[dict] = (),
               after: list[dict] = (), chosen: int = 0) -> dict[int, list[dict]]:
    """Append ``steps`` to the log, save the snapshot (and the result, if the game is over,
    and the turn's deadline, if it has a timer), and publish each person's events after
    commit (the socket's ``before`` and ``after`` them); returns the events by seat.
    ``chosen``: how many of the first steps a person chose (their own action), the rest a
    bot's."""
    previous, before_state = game.turn_deadline, game.state
    game.state = state.to_json()
    game.version = state.actions
    game.updated_at = timezone.now()
    fields = ["state", "version", "updated_at"]
    if game.turn_seconds:
        if timers.start_break(game, before_state, state):
            fields.append("break_until")
        # The seat to move is a person's who is away only when everyone is: paused.
        game.turn_deadline = timers.next_deadline(game, state, seating.away(state.turn))
        fields.append("turn_deadline")
    insert_rows_and_update(
        GameAction, ACTION_COLUMNS,
        action_rows(game, steps, first_index, game.updated_at, chosen), game,
        [*fields, *finish_if_over(game, state)])
    if game.finished:
        signals.game_finished.send(sender=Game, game=game)
    return publish_after_commit(game.public_id, seating, happened, before,
                                [*after, *timer_news(game, state, previous)])


def append_moves(game: Game, steps: list[tuple[int, Action]], first_index: int) -> None:
    """The log's rows for a game being created (its row is saved by the caller)."""
    insert_rows(GameAction, ACTION_COLUMNS, action_rows(game, steps, first_index,
                                                        timezone.now()))


def action_rows(game: Game, steps: list[tuple[int, Action]], first_index: int, now,
                chosen: int = 0):
    """The log's rows for ``steps`` (R24: with the seed, they are the whole game), the first
    ``chosen`` of them a person's, the rest a bot's (GameAction.bot)."""
    return [(game.pk, first_index + i, seat, action.to_json(), now, i >= chosen)
            for i, (seat, action) in enumerate(steps)]


def run_bots(game: Game, seating: Seating, state: GameState, steps: list,
             happened: list) -> GameState:
    """The bots play while the seat to move is theirs. R25: each bot sees only its
    PlayerView; R24: its chance comes from the game's seed."""
    try:
        while state.phase != FINISHED and seating.bot_plays(state.turn):
            state = bot_move(game, state, steps, happened)
        return state
    finally:
        clear_memo()  # the next request is another game


def bot_move(game: Game, state: GameState, steps: list, happened: list) -> GameState:
    """A bot of the game's level makes one move for the seat to move."""
    seat = state.turn
    view = player_view(state, seat)
    try:
        action = choose(game.level, view, rng_for(game.seed, seat, state.actions))
        state, events = apply(state, seat, action)
    except Exception:  # a bot's bug must not wedge the people's game
        logger.exception("Bot %s at seat %s failed in game %s at action %s; "
                         "playing a safe fallback", game.level, seat, game.public_id,
                         state.actions)
        action = _fallback(state, seat)
        state, events = apply(state, seat, action)
    steps.append((seat, action))
    version = state.actions
    happened.extend((version, event) for event in events)
    return state


def _fallback(state: GameState, seat: int) -> Action:
    legal = player_view(state, seat).legal
    if state.phase == DRAW:
        return Draw(STOCK)
    return Discard(legal.discards[0])


def finish_if_over(game: Game, state: GameState) -> list[str]:
    """When the game is over: the result of everyone who sat at it on their Seat (who left
    too), and the owner's on the game (the fields to save with it)."""
    if state.phase != FINISHED:
        return []
    results = result_json(state)
    sat = dict(Seat.objects.filter(game_id=game.pk).values_list("number", "player_id"))
    for seat, player_id in sat.items():
        mine = results[seat]
        Seat.objects.filter(game_id=game.pk, number=seat).update(
            contracts=mine["contracts"], penalty=mine["penalty"], place=mine["place"])
        if player_id == game.owner_id:
            game.contracts, game.penalty, game.place = (
                mine["contracts"], mine["penalty"], mine["place"])
    game.status = Game.FINISHED
    game.finished_at = timezone.now()
    return ["status", "contracts", "penalty", "place", "finished_at"]


def timer_news(game: Game, state: GameState, previous) -> list[dict]:
    """When a write started a person's turn timer: its frame for every seat, and after
    commit the task due at its deadline."""
    if game.turn_deadline is None or game.turn_deadline == previous:
        return []
    transaction.on_commit(partial(timers.schedule, game.public_id, game.turn_deadline))
    return [timers.timer_notice(game, state.turn)]
