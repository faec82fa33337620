"""Replays (docs/api.md, "Replays"): a finished game, move by move, with every card face up.

A game is (seed, actions) (R24). A replay applies the log to ``new_game(seed)`` once per
request, here on the server, and answers every event of the game with its private parts (each
hand dealt, each card drawn from the stock), so a client rebuilds the state at any version
from one answer: the browser's replay viewer steps, plays and jumps without asking again.

Who may see a replay (R25, R26), with no exception for staff:

- nobody while the game can still be played (unfinished, or an expired daily);
- a practice game: the people who sat at it, once it is over (a person who left a table's
  game before its end too: it is listed as theirs, with their result);
- a daily: everyone, once it is over and its day has ended (the day's seed is revealed then);
  not even its owner before.

A seated person's ``GET /games/{id}/replay`` says why a replay is closed (403); the public
``GET /replays/{id}`` answers 404 for anything closed to the caller, so it never tells whether
someone else's game exists.

The answer carries the asker's seat (``seat``: the replay's "you", null for a watcher) and
their own post-game analysis (``analysis``: games.services.analysis) of that seat, and nobody
else's: null for a watcher who sat at no seat.
"""

from __future__ import annotations

from datetime import datetime

from games.daily import day_has_ended
from games.engine import SEATS, Event, action_from_json, apply, new_game, result_json
from games.models import Analysis, Game, Seat
from games.players.models import Player
from games.players.names import COMPUTER_PLAYER_NAMES
from games.services import GameNotFound, Seating, analysis
from games.web.errors import Refusal


class ReplayUnavailable(Refusal):
    """A game the asker sat at, whose replay is not open yet (the message says when)."""

    status, code = 403, "replay_unavailable"


def closed_because(game: Game) -> str | None:
    """Why the replay of ``game`` is closed to everyone, or None once it may open."""
    if not game.finished:
        return "The replay opens when the game is over."
    if game.daily_id and not day_has_ended(game):
        return "A daily's replay opens when its day has ended (UTC)."
    return None


def is_open_to(game: Game, viewer: Player | None, seating: Seating | None = None) -> bool:
    """Whether ``viewer`` (None: nobody identified) may watch ``game`` now (``seating``: the
    game's, if it was read already)."""
    return _open(game, lambda: seat_at(game, viewer, seating))


def _open(game: Game, seat) -> bool:
    """Whether ``game`` is open to the viewer whose seat ``seat()`` says (None: no seat)."""
    if closed_because(game) is not None:
        return False
    return game.mode == Game.DAILY or seat() is not None


def sits_at(game: Game, viewer: Player | None) -> bool:
    """Whether ``viewer`` sat at ``game`` (left it or not)."""
    return seat_at(game, viewer) is not None


def seat_at(game: Game, viewer: Player | None, seating: Seating | None = None) -> int | None:
    """The seat ``viewer`` sat at in ``game``, if they did: a person who left it for good
    (whom ``seating``, the game's people now, no longer holds) sat there all the same."""
    if viewer is None:
        return None
    seat = seating.seat_of(viewer) if seating is not None else None
    if seat is None:
        seat = (Seat.objects.filter(game=game, player=viewer)
                .values_list("number", flat=True).first())
    return seat


def replay_of(game: Game, viewer: Player | None = None) -> dict:
    """The replay of a game (the admin's replay field, with no viewer): raises
    ReplayUnavailable while it is closed to everyone."""
    reason = closed_because(game)
    if reason is not None:
        raise ReplayUnavailable(message=reason)
    seats = _seats(game)
    return _replay(game, _seat_of(seats, viewer), seats)


def own_replay(viewer: Player, public_id: str) -> dict:
    """``GET /games/{id}/replay``: the replay of a game ``viewer`` sat at (left or not);
    GameNotFound for any other, ReplayUnavailable while it is closed to everyone."""
    game = (Game.objects.select_related("daily").defer("state")
            .filter(public_id=public_id).first())
    if game is None or not sits_at(game, viewer):
        raise GameNotFound()
    return replay_of(game, viewer)


def open_replay(viewer: Player | None, public_id: str) -> dict:
    """``GET /replays/{id}``: the replay if ``viewer`` may watch it; else GameNotFound, which
    is also the answer for no such game (the two are never told apart)."""
    game = (Game.objects.select_related("daily").defer("state")
            .filter(public_id=public_id).first())
    if game is None:
        raise GameNotFound()
    seats = _seats(game)
    yours = _seat_of(seats, viewer)
    if not _open(game, lambda: yours):
        raise GameNotFound()
    return _replay(game, yours, seats)


def _seats(game: Game) -> dict[int, tuple[int, str, datetime | None]]:
    """Every person who sat at ``game`` by seat, those who left it too: (player, name now,
    when they left)."""
    rows = Seat.objects.filter(game=game).values_list("number", "player_id", "player__name",
                                                      "left_at")
    return {number: (player_id, name, left_at) for number, player_id, name, left_at in rows}


def _seat_of(seats: dict, viewer: Player | None) -> int | None:
    return next((number for number, (player_id, _, _) in seats.items()
                 if viewer is not None and player_id == viewer.pk), None)


