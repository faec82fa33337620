"""The embedded default's bridge from other processes to the server's sockets.

Without Redis (``./dev serve``) the channel layer is Channels' in-memory one, which lives in
the server's process; the Celery worker (a turn played when its timer ran out) and
management commands are other processes, and their group sends would reach nobody. They
put each send on a queue of Celery's own broker, a folder (kombu's filesystem transport,
ladder/settings.py), and the server drains that queue onto its loop, where
:mod:`games.web.groups` sends it as its own. With Redis none of this runs: every process
publishes to Redis.

It uses kombu's documented ``SimpleQueue``; a send is a file the server reads within
``POLL_S``. It replaces no stock part for speed, so it claims no share of an action: a stock
layer that crosses processes needs a server (Redis), which the embedded default has not
(docs/design.md, "Hand-made parts, and why"). tests/production/test_dev_serve.py hears a
turn the worker played through it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from queue import Empty

from celery import current_app
from django.conf import settings
from kombu import Connection

logger = logging.getLogger(__name__)

QUEUE = "ladder.group_sends"
POLL_S = 0.1

_listening = threading.Lock()
_listener: threading.Thread | None = None


def needed() -> bool:
    """Whether group sends cross processes through the broker: an in-memory layer beside a
    broker in a folder (``./dev serve``; the tests' broker is memory, their layer their own)."""
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    return (backend.endswith("InMemoryChannelLayer")
            and current_app.conf.broker_url.startswith("filesystem"))


def _connection() -> Connection:
    return Connection(settings.CELERY_BROKER_URL,
                      transport_options={**settings.CELERY_BROKER_TRANSPORT_OPTIONS,
                                         "polling_interval": POLL_S})


def send(group: str, message: dict) -> None:
    """Queue one group send for the server's process (from a worker or a command)."""
    with _connection() as connection, connection.SimpleQueue(QUEUE) as queue:
        queue.put({"group": group, "message": message}, serializer="json")


def listen(deliver: Callable[[str, dict], None]) -> None:
    """In the server's process, once: a thread hands every queued send to ``deliver``."""
    global _listener
    with _listening:
        if _listener is None:
            _listener = threading.Thread(target=_drain, args=(deliver,), daemon=True,
                                         name="group-send-relay")
            _listener.start()


def _drain(deliver: Callable[[str, dict], None]) -> None:
    while True:
        try:
            with _connection() as connection, connection.SimpleQueue(QUEUE) as queue:
                while True:
                    try:
                        received = queue.get(block=True, timeout=1.0)
                    except Empty:
                        continue
                    received.ack()
                    deliver(received.payload["group"], received.payload["message"])
        except Exception:  # the folder went away, a bad file: log, wait, start again
            logger.warning("The group-send relay failed; restarting", exc_info=True)
            threading.Event().wait(1.0)
