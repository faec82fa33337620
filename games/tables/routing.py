"""Websocket routes of tables, collected by ladder/asgi.py."""

from django.urls import re_path

from games.tables.consumers import TableConsumer

websocket_urlpatterns = [
    re_path(r"^ws/tables/(?P<table_id>[A-Za-z0-9_-]{1,32})/$", TableConsumer.as_asgi()),
]
