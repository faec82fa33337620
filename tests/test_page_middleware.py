"""Django's session, locale, authentication and message middleware serve the pages and the
admin; the API's one translated text follows the asker's language."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_a_page_is_answered_in_the_asked_language(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="es")
    assert response["Content-Language"] == "es"
    assert "Accept-Language" in response["Vary"]


def test_the_admin_still_has_its_session_and_user(client, django_user_model):
    staff = django_user_model.objects.create_user("mod", password="pw-for-tests", is_staff=True)
    client.force_login(staff)
    response = client.get("/admin/")
    assert response.status_code == 200
    assert response.wsgi_request.user == staff


def test_a_weak_password_is_explained_in_the_askers_language(client):
    def refusal(language):
        response = client.post("/api/v1/account/register",
                               {"username": "lucia", "password": "12345678"},
                               content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 422
        return response.json()["error"]["message"]

    english, spanish = refusal("en"), refusal("es")
    assert "too common" in english
    assert spanish != english and "común" in spanish


@pytest.mark.parametrize("path", ["/api/v1/daily", "/api/v1/games", "/api/v1/no-such-thing"])
def test_api_answers_are_never_cached_so_back_shows_the_state_of_now(client, path):
    response = client.get(path)
    assert "no-store" in response["Cache-Control"]


def test_pages_keep_their_own_caching(client):
    assert "no-store" not in client.get("/rules/").get("Cache-Control", "")


def test_the_scripts_catalogue_is_compressed_for_a_browser_that_takes_gzip(client):
    response = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="th", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"


def test_api_answers_set_no_session_cookie_and_do_not_vary_on_it(client):
    """Django's session middleware runs under /api/ too, but nothing there reads a session,
    so an API answer sets no cookie and stays shareable across cookies."""
    response = client.get("/api/v1/health")
    assert response.status_code == 200
    assert "Cookie" not in response.get("Vary", "") and not response.cookies
    assert response["Content-Language"] == "en"


def test_the_api_documentation_page_still_renders(client):
    assert client.get("/api/v1/docs").status_code == 200


def test_pages_keep_their_session_and_user(client):
    response = client.get("/")
    assert hasattr(response.wsgi_request, "session") and hasattr(response.wsgi_request, "user")


@pytest.mark.parametrize("path", ["/api/v1/health", "/rules/"])
def test_answers_name_the_asked_language_and_vary_on_it(client, path):
    """Django's LocaleMiddleware: the language, Vary and Content-Language."""
    response = client.get(path, HTTP_ACCEPT_LANGUAGE="es")
    assert response["Content-Language"] == "es"
    assert "Accept-Language" in response["Vary"]
    assert client.get(path)["Content-Language"] == "en"


def test_api_answers_carry_what_djangos_never_cache_headers_write(client):
    """ladder.middleware.ApiNeverCachedMiddleware: Django's add_never_cache_headers."""
    from django.http import HttpResponse
    from django.utils.cache import add_never_cache_headers
    from django.utils.http import parse_http_date

    djangos = HttpResponse()
    add_never_cache_headers(djangos)
    response = client.get("/api/v1/health")
    assert response["Cache-Control"] == djangos["Cache-Control"]
    assert abs(parse_http_date(response["Expires"]) - parse_http_date(djangos["Expires"])) <= 2
