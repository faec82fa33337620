"""While PostgreSQL is unreachable the API answers 503 JSON with Retry-After, never 500
(ladder/api.py, ladder/middleware.py); bench/faults.py shows it for real."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client

from tests.production.conftest import API, post_json

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_an_endpoint_whose_database_is_away_answers_503_with_retry_after(player, error,
                                                                         database_down):
    _, client = player
    with database_down(error("server closed")):
        response = client.get(f"{API}/games/abcdefghijklmnop")

    assert response.status_code == 503
    assert response.json()["error"]["code"] == "unavailable"
    assert int(response["Retry-After"]) >= 1


def test_authentication_that_cannot_reach_the_database_is_503_not_500(player, database_down):
    _, client = player
    with database_down(OperationalError("connection refused")):
        response = post_json(client, "/games", {"mode": "practice", "level": "easy"})

    assert response.status_code == 503


def test_a_page_whose_database_is_away_answers_503(settings):
    from ladder.middleware import DatabaseUnavailableMiddleware

    request = mock.Mock(path="/", method="GET")
    response = DatabaseUnavailableMiddleware(lambda r: None).process_exception(
        request, OperationalError("connection refused"))

    assert response.status_code == 503
    assert response["Retry-After"]


def test_other_errors_are_not_mistaken_for_an_outage():
    from ladder.middleware import DatabaseUnavailableMiddleware

    request = mock.Mock(path="/", method="GET")

    assert DatabaseUnavailableMiddleware(lambda r: None).process_exception(
        request, ValueError("bug")) is None


def test_the_health_check_reports_the_database(client: Client, database_down):
    with database_down(OperationalError("down")):
        response = client.get(f"{API}/health")

    assert response.status_code == 503
