"""Websocket routes of the leagues app, collected by ladder/asgi.py."""

from django.urls import re_path

from leaderboards.leagues.consumers import LeagueConsumer

websocket_urlpatterns = [
    re_path(r"^ws/leagues/(?P<league_id>[A-Za-z0-9_-]{1,32})/$", LeagueConsumer.as_asgi()),
]
