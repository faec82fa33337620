"""The websocket tests' sockets: a communicator on ladder.asgi's application (the site's own
routing, Origin validation and authentication), opened with a bearer token."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

from ladder.asgi import application


def bearer_socket(path: str, token: str | None) -> WebsocketCommunicator:
    """A socket on ``path`` (``/ws/...``) sent with ``token`` (None: no identity at all)."""
    headers = [(b"authorization", f"Bearer {token}".encode())] if token else []
    return WebsocketCommunicator(application, path, headers=headers)
