"""The only code that writes games: start a game, act, run the bots, finish (docs/design.md,
"One action, from the click to the sockets"). What the person sees is read in games.reads.

Checks, then changes, in one transaction; events go out after commit.

A game has seats (R1): each is a person (a ``Seat`` row, a player) or a computer player of
the game's level. ``Seating`` says who sits where; every read and write is for the asking
player's seat.

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

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from functools import partial

from django.db import connection, transaction
from django.utils import timezone

from games import signals
from games.bots import LEVELS, choose, clear_memo, rng_for
from games.daily import day_has_ended
from games.engine import (
    DRAW,
    ENGINE_VERSION,
    FINISHED,
    SEATS,
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
from games.models import SOLO_SEAT, TURN_SECONDS, DailyDeal, Game, GameAction, Seat
from games.players.models import Player
from games.players.names import COMPUTER_PLAYER_NAMES
from games.services import timers
from games.services.timers import AWAY_AFTER_TIMEOUTS
from games.web.groups import group_send
from games.web.rows import insert_rows, insert_rows_and_update, select_row

logger = logging.getLogger(__name__)

ACTION_COLUMNS = ("game", "index", "seat", "action", "created_at")


class GameNotFound(Exception):
    """No such game, or not one this player sits at (the two are never told apart)."""


class StaleVersion(Exception):
    """The client acted on an old version; ``game`` is the current one, as ``seated`` sees it."""

    code = "stale_version"

    def __init__(self, seated: Seated, state: GameState):
        super().__init__("stale version")
        self.seated = seated
        self.game = seated.game
        self.state = state

    @property
    def message(self) -> str:
        return f"The game is at version {self.game.version}: look at it again and retry."


class TimedOut(StaleVersion):
    """The action came after its turn's time ran out: a bot played that turn first
    (``game`` is the game after it)."""

    code = "turn_timed_out"

    @property
    def message(self) -> str:
        return (f"Your time for this turn ran out and a bot played it for you: the game is "
                f"at version {self.game.version}.")


class ModeUnavailable(Exception):
    pass


@dataclass(frozen=True)
class Person:
    player_id: int
    name: str
    timeouts: int = 0  # turns in a row their timer ran out on (games.services.timers)


@dataclass(frozen=True)
class Seating:
    """Who sits where (R1): the people by seat; every other seat is a computer player."""

    people: dict[int, Person]

    def seat_of(self, player: Player) -> int | None:
        for seat, person in self.people.items():
            if person.player_id == player.pk:
                return seat
        return None

    def is_person(self, seat: int) -> bool:
        return seat in self.people

    def timeouts(self, seat: int) -> int:
        person = self.people.get(seat)
        return 0 if person is None else person.timeouts

    def away(self, seat: int) -> bool:
        """A person whose timer ran out on AWAY_AFTER_TIMEOUTS turns in a row, and who has
        not acted since."""
        return self.timeouts(seat) >= AWAY_AFTER_TIMEOUTS

    def bot_plays(self, seat: int) -> bool:
        """Whether a bot plays ``seat``'s turn at once: a computer player's seat, or an away
        person's while someone at the game is not away (with everyone away, their turns
        wait for the timer, so an empty table does not play itself to the end)."""
        if seat not in self.people:
            return True
        return self.away(seat) and not all(self.away(other) for other in self.people)

    def with_timeouts(self, seat: int, timeouts: int) -> Seating:
        person = self.people[seat]
        return Seating({**self.people, seat: Person(person.player_id, person.name, timeouts)})

    def name(self, seat: int) -> str:
        person = self.people.get(seat)
        return person.name if person is not None else COMPUTER_PLAYER_NAMES[seat]


@dataclass(frozen=True)
class Seated:
    """A game as one of its people sees it: the game, who sits where, and the asker's seat."""

    game: Game
    seating: Seating
    seat: int


@dataclass
class Played:
    """The outcome of a write: the game as the asker sees it, its state, the events the
    asker may see, and each person's seat's events (the asker's included) to publish."""

    seated: Seated
    state: GameState
    messages: list[dict] = field(default_factory=list)  # [{"v", "t", "data", "d"}]

    @property
    def game(self) -> Game:
        return self.seated.game


def group_name(game_public_id: str, seat: int) -> str:
    """The channel group of one seat of a game: its frames are filtered for that seat."""
    return f"game.{game_public_id}.{seat}"


SEATING_SQL = (f"SELECT s.number, s.player_id, p.name, s.timeouts FROM {Seat._meta.db_table} s "
               f"JOIN {Player._meta.db_table} p ON p.id = s.player_id "
               "WHERE s.game_id = %s AND s.left_at IS NULL")