def _replay(game: Game, yours: int | None, seats: dict) -> dict:
    """Everything about a game that is over, as the viewer who sat at seat ``yours`` (None:
    a watcher) sees it: the seed, every action, every hand dealt and every event with every
    card face up, from one pass over the log."""
    log = list(game.actions.order_by("index")
               .values_list("index", "seat", "action", "bot", "created_at"))
    players = _players(game, seats, log)
    state, events = new_game(game.seed)
    opened = _opened(events, 0)
    for index, seat, data, bot, _ in log:
        state, events = apply(state, seat, action_from_json(data))
        chosen_by_bot = _by_bot(players[seat], index, bot)
        opened += _opened(events, index + 1, chosen_by_bot)
    return {
        "id": game.public_id, "mode": game.mode, "level": game.level,
        "daily": game.daily.date if game.daily_id else None,
        "table_name": game.table_name or None,
        "seed": game.seed, "engine_version": game.engine_version, "version": game.version,
        "finished_at": game.finished_at,
        "yours": yours is not None, "seat": yours,
        "players": players,
        "deals": [_deal_record(e) for e in opened if e["t"] == "deal_started"],
        "actions": [{"index": i, "seat": s, "action": a} for i, s, a, _, _ in log],
        "events": opened,
        "result": result_json(state),
        "analysis": None if yours is None else _analysis_of(game, yours),
    }


def _players(game: Game, seats: dict, log: list[tuple]) -> list[dict]:
    """Who played each seat: a computer player from the start (``bot``), or a person, by
    their name now, with the version at which they left the game (``left``; from it on the
    computer played the seat), null if they stayed to its end. A Seat row keeps only when its
    person left (``left_at``): the version is the count of actions written by then, which
    the game's row lock keeps in order (games.services.leave_game). Leaving the table after
    its game was over is no leaving of the game."""
    players = []
    for seat in range(SEATS):
        if seat not in seats:
            players.append({"seat": seat, "name": COMPUTER_PLAYER_NAMES[seat], "bot": True,
                            "left": None})
            continue
        _, name, left_at = seats[seat]
        left = None if left_at is None else sum(1 for row in log if row[4] <= left_at)
        players.append({"seat": seat, "name": name, "bot": False,
                        "left": left if left is not None and left < game.version else None})
    return players


def _by_bot(player: dict, index: int, bot: bool | None) -> bool:
    """Whether the computer chose a person's action at ``index`` (their time ran out, they
    were away or had left): the row says so (``GameAction.bot``); a row written before it
    could (null) only by the person having left before it."""
    if player["bot"]:
        return False  # a computer player's own move: nobody's to tell apart
    if bot is not None:
        return bot
    return player["left"] is not None and index >= player["left"]


NO_ANALYSIS = {"decisions": 0, "agreed": 0, "bot_turns": 0, "marks": [], "costliest": None}


def analysis_for(game: Game, viewer: Player | None,
                 seating: Seating | None = None) -> dict | None:
    """The analysis of ``viewer``'s own seat (``state`` "ready"), "pending" until it is
    written, "none" for a game over too long before (analyses began on 2026-12-05), "failed"
    where the expert failed; None for a watcher who did not sit at the game
    (nobody sees another person's analysis)."""
    seat = seat_at(game, viewer, seating)
    return None if seat is None else _analysis_of(game, seat)


def _analysis_of(game: Game, seat: int) -> dict:
    row = Analysis.objects.filter(game=game, seat=seat).values_list("failed", "data").first()
    if row is None:
        return {"state": "pending" if analysis.may_come(game) else "none", "seat": seat,
                **NO_ANALYSIS}
    failed, data = row
    if failed:
        return {"state": "failed", "seat": seat, **NO_ANALYSIS}
    # bot_turns: 0 in the analyses written before the bots' moves were left out: none was
    return {"state": "ready", "seat": seat, "bot_turns": 0, **data}


def _opened(events: list[Event], version: int, by_bot: bool = False) -> list[dict]:
    """Events with their private parts (for a game that is over: R25 no longer hides them),
    each as games.schemas.OpenEvent types it:
    ``{"v", "t", "data", "private": [{"seat", "data"}]}``; a seat's own view of an event is
    ``data`` updated with its private part, as ``Event.for_seat`` makes it. ``bot``: true on
    the events of a person's move the computer chose for them (as ``GET /games/{id}/events``
    marks them)."""
    opened = []
    for event in events:
        item = {"v": version, "t": event.type, "data": event.data}
        if by_bot and "seat" in event.data:
            item["bot"] = True
        if event.private:
            item["private"] = [{"seat": seat, "data": extra}
                               for seat, extra in event.private]
        opened.append(item)
    return opened


def _deal_record(opened: dict) -> dict:
    hands = [[] for _ in range(4)]
    for part in opened["private"]:
        hands[part["seat"]] = part["data"]["hand"]
    data = opened["data"]
    return {"deal": data["deal"], "dealer": data["dealer"], "discard_top": data["discard_top"],
            "hands": hands}
