"""The league pages: served under the site's policy (no inline code), a league's page only to
its members (404 otherwise, as the API), a join link's page to anyone; nothing about leagues
on the public pages."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import Client

from games.players.identity import COOKIE_NAME, set_player_cookie
from tests.frontend.test_csp_markup import Offences
from tests.languages import LANGUAGES
from tests.leaderboards.factories import player
from tests.leaderboards.leagues.factories import league_with

pytestmark = pytest.mark.django_db


def browser_of(someone) -> Client:
    client = Client()
    signed = HttpResponse()
    set_player_cookie(signed, someone)
    client.cookies[COOKIE_NAME] = signed.cookies[COOKIE_NAME].value
    return client


@pytest.fixture
def league():
    return league_with(player("Ana")[0], name="Secret Society")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_league_pages_have_no_inline_scripts_handlers_or_styles(league, lang):
    client = browser_of(league.creator)
    client.cookies["django_language"] = lang
    for path in ("/leagues/", f"/leagues/join/{league.code}/", f"/leagues/{league.public_id}/"):
        response = client.get(path)
        assert response.status_code == 200
        parser = Offences()
        parser.feed(response.content.decode())
        assert parser.found == [], path


@pytest.mark.parametrize(("lang", "heading", "column"), [
    ("en", "Yesterday's daily", "Replay"), ("es", "La diaria de ayer", "Repetición"),
    ("th", "เกมประจำวันของเมื่อวาน", "ดูย้อนหลัง")])
def test_a_leagues_page_has_yesterdays_board_with_a_replay_column(league, lang, heading,
                                                                   column):
    """The shell's section, hidden until the script fills it from the API's ``yesterday``
    (each entry's game: a link to /replay/<id>/)."""
    client = browser_of(league.creator)
    client.cookies["django_language"] = lang
    body = client.get(f"/leagues/{league.public_id}/").content.decode()
    section = body[body.index("data-yesterday "):body.index("data-yesterday-rows")]
    assert "hidden" in section.split(">", 1)[0]
    assert heading in section and f">{column}</th>" in section


def test_a_leagues_page_is_404_for_a_stranger_and_a_new_browser(league):
    for client in (browser_of(player("Eve")[0]), Client()):
        response = client.get(f"/leagues/{league.public_id}/")
        assert response.status_code == 404
        assert b"Secret Society" not in response.content


def test_the_join_page_does_not_print_the_league(league):
    body = Client().get(f"/leagues/join/{league.code}/").content
    assert b"Secret Society" not in body  # the script asks the API's preview


def test_public_pages_say_nothing_of_a_league(league):
    for path in ("/", "/daily/", "/leaderboard/", "/api/v1/leaderboards/daily"):
        assert b"Secret Society" not in Client().get(path).content
