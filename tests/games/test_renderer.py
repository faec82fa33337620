"""The API's renderer (games.web.renderer, orjson) writes the values django-ninja's own did."""

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.utils.translation import gettext_lazy
from ninja.responses import NinjaJSONEncoder

from games.web.renderer import dumps

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
