"""Redirects built from a request go only to a path of this site (issue 29): the ``?lang=``
link (frontend/middleware.py) and the language picker's ``next`` (Django's set_language);
the language cookie is SameSite=Lax, and Secure in production."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.test import RequestFactory, override_settings
from django.utils.http import url_has_allowed_host_and_scheme

from frontend.middleware import LanguageFromLinkMiddleware

pytestmark = pytest.mark.django_db

# Paths as they reach Django (PATH_INFO, already percent-decoded once by the server) that a
# browser would read as another site if sent back as a Location.
HOSTILE_PATHS = [
    "//evil.example/", "//evil.example", "///evil.example/", "////evil.example/",
    "/\\evil.example/", "/\\\\evil.example/", "\\\\evil.example/", "/\\/evil.example/",
    "/%2F%2Fevil.example/", "/%2f%2fevil.example/", "/%5C%5Cevil.example/",
    "/%252F%252Fevil.example/", "http:evil.example/", "http://evil.example/",
    "https:/evil.example/", "/\t/evil.example/", "/\n/evil.example/", "//evil.example%2F..",
    "//évil.example/", "//evil.example:443/", "/%09/evil.example/", " //evil.example/",
]


def lang_redirect(path: str, query: str = "lang=es"):
    # PEP 3333: PATH_INFO holds the path's bytes as latin-1.
    request = RequestFactory().request(PATH_INFO=path.encode().decode("latin-1"),
                                       QUERY_STRING=query)
    return LanguageFromLinkMiddleware(lambda r: None)(request)


def is_same_site(location: str) -> bool:
    return (url_has_allowed_host_and_scheme(location, allowed_hosts={"testserver"})
            and not urlsplit(location).netloc and location.startswith("/")
            and not location.startswith(("//", "/\\")))


@pytest.mark.parametrize("path", HOSTILE_PATHS)
def test_a_lang_link_never_redirects_to_another_site(path):
    response = lang_redirect(path)

    assert response.status_code == 302
    assert is_same_site(response["Location"]), response["Location"]


@pytest.mark.parametrize("path", ["//evil.example/", "/%2F%2Fevil.example/", "/\\evil.example/"])
def test_a_hostile_lang_link_through_the_whole_stack_stays_home(client, path):
    response = client.get(path, {"lang": "es"})

    assert response.status_code == 302
    assert is_same_site(response["Location"]), response["Location"]
    assert response.cookies["django_language"].value == "es"


def test_a_lang_link_still_keeps_the_page_and_the_rest_of_its_query():
    response = lang_redirect("/daily/2030-03-06/", "lang=th&v=3")

    assert response["Location"] == "/daily/2030-03-06/?v=3"


def test_a_lang_link_to_a_page_with_non_ascii_in_its_path_keeps_it_encoded():
    response = lang_redirect("/players/ñandú/")

    assert response["Location"] == "/players/%C3%B1and%C3%BA/"


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil.example",
                                    "http:evil.example", "/%2F%2Fevil.example/"])
def test_the_language_pickers_next_never_leaves_the_site(client, target):
    response = client.post("/i18n/setlang/", {"language": "es", "next": target})

    assert response.status_code == 302
    assert is_same_site(response["Location"]), response["Location"]


def test_the_language_cookie_is_samesite_lax(client):
    cookie = client.get("/", {"lang": "es"}).cookies["django_language"]

    assert cookie["samesite"] == "Lax"


def test_production_settings_make_the_language_cookie_secure(production_settings):
    assert production_settings.LANGUAGE_COOKIE_SECURE is True
    assert production_settings.LANGUAGE_COOKIE_SAMESITE == "Lax"


@override_settings(LANGUAGE_COOKIE_SECURE=True)
def test_the_lang_link_sets_the_cookie_as_the_settings_say(client):
    cookie = client.get("/", {"lang": "es"}).cookies["django_language"]

    assert cookie["secure"] is True
