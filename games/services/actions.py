"""Starting a game and acting in it: the action pipeline of games.services' docstring."""

from __future__ import annotations

import secrets

from django.db import transaction

from games.bots import LEVELS
from games.daily import day_has_ended
from games.engine import (
    ENGINE_VERSION,
    SEATS,
    Action,
    GameState,
    IllegalAction,
    action_from_json,
    apply,
    new_game,
)
from games.lists import TURN_SECONDS
from games.models import SOLO_SEAT, DailyDeal, Game, Seat
from games.players.models import Player
from games.services import timers
from games.services.moves import (
    append_moves,
    finish_if_over,
    run_bots,
    save_moves,
    timer_news,
)
from games.services.publishing import publish_after_commit
from games.services.seating import (
    ModeUnavailable,
    Person,
    Played,
    Seated,
    Seating,
    StaleVersion,
    TimedOut,
    seated_at,
)
from games.services.turns import here_again, play_overdue_turn, time_out
from games.web.rows import select_row


def new_seed() -> str:
    """A practice game's secret random seed (tests fix it here)."""
    return secrets.token_hex(16)


def start_game(player: Player, mode: str = Game.PRACTICE, level: str = "normal", *,
               daily: DailyDeal | None = None, address_hash: str = "",
               device_hash: str = "") -> Played:
    """A new game for ``player`` alone, at SOLO_SEAT: the deal, then the bots up to the
    person's first turn. A practice game gets a secret random seed; a daily (mode "daily",
    started by games.services.daily.start_daily, which passes the day's deal) plays the day's
    seed (R26)."""
    if (mode == Game.DAILY) != (daily is not None) or mode not in (Game.PRACTICE, Game.DAILY):
        raise ModeUnavailable(mode)
    return _start(player, {SOLO_SEAT: player}, mode, level, daily=daily,
                  address_hash=address_hash, device_hash=device_hash)


def start_game_together(owner: Player, people: dict[int, Player], level: str = "normal",
                        turn_seconds: int | None = None, table_name: str = "") -> Played:
    """A practice game for several people, each at the seat ``people`` gives (``owner``
    among them), the other seats played by bots of ``level``; answered as ``owner`` sees it.
    Every person's frames go to their own seat's group. ``turn_seconds``: each person's time
    for a turn (one of TURN_SECONDS), None for no timer; ``table_name``: the table's it is."""
    if owner not in people.values() or not set(people) <= set(range(SEATS)):
        raise ValueError("the owner sits at the game, at seats 0-3")
    if len({player.pk for player in people.values()}) != len(people):
        raise ValueError("one seat a person")
    return _start(owner, people, Game.PRACTICE, level, turn_seconds=turn_seconds,
                  table_name=table_name)


def _start(owner: Player, people: dict[int, Player], mode: str, level: str, *,
           daily: DailyDeal | None = None, address_hash: str = "",
           device_hash: str = "", turn_seconds: int | None = None,
           table_name: str = "") -> Played:
    if level not in LEVELS:
        raise ValueError(level)
    if turn_seconds is not None and turn_seconds not in TURN_SECONDS:
        raise ValueError(turn_seconds)
    seed = daily.seed if daily is not None else new_seed()
    seating = Seating({seat: Person(player.pk, player.name) for seat, player in people.items()})
    state, events = new_game(seed)
    happened = [(0, event) for event in events]
    with transaction.atomic():
        game = Game(owner=owner, mode=mode, level=level, seed=seed, daily=daily,
                    address_hash=address_hash, device_hash=device_hash,
                    engine_version=ENGINE_VERSION, version=0,
                    state={}, turn_seconds=turn_seconds, table_name=table_name)
        steps: list[tuple[int, Action]] = []
        state = run_bots(game, seating, state, steps, happened)
        game.state = state.to_json()
        game.version = state.actions
        game.turn_deadline = timers.next_deadline(game, state)
        game.save(force_insert=True)
        Seat.objects.bulk_create(Seat(game=game, number=seat, player=player)
                                 for seat, player in people.items())
        if finished_fields := finish_if_over(game, state):
            game.save(update_fields=finished_fields)
        append_moves(game, steps, first_index=0)
        published = publish_after_commit(game.public_id, seating, happened,
                                         after=timer_news(game, state, previous=None))
    seat = seating.seat_of(owner)
    return Played(Seated(game, seating, seat), state, published[seat])


def get_game(player: Player, public_id: str) -> Seated:
    """The game ``public_id`` as ``player`` sees it from their seat; GameNotFound if there is
    no such game or they do not sit at it. A turn whose time has run out is played first
    (games.services.turns.time_out), so no read shows a turn as waiting past its deadline."""
    seated = seated_at(select_row(Game, public_id=public_id), player, public_id)
    if timers.overdue(seated.game) and time_out(public_id):
        seated = seated_at(select_row(Game, public_id=public_id), player, public_id)
    return seated


def act(public_id: str, player: Player, expected_version: int, action_data) -> Played:
    """Apply the action for the player's seat and the bots' replies (see games.services'
    docstring).

    At a game with a timer: an action that comes after its turn's deadline loses to the
    timer, which plays the turn first (TimedOut, a StaleVersion: committed, then raised);
    any action of a person whose timer ran out, applied or refused, says they are here
    again (their seat is no longer away).

    Raises IllegalAction (malformed or against the rules), GameNotFound, StaleVersion."""
    action = action_from_json(action_data)
    refusal: Exception | None = None
    with transaction.atomic():
        seated = seated_at(select_row(Game, for_update=True, public_id=public_id), player,
                           public_id)
        game, seat = seated.game, seated.seat
        if day_has_ended(game):  # R26: its seed is public now
            raise IllegalAction("daily_over", "R26", "This daily's day has ended (UTC): it "
                                                     "can no longer be played.")
        state = game.load_state()
        timed_out = None
        if timers.overdue(game):  # the turn's time ran out before this action came
            timed_out, seating, state = play_overdue_turn(game, seated.seating, state)
            seated = Seated(game, seating, seat)
        if not seated.seating.timeouts(seat) and timed_out is None:
            return _act(seated, state, expected_version, action)
        if seated.seating.timeouts(seat):  # any action says the person is here
            seated, state = here_again(seated, state)
        try:
            if timed_out is not None:
                raise (TimedOut if timed_out == seat else StaleVersion)(seated, state)
            played = _act(seated, state, expected_version, action)
        except (IllegalAction, StaleVersion) as exc:
            refusal = exc  # refused, after what was written here: committed first
    if refusal is not None:
        raise refusal
    return played


def _act(seated: Seated, state: GameState, expected_version: int, action: Action) -> Played:
    game, seating, seat = seated.game, seated.seating, seated.seat
    if expected_version != game.version:
        raise StaleVersion(seated, state)
    first_index = game.version
    state, events = apply(state, seat, action)
    steps: list[tuple[int, Action]] = [(seat, action)]
    happened = [(state.actions, event) for event in events]
    state = run_bots(game, seating, state, steps, happened)
    published = save_moves(game, seating, state, steps, first_index, happened, chosen=1)
    return Played(seated, state, published[seat])
