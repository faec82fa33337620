"""Websocket routes of the games app, collected by ladder/asgi.py."""

from django.urls import re_path

from games.consumers import GameConsumer

websocket_urlpatterns = [
    re_path(r"^ws/games/(?P<game_id>[A-Za-z0-9_-]{1,32})/$", GameConsumer.as_asgi()),
]