def seating_of(game: Game) -> Seating:
    """The game's people, read from its Seat rows; a person who left for good is no longer
    one (a bot plays their seat).

    Plain SQL through the documented cursor, in place of ``Seat.objects.filter(...)
    .values_list("number", "player_id", "player__name")``: every action and read asks it, and
    with the ORM's query an action cost 7.60 M instructions, with this one 6.27 M (-17 %)
    (``bench/action_instructions.py --actions 100 --warmup 20 --games 5``; tests/games/
    test_seats.py reads the same seats both ways)."""
    with connection.cursor() as cursor:
        cursor.execute(SEATING_SQL, [game.pk])
        rows = cursor.fetchall()
    return Seating({number: Person(player_id, name, timeouts)
                    for number, player_id, name, timeouts in rows})


# --- Games --------------------------------------------------------------------------------


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
                        turn_seconds: int | None = None) -> Played:
    """A practice game for several people, each at the seat ``people`` gives (``owner``
    among them), the other seats played by bots of ``level``; answered as ``owner`` sees it.
    Every person's frames go to their own seat's group. ``turn_seconds``: each person's time
    for a turn (one of TURN_SECONDS), None for no timer."""
    if owner not in people.values() or not set(people) <= set(range(SEATS)):
        raise ValueError("the owner sits at the game, at seats 0-3")
    if len({player.pk for player in people.values()}) != len(people):
        raise ValueError("one seat a person")
    return _start(owner, people, Game.PRACTICE, level, turn_seconds=turn_seconds)


def _start(owner: Player, people: dict[int, Player], mode: str, level: str, *,
           daily: DailyDeal | None = None, address_hash: str = "",
           device_hash: str = "", turn_seconds: int | None = None) -> Played:
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
                    state={}, turn_seconds=turn_seconds)
        steps: list[tuple[int, Action]] = []
        state = _run_bots(game, seating, state, steps, happened)
        game.state = state.to_json()
        game.version = state.actions
        game.turn_deadline = timers.next_deadline(game, state)
        game.save(force_insert=True)
        Seat.objects.bulk_create(Seat(game=game, number=seat, player=player)
                                 for seat, player in people.items())
        if finished_fields := _finish_if_over(game, state):
            game.save(update_fields=finished_fields)
        _append(game, steps, first_index=0)
        published = _after_commit(game, seating, happened,
                                  after=_timer_news(game, state, previous=None))
    seat = seating.seat_of(owner)
    return Played(Seated(game, seating, seat), state, published[seat])


def get_game(player: Player, public_id: str) -> Seated:
    """The game ``public_id`` as ``player`` sees it from their seat; GameNotFound if there is
    no such game or they do not sit at it. A turn whose time has run out is played first
    (:func:`time_out`), so no read shows a turn as waiting past its deadline."""
    seated = _seated(select_row(Game, public_id=public_id), player, public_id)
    if timers.overdue(seated.game) and time_out(public_id):
        seated = _seated(select_row(Game, public_id=public_id), player, public_id)
    return seated


def _seated(game: Game | None, player: Player, public_id: str) -> Seated:
    if game is None:
        raise GameNotFound(public_id)
    seating = seating_of(game)
    seat = seating.seat_of(player)
    if seat is None:
        raise GameNotFound(public_id)
    if game.owner_id == player.pk:
        game.owner = player
    return Seated(game, seating, seat)


def act(public_id: str, player: Player, expected_version: int, action_data) -> Played:
    """Apply the action for the player's seat and the bots' replies (see the module's
    docstring).

    At a game with a timer: an action that comes after its turn's deadline loses to the
    timer, which plays the turn first (TimedOut, a StaleVersion: committed, then raised);
    any action of a person whose timer ran out, applied or refused, says they are here
    again (their seat is no longer away).

    Raises IllegalAction (malformed or against the rules), GameNotFound, StaleVersion."""
    action = action_from_json(action_data)
    refusal: Exception | None = None
    with transaction.atomic():
        seated = _seated(select_row(Game, for_update=True, public_id=public_id), player,
                         public_id)
        game, seat = seated.game, seated.seat
        if day_has_ended(game):  # R26: its seed is public now
            raise IllegalAction("daily_over", "R26", "This daily's day has ended (UTC): it "
                                                     "can no longer be played.")
        state = game.load_state()
        timed_out = None
        if timers.overdue(game):  # the turn's time ran out before this action came
            timed_out, seating, state = _play_overdue_turn(game, seated.seating, state)
            seated = Seated(game, seating, seat)
        if not seated.seating.timeouts(seat) and timed_out is None:
            return _act(seated, state, expected_version, action)
        if seated.seating.timeouts(seat):  # any action says the person is here
            seated, state = _here_again(seated, state)
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
    state = _run_bots(game, seating, state, steps, happened)
    published = _save(game, seating, state, steps, first_index, happened)
    return Played(seated, state, published[seat])


# --- Turn timers (games.services.timers) --------------------------------------------------


