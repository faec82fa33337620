"""HTTP under the ASGI server: Django's WSGI handler on a bounded pool of threads.

Replaces Django's own ASGI handler (``django.core.asgi.get_asgi_application``) for ``http``
scopes. Every view here is synchronous, and under ASGI Django runs each request in a thread
of its own (created and joined per request) and crosses between that thread and the event
loop twice more around the middleware. Measured gain: 23-29 % of an action's CPU (a
request's saving as a share of the action through Django's handler; a bearer's ``GET`` 4.22
ms here, 6.12 ms there), printed by every CI run::

    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python -m bench.parts

(docs/design.md, "Hand-made parts, and why"; issue 40 counted 10.62 -> 8.12 M instructions
an action, 24 %, with ``bench.action_instructions``). Unbounded threads also competed for
the database pool's connections until requests timed out with 503s under load; here at most
``HTTP_THREADS`` requests run at once per process and the rest wait their turn. It uses
Django's public ``WSGIHandler`` and the ASGI and WSGI specifications, nothing private.

Each request crosses from the loop to a thread once: the body is read on the loop (at most
``DATA_UPLOAD_MAX_MEMORY_SIZE`` plus a margin, else 413), the thread runs Django and
collects the whole response (API answers and our static files are small), the loop sends
it. Websockets stay on Channels (ladder/asgi.py); code in the threads sends to Channels
groups on the server's loop through :mod:`games.web.groups`.

Django's middleware puts the security headers on everything Django answers
(ladder/middleware.py); :class:`SecurityHeaders` adds them to what this layer answers itself
(a 413 before Django reads the body, or any other answer written here), only where a header
is missing, so Django's own stay as they are.
"""

from __future__ import annotations

import asyncio
import sys
from concurrent.futures import ThreadPoolExecutor
from io import BytesIO

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler

from games.web import groups
from games.web.errors import CONTENT_TYPE, error_json
from ladder.middleware import PERMISSIONS_POLICY

BODY_MARGIN_BYTES = 64 * 1024  # multipart boundaries and headers around the data


class ClientGone(Exception):
    """The client disconnected before sending the whole request: nothing to answer."""


class ThreadedDjango:
    """An ASGI application for ``http`` scopes."""

    def __init__(self, threads: int | None = None):
        self.handler = WSGIHandler()
        self.executor = ThreadPoolExecutor(max_workers=threads or settings.HTTP_THREADS,
                                           thread_name_prefix="http")
        self.max_body = (settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440) + BODY_MARGIN_BYTES

    async def __call__(self, scope, receive, send) -> None:
        loop = asyncio.get_running_loop()
        groups.use_loop(loop)
        try:
            body = await self._read_body(receive)
        except ClientGone:
            return
        if body is None:
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            await _send(send, 413, [(b"content-type", CONTENT_TYPE.encode())],
                        error_json(413, f"A request body has at most {limit} bytes."))
            return
        status, headers, content = await loop.run_in_executor(
            self.executor, self._run_django, environ_for(scope, body))
        await _send(send, status, headers, content)

    async def _read_body(self, receive) -> bytes | None:
        parts, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise ClientGone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            parts.append(chunk)
            if not message.get("more_body", False):
                return b"".join(parts)

    def _run_django(self, environ: dict) -> tuple[int, list, bytes]:
        started = {}

        def start_response(status, headers, exc_info=None):
            started["status"] = int(status.split(" ", 1)[0])
            started["headers"] = [(k.lower().encode("latin-1"), v.encode("latin-1"))
                                  for k, v in headers]

        response = self.handler(environ, start_response)
        try:
            content = b"".join(response)
        finally:
            response.close()  # request_finished: the database connection goes back to the pool
        return started["status"], started["headers"], content


def environ_for(scope: dict, body: bytes) -> dict:
    """PEP 3333's environ for an ASGI http scope (as uvicorn's and a2wsgi's adapters build it)."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode().decode("latin-1"),
        "PATH_INFO": scope["path"].encode().decode("latin-1"),
        "QUERY_STRING": scope["query_string"].decode("latin-1"),
        "SERVER_PROTOCOL": f"HTTP/{scope['http_version']}",
        "SERVER_NAME": server[0],
        "SERVER_PORT": str(server[1] or 0),
        "REMOTE_ADDR": client[0],
        "REMOTE_PORT": str(client[1]),
        "CONTENT_LENGTH": str(len(body)),  # the whole body is here, even if it came chunked
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        if name == "CONTENT_LENGTH":
            continue
        if name != "CONTENT_TYPE":
            name = "HTTP_" + name
        value = raw_value.decode("latin-1")
        environ[name] = f"{environ[name]},{value}" if name in environ else value
    return environ


async def _send(send, status: int, headers: list, content: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": content})


# For answers with no page in them (errors): nothing may load, frame or be sniffed.
EDGE_SECURITY_HEADERS = (
    (b"content-security-policy",
     b"default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
)


class SecurityHeaders:
    """An ASGI layer for ``http``: the security headers an answer lacks, added as it starts."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                missing = [h for h in EDGE_SECURITY_HEADERS if h[0] not in present]
                if missing:
                    message = {**message, "headers": headers + missing}
            await send(message)

        await self.app(scope, receive, send_with_headers)
