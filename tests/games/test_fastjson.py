"""orjson (games.fastjson) writes and reads the JSON values the standard library did."""

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.db import connection
from django.utils.translation import gettext_lazy
from ninja.responses import NinjaJSONEncoder

from games import services
from games.fastjson import ColumnEncoder, dumps
from tests.factories import player_with_token, practice_game

BODY = {
    "created_at": dt.datetime(2026, 12, 2, 14, 5, 6, 789123, tzinfo=dt.UTC),
    "naive": dt.datetime(2026, 12, 2, 14, 5, 6, 789123),
    "day": dt.date(2026, 12, 2),
    "at": dt.time(9, 30, 1, 250000),
    "amount": Decimal("1.50"),
    "label": gettext_lazy("Not found."),
    "name": "ณัฐ José",
    "by_seat": {1: "Ada", 2: ["Bruno", None, True, 2.5]},
}


def test_values_are_those_of_ninjas_encoder():
    assert json.loads(dumps(BODY)) == json.loads(json.dumps(BODY, cls=NinjaJSONEncoder))


def test_datetimes_keep_djangos_milliseconds_and_z():
    assert json.loads(dumps(BODY))["created_at"] == "2026-12-02T14:05:06.789Z"


@pytest.mark.django_db
def test_api_answers_through_it(client):
    response = client.get("/api/v1/health")
    assert response.content == b'{"status":"ok","database":"ok"}'


@pytest.mark.django_db
def test_the_columns_hold_json_the_standard_library_reads():
    player, _token = player_with_token()
    game = practice_game(player, "normal")
    services.act(game.public_id, player, game.version, {"type": "draw", "from": "stock"})
    game.refresh_from_db()
    with connection.cursor() as cursor:
        cursor.execute("SELECT state FROM games_game WHERE id = %s", [game.pk])
        stored_state = json.loads(cursor.fetchone()[0])
        cursor.execute('SELECT action FROM games_gameaction WHERE game_id = %s ORDER BY "index"',
                       [game.pk])
        stored_actions = [json.loads(row[0]) for row in cursor.fetchall()]
    assert stored_state == game.state == game.load_state().to_json()
    assert stored_actions == [a.action for a in game.actions.order_by("index")]


def test_the_column_encoder_sorts_and_indents_when_asked():
    value = {"b": 1, "a": [1, 2]}
    assert json.dumps(value, cls=ColumnEncoder) == '{"b":1,"a":[1,2]}'
    assert json.dumps(value, cls=ColumnEncoder, sort_keys=True) == '{"a":[1,2],"b":1}'
    assert json.loads(json.dumps(value, cls=ColumnEncoder, indent=2)) == value
    assert "\n" in json.dumps(value, cls=ColumnEncoder, indent=2)
