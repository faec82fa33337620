"""A page on another origin plays through the API and its socket (docs/api.md, "Other
origins"): served by Python's http.server on a second port, it calls the API with a bearer
token (CORS), opens the game's socket with a single-use ticket, and plays a whole practice
game following the socket's frames, under the default rate limits, as fast as the server
answers. The browser's cookies never cross: a cookie-authenticated socket from that page is
refused at its handshake, and a call with credentials gets nothing the page can read."""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path

import pytest

from ladder import settings as defaults

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PAGE = Path(__file__).with_name("other_origin.html")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 (the standard library's name)
        pass


@pytest.fixture
def other_origin(tmp_path):
    """The page, served from a folder of its own on another port of this host."""
    (tmp_path / "index.html").write_bytes(PAGE.read_bytes())
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(tmp_path)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def cookie_of(public_id: str) -> str:
    """The signed player cookie this site would give that player's browser."""
    from django.http import HttpResponse

    from games.players.identity import COOKIE_NAME, set_player_cookie
    from games.players.models import Player

    response = HttpResponse()
    set_player_cookie(response, Player.objects.get(public_id=public_id))
    return response.cookies[COOKIE_NAME].value


def test_a_page_on_another_origin_plays_a_whole_game_through_a_ticketed_socket(
        browser, site, other_origin, settings, seeded):
    from games.players.identity import COOKIE_NAME

    settings.THROTTLE_RATES = dict(defaults.THROTTLE_RATES)  # the defaults, not the suite's off
    assert other_origin != site.url
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{other_origin}/index.html?site={site.url}")
    page.wait_for_function("() => window.ready === true")

    played = page.evaluate("() => window.playGame()")

    assert played["status"] == "finished", played["statuses"][-3:]
    assert set(played["statuses"]) == {200}  # no 429 at full pace under the default limits
    assert played["heard"] == played["answered"]  # every event came on the socket, in order
    assert played["heard"][-1][1] == "game_finished"
    actions = len(played["states"])
    assert actions >= 150  # the deal is the fixed seed's (a random one gave 146 once)
    left_before, reset_before = 600, 60
    for policy, state in played["states"]:  # as the page read them (CORS exposes them)
        assert policy == '"actions";q=600;w=60'
        left, reset = map(int, re.fullmatch(r'"actions";r=(\d+);t=(\d+)', state).groups())
        assert 1 <= reset <= 60
        # one fewer each action, unless a new minute's window opened meanwhile
        assert left == left_before - 1 or (left == 599 and reset > reset_before), state
        left_before, reset_before = left, reset
    print(f"other origin: {actions} actions in {played['seconds']:.1f} s")

    # The ticket was used: it opens nothing again.
    used = page.evaluate("([game, ticket]) => window.closeCode(window.ticketed(game, ticket))",
                         [played["game"], played["ticket"]])
    assert used == 4401

    # This browser holds the player's cookie for the site's host; from this page, a socket
    # without a ticket is refused for its origin, and the API is no door for the cookie.
    host = site.url.removeprefix("http://").split(":")[0]
    context.add_cookies([{"name": COOKIE_NAME, "value": cookie_of(played["player"]),
                          "domain": host, "path": "/"}])
    refused = page.evaluate("(game) => window.closeCode(`${window.sockets}/ws/games/${game}/`)",
                            played["game"])
    assert refused == 1006  # the handshake refused (HTTP 403): the socket never opened
    assert page.evaluate("() => window.withCookies('/me', 'include')") == "refused"
    assert page.evaluate("() => window.withCookies('/me', 'same-origin')") == {
        "status": 401, "code": "no_identity"}
    context.close()
