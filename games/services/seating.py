"""Who sits where at a game, and the game as one of its people sees it; the refusals every
write and read of a game can raise.

A game has seats (R1): each is a person (a ``Seat`` row, a player) or a computer player of
the game's level. ``Seating`` says who sits where; every read and write is for the asking
player's seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection

from games.engine import GameState
from games.models import Game, Seat
from games.players.models import Player
from games.players.names import COMPUTER_PLAYER_NAMES
from games.services.timers import AWAY_AFTER_TIMEOUTS
from games.web.errors import Refusal


class GameNotFound(Refusal):
    """No such game, or not one this player sits at (the two are never told apart: someone
    else's game is "not found", never "forbidden")."""

    status, code, message = 404, "not_found", "No such game."


class StaleVersion(Refusal):
    """The client acted on an old version; ``game`` is the current one, as ``seated`` sees it
    (the API answers it beside the error)."""

    status, code = 409, "stale_version"

    def __init__(self, seated: Seated, state: GameState):
        super().__init__(message=self.explain(seated.game.version))
        self.seated = seated
        self.game = seated.game
        self.state = state

    @staticmethod
    def explain(version: int) -> str:
        return f"The game is at version {version}: look at it again and retry."


class TimedOut(StaleVersion):
    """The action came after its turn's time ran out: a bot played that turn first
    (``game`` is the game after it)."""

    code = "turn_timed_out"

    @staticmethod
    def explain(version: int) -> str:
        return (f"Your time for this turn ran out and a bot played it for you: the game is "
                f"at version {version}.")


class ModeUnavailable(Refusal):
    status, code, message = 422, "invalid_request", "No such mode of game."


@dataclass(frozen=True)
class Person:
    player_id: int
    name: str
    timeouts: int = 0  # turns in a row their timer ran out on (games.services.turns)


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

    def without(self, seat: int) -> Seating:
        """The seating once the person at ``seat`` has left for good (a bot plays it)."""
        return Seating({number: person for number, person in self.people.items()
                        if number != seat})

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
    messages: list[dict] = field(default_factory=list)  # [{"v", "t", "data"}]

    @property
    def game(self) -> Game:
        return self.seated.game


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


def seated_at(game: Game | None, player: Player, public_id: str) -> Seated:
    """``game`` (read by ``public_id``, None if there is none) as ``player`` sees it from
    their seat; GameNotFound if there is no such game or they do not sit at it."""
    if game is None:
        raise GameNotFound()
    seating = seating_of(game)
    seat = seating.seat_of(player)
    if seat is None:
        raise GameNotFound()
    if game.owner_id == player.pk:
        game.owner = player
    return Seated(game, seating, seat)