def time_out(public_id: str) -> bool:
    """If the turn of game ``public_id``'s person to move has run out, a bot of the game's
    level plays it for them; whether it did. Every watcher calls this (games.tasks, beat's
    sweep, a read or an action of the game, a socket's timer under ``./dev serve``): under
    the game's row lock, the deadline is checked and moved in one transaction, so of any
    number of calls for one turn, at once or one after another, one plays it."""
    with transaction.atomic():
        game = select_row(Game, for_update=True, public_id=public_id)
        if game is None or game.status != Game.ACTIVE or not timers.overdue(game):
            return False
        _play_overdue_turn(game, seating_of(game), game.load_state())
    return True


def time_out_overdue() -> int:
    """Beat's sweep, the safety net of the tasks due at each deadline (a lost task, a broker
    that was away): plays every overdue turn; how many it played."""
    overdue = (Game.objects.filter(status=Game.ACTIVE, turn_deadline__lte=timezone.now())
               .values_list("public_id", flat=True))
    return sum(time_out(public_id) for public_id in overdue)


def come_back(public_id: str, player: Player) -> Seated:
    """"I'm back": ``player``'s seat is no longer away, and its run of turns out of time
    starts again from none (any action of theirs does the same: :func:`act`). The game as
    they see it; GameNotFound if they do not sit at it."""
    with transaction.atomic():
        seated = _seated(select_row(Game, for_update=True, public_id=public_id), player,
                         public_id)
        if seated.seating.timeouts(seated.seat):
            seated, _state = _here_again(seated, seated.game.load_state())
    return seated


def _play_overdue_turn(game: Game, seating: Seating,
                       state: GameState) -> tuple[int, Seating, GameState]:
    """The caller holds the game's row lock and has seen the deadline pass. A bot of the
    game's level plays the rest of the turn for the person out of time, from their seat's
    PlayerView (R25); their run of timeouts grows (at AWAY_AFTER_TIMEOUTS the seat is away);
    then the bots play up to the next person. Returns (the seat, the seating, the state)."""
    seat, first_index = state.turn, game.version
    steps: list[tuple[int, Action]] = []
    happened: list[tuple[int, Event]] = []
    turn = (state.deal, state.turn_number)
    try:
        while state.phase != FINISHED and (state.deal, state.turn_number) == turn:
            state = _bot_move(game, state, steps, happened)
    finally:
        clear_memo()
    was_away = seating.away(seat)
    if seating.is_person(seat) and not was_away:
        timeouts = seating.timeouts(seat) + 1
        Seat.objects.filter(game_id=game.pk, number=seat).update(timeouts=timeouts)
        seating = seating.with_timeouts(seat, timeouts)
    state = _run_bots(game, seating, state, steps, happened)
    after = ([timers.notice(state.actions, "away", {"seat": seat, "away": True})]
             if seating.away(seat) and not was_away else [])
    _save(game, seating, state, steps, first_index, happened,
          before=[timers.notice(first_index, "timed_out", {"seat": seat})], after=after)
    return seat, seating, state


def _here_again(seated: Seated, state: GameState) -> tuple[Seated, GameState]:
    """The caller holds the game's row lock: the asker, whose timer ran out on their last
    turns, is here; an away seat is played by its person again, and every seat hears it.
    (With everyone else away, their turns waited for the timer: now they are played at
    once again.)"""
    game, seat = seated.game, seated.seat
    was_away = seated.seating.away(seat)
    Seat.objects.filter(game_id=game.pk, number=seat).update(timeouts=0)
    seated = Seated(game, seated.seating.with_timeouts(seat, 0), seat)
    if not was_away or game.status != Game.ACTIVE:
        return seated, state
    steps: list[tuple[int, Action]] = []
    happened: list[tuple[int, Event]] = []
    state = _run_bots(game, seated.seating, state, steps, happened)
    back = [timers.notice(state.actions, "away", {"seat": seat, "away": False})]
    if steps:
        _save(game, seated.seating, state, steps, game.version, happened, after=back)
    else:
        _after_commit(game, seated.seating, [], after=back)
    return seated, state


def _timer_news(game: Game, state: GameState, previous) -> list[dict]:
    """When a write started a person's turn timer: its frame for every seat, and after
    commit the task due at its deadline."""
    if game.turn_deadline is None or game.turn_deadline == previous:
        return []
    transaction.on_commit(partial(timers.schedule, game.public_id, game.turn_deadline))
    return [timers.timer_notice(game, state.turn)]


