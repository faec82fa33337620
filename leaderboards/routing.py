"""Websocket routes of the leaderboards app, collected by ladder/asgi.py."""

from django.urls import re_path

from leaderboards.consumers import DailyBoardConsumer

websocket_urlpatterns = [
    re_path(r"^ws/leaderboards/daily/$", DailyBoardConsumer.as_asgi()),
]
