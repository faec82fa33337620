"""Websocket routes of the games app, collected by ladder/asgi.py."""

websocket_urlpatterns: list = []
