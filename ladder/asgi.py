"""ASGI entry point: HTTP goes to Django (on a pool of threads, ladder/serving.py),
websockets to Channels' consumers.

Serve with ``uvicorn ladder.asgi:application`` (docs/production.md): behind a proxy, uvicorn's
``--forwarded-allow-ips`` names it, and uvicorn takes the client's address from its
``X-Forwarded-For``. Every HTTP answer carries the security headers, the serving layer's own
included (ladder/serving.py).
"""

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings")

# Set up Django (apps, models) before anything imports consumers.
django.setup(set_prefix=False)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import re_path  # noqa: E402

from games.routing import websocket_urlpatterns as games_websocket_urlpatterns  # noqa: E402
from games.tables.routing import websocket_urlpatterns as tables_websocket_urlpatterns  # noqa: E402
from games.web.origins import BrowserOrigins  # noqa: E402
from ladder.serving import SecurityHeaders, ThreadedDjango  # noqa: E402
from leaderboards.leagues.routing import websocket_urlpatterns as leagues_websocket_urlpatterns  # noqa: E402
from leaderboards.routing import (  # noqa: E402
    websocket_urlpatterns as leaderboards_websocket_urlpatterns,
)


class UnknownRoute(AsyncWebsocketConsumer):
    """Refuses a websocket path that no app routes (Channels would raise and log a 500): close
    code 4404, after the accept, as the games' socket refuses (games/consumers.py)."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=4404)


websocket_urlpatterns = [
    *games_websocket_urlpatterns,
    *tables_websocket_urlpatterns,
    *leaderboards_websocket_urlpatterns,
    *leagues_websocket_urlpatterns,
    re_path(r"", UnknownRoute.as_asgi()),  # last: the catch-all
]

application = ProtocolTypeRouter(
    {
        "http": SecurityHeaders(ThreadedDjango()),
        # A browser's handshake from another site's page: Channels' OriginValidator (403).
        "websocket": BrowserOrigins(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Everything imported so far (Django, the apps, the engine's tables) lives as long as the
# process: move it out of the garbage collector's sight, so that a full collection walks
# only what requests allocate. A full collection's pause is a source of p99 spikes: 61 ms
# of CPU with nothing frozen, 0.004 ms with the 132 k imported objects frozen
# (bench/parts.py, which CI runs; docs/design.md, "Hand-made parts, and why").
gc.collect()
gc.freeze()
