"""Publishing a write's events after commit: each person's seat hears them on its own
channel group, filtered for that seat (R25); games.consumers forwards them to the sockets."""

from __future__ import annotations

from functools import partial

from django.db import transaction

from games.engine import Event
from games.services.seating import Seating
from games.web.groups import group_send


def group_name(game_public_id: str, seat: int) -> str:
    """The channel group of one seat of a game: its frames are filtered for that seat."""
    return f"game.{game_public_id}.{seat}"


def seat_message(event: Event, version: int, seat: int) -> dict:
    """An event as ``seat`` may see it (R25): ``{"v", "t", "data"}``."""
    data = event.for_seat(seat)
    data.pop("type", None)
    return {"v": version, "t": event.type, "data": data}


def publish_after_commit(game_public_id: str, seating: Seating,
                         happened: list[tuple[int, Event]], before: list[dict] = (),
                         after: list[dict] = ()) -> dict[int, list[dict]]:
    """Each person's seat's messages, published after commit (with the frames ``before``
    and ``after`` them that every seat hears: the timers' news); returns the messages by
    seat."""
    published = {seat: [seat_message(event, version, seat) for version, event in happened]
                 for seat in seating.people}
    for seat, messages in published.items():
        frames = [*before, *messages, *after] if before or after else messages
        if frames:
            transaction.on_commit(partial(publish, game_public_id, seat, frames),
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