def leave_game(public_id: str, player: Player) -> None:
    """``player`` leaves a game for good: a bot of the game's level plays their seat from now
    on (at once, if it is their turn). Their result is still theirs when the game ends, and
    its replay opens for them as for everyone who sat at it. GameNotFound if they do not sit
    at it (any more)."""
    with transaction.atomic():
        seated = _seated(select_row(Game, for_update=True, public_id=public_id), player,
                         public_id)
        game = seated.game
        Seat.objects.filter(game_id=game.pk, number=seated.seat).update(
            left_at=timezone.now())
        if game.status != Game.ACTIVE:
            return
        seating = Seating({n: p for n, p in seated.seating.people.items() if n != seated.seat})
        state = game.load_state()
        steps: list[tuple[int, Action]] = []
        happened: list[tuple[int, Event]] = []
        state = _run_bots(game, seating, state, steps, happened)
        if steps:
            _save(game, seating, state, steps, game.version, happened)


def _save(game: Game, seating: Seating, state: GameState, steps: list[tuple[int, Action]],
          first_index: int, happened: list[tuple[int, Event]], *, before: list[dict] = (),
          after: list[dict] = ()) -> dict[int, list[dict]]:
    """Append ``steps`` to the log, save the snapshot (and the result, if the game is over,
    and the turn's deadline, if it has a timer), and publish each person's events after
    commit (the socket's ``before`` and ``after`` them); returns the events by seat."""
    previous = game.turn_deadline
    game.state = state.to_json()
    game.version = state.actions
    game.updated_at = timezone.now()
    fields = ["state", "version", "updated_at"]
    if game.turn_seconds:
        game.turn_deadline = timers.next_deadline(game, state)
        fields.append("turn_deadline")
    insert_rows_and_update(
        GameAction, ACTION_COLUMNS, _action_rows(game, steps, first_index, game.updated_at),
        game, [*fields, *_finish_if_over(game, state)])
    if game.finished:
        signals.game_finished.send(sender=Game, game=game)
    return _after_commit(game, seating, happened, before,
                         [*after, *_timer_news(game, state, previous)])


def _run_bots(game: Game, seating: Seating, state: GameState, steps: list,
              happened: list) -> GameState:
    """R25: each bot sees only its PlayerView; R24: its chance comes from the game's seed."""
    try:
        return _play_bot_turns(game, seating, state, steps, happened)
    finally:
        clear_memo()  # the next request is another game


def _play_bot_turns(game: Game, seating: Seating, state: GameState, steps: list,
                    happened: list) -> GameState:
    while state.phase != FINISHED and seating.bot_plays(state.turn):
        state = _bot_move(game, state, steps, happened)
    return state


def _bot_move(game: Game, state: GameState, steps: list, happened: list) -> GameState:
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


def seat_message(event: Event, version: int, seat: int) -> dict:
    """An event as ``seat`` may see it (R25): ``{"v", "t", "data", "d"}``, ``d`` the same
    object as ``data``, under its name for the clients written before 2026-12-04."""
    data = event.for_seat(seat)
    data.pop("type", None)
    return {"v": version, "t": event.type, "data": data, "d": data}


def _messages_for(happened: list[tuple[int, Event]], seat: int) -> list[dict]:
    return [seat_message(event, version, seat) for version, event in happened]


def _append(game: Game, steps: list[tuple[int, Action]], first_index: int) -> None:
    insert_rows(GameAction, ACTION_COLUMNS,
                _action_rows(game, steps, first_index, timezone.now()))


def _action_rows(game: Game, steps: list[tuple[int, Action]], first_index: int, now):
    """The log's rows for ``steps`` (R24: with the seed, they are the whole game)."""
    return [(game.pk, first_index + i, seat, action.to_json(), now)
            for i, (seat, action) in enumerate(steps)]


def _finish_if_over(game: Game, state: GameState) -> list[str]:
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


def _after_commit(game: Game, seating: Seating, happened: list[tuple[int, Event]],
                  before: list[dict] = (), after: list[dict] = ()) -> dict[int, list[dict]]:
    """Each person's seat's messages, published after commit (with the frames ``before``
    and ``after`` them that every seat hears: the timers' news); returns the messages by
    seat."""
    published = {seat: _messages_for(happened, seat) for seat in seating.people}
    for seat, messages in published.items():
        frames = [*before, *messages, *after] if before or after else messages
        if frames:
            transaction.on_commit(partial(publish, game.public_id, seat, frames),
                                  robust=True)
    return published


def publish(game_public_id: str, seat: int, messages: list[dict]) -> None:
    """Send one seat's events to its websocket group (games.consumers forwards them).

    Never raises (games.web.groups logs a failed send): it runs after commit, when the action
    is already acknowledged, and the HTTP response is the source of truth. (A raising
    ``on_commit(partial(...), robust=True)`` callback also turned into a 500: Django logs it
    with ``func.__qualname__``, which a ``partial`` lacks.) With Redis down the events are
    lost; clients resync by version."""
    group_send(group_name(game_public_id, seat), {"type": "game.events", "events": messages})
