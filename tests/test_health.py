"""The project answers: health check, admin, API schema and docs, home page."""

import pytest
from django.db import OperationalError

pytestmark = pytest.mark.django_db


def test_health_is_ok_when_the_database_answers(client):
    response = client.get("/api/v1/health")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


def test_health_is_503_when_the_database_fails(client, database_down):
    with database_down(OperationalError("down")):
        response = client.get("/api/v1/health")

    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "error"}


def test_the_admin_login_page_is_reachable(client):
    response = client.get("/admin/login/")

    assert response.status_code == 200
    assert b'name="username"' in response.content


def test_the_openapi_schema_is_served(client):
    response = client.get("/api/v1/openapi.json")

    assert response.status_code == 200
    schema = response.json()
    assert schema["info"]["title"] == "Ladder Rummy API"
    assert "/api/v1/health" in schema["paths"]


def test_the_api_docs_load_swagger_from_local_static_files(client):
    response = client.get("/api/v1/docs")

    assert response.status_code == 200
    assert b"/static/ninja/" in response.content
    assert b"cdn." not in response.content


def test_the_home_page_renders(client):
    response = client.get("/")

    assert response.status_code == 200
    assert b"Ladder Rummy" in response.content
