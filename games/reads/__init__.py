"""What a person sees of a game from their seat, read from its rows and never written (the
writes are games.services'): the GameView, the current deal's log, a game in the list of
games, and a check of the snapshot against the log. ``replays`` gives a finished game move by
move, ``hints`` the expert's advice on the person's turn.
"""

from __future__ import annotations

from django.utils import timezone

from games.engine import (
    FINISHED,
    GameState,
    action_from_json,
    apply,
    new_game,
    player_view,
    replay,
    result_json,
)
from games.models import Game, Seat
from games.players.models import Player
from games.services import Seated, seat_message
from games.services.timers import in_break, seconds_left


def game_view(seated: Seated, state: GameState | None = None) -> dict:
    """The GameView (docs/api.md): the PlayerView of the asker's seat plus the game's own
    fields. Never the seed, other hands or the stock (R25)."""
    game, seating = seated.game, seated.seating
    state = state or game.load_state()
    view = player_view(state, seated.seat).to_json()
    for info in view["players"]:
        seat = info["seat"]
        info["name"] = seating.name(seat)
        info["bot"] = not seating.is_person(seat)
        info["away"] = seating.away(seat)
    deadline, now = game.turn_deadline, timezone.now()
    return {
        "id": game.public_id, "mode": game.mode, "level": game.level,
        "daily": game.daily.date.isoformat() if game.daily_id else None,
        "table_name": game.table_name or None,
        "status": game.status, "version": game.version, **view,
        "result": result_json(state) if state.phase == FINISHED else None,
        "created_at": game.created_at, "finished_at": game.finished_at,
        "turn_seconds": game.turn_seconds, "turn_deadline": deadline,
        "turn_seconds_left": seconds_left(deadline, now),
        "break_until": game.break_until if in_break(game, now) else None,
        # Only where a clock runs: the page measures its offset from the server's by it.
        "server_time": now if game.turn_seconds else None,
    }


def deal_log(seated: Seated) -> dict:
    """The current deal's public events as the asker's seat saw them or may see them (R25:
    through ``Event.for_seat`` only), from a replay of the log; ``seen`` is the version right
    after that seat's last action and ``before`` the GameView at that moment, so a page
    arriving later can play the other players' moves since then. Events start where the
    current deal does, or earlier when the moves since ``seen`` began in the previous deal."""
    game, mine, seating = seated.game, seated.seat, seated.seating
    state, events = new_game(game.seed)
    messages = [seat_message(event, 0, mine) for event in events]
    deal_from, seen, seen_at, seen_state = 0, 0, len(messages), state
    rows = game.actions.order_by("index").values_list("seat", "action", "bot")
    for seat, data, bot in rows:
        state, events = apply(state, seat, action_from_json(data))
        for event in events:
            if event.type == "deal_started":
                deal_from = len(messages)
            message = seat_message(event, state.actions, mine)
            # A person's move the bot chose for them (their time ran out, or they were away):
            # the page words it as the computer's, never as theirs. A seat whose person left
            # is a computer player's now, named as one.
            if bot and seating.is_person(seat):
                message["bot"] = True
            messages.append(message)
        if seat == mine:
            seen, seen_at, seen_state = state.actions, len(messages), state
    before = {**game_view(seated, seen_state), "version": seen}
    if seen_state.phase != FINISHED:
        before |= {"status": Game.ACTIVE, "result": None, "finished_at": None}
    return {"version": game.version, "seen": seen, "before": before,
            "events": messages[min(deal_from, seen_at):]}


def game_summaries(games: list[Game], player: Player) -> list[dict]:
    """A page of ``player``'s games in their list (``games`` from
    ``Game.objects.of(player).with_deal()``), each with the other people who sat at it (a
    table's game: its friends, those who left it too), read for the whole page at once."""
    others: dict[int, list[dict]] = {game.pk: [] for game in games}
    rows = (Seat.objects.filter(game_id__in=list(others)).exclude(player=player)
            .order_by("game_id", "number").values_list("game_id", "number", "player__name"))
    for game_id, number, name in rows:
        others[game_id].append({"seat": number, "name": name})
    return [{**game_summary(game), "people": others[game.pk]} for game in games]


def game_summary(game: Game) -> dict:
    """A game in the list of a player's games; ``game`` comes from
    ``Game.objects.of(player).with_deal()``: the result is that player's."""
    return {
        "id": game.public_id, "mode": game.mode, "level": game.level,
        "daily": game.daily.date.isoformat() if game.daily_id else None,
        "table_name": game.table_name or None,
        "status": game.status, "version": game.version, "deal": game.deal,
        "result": ({"contracts": game.seat_contracts, "penalty": game.seat_penalty,
                    "place": game.seat_place} if game.finished else None),
        "created_at": game.created_at, "updated_at": game.updated_at,
        "finished_at": game.finished_at,
    }


def check_replay(game: Game) -> bool:
    """Does the stored snapshot equal replay(seed, actions)?"""
    log = game.actions.order_by("index").values_list("seat", "action")
    rebuilt = replay(game.seed, [(seat, action_from_json(a)) for seat, a in log])
    return rebuilt.to_json() == game.state

