"""Playwright for Python driving Debian's Chromium against the site as it is served: the
ASGI application (ladder.asgi) on uvicorn, in a thread of this process (``site``), so pages
open their websockets and tests can still seed games and read the database directly.
With ``SCREENS=1`` the tests' screenshots are saved in ``artifacts/screenshots/`` (git-ignored)
for a person to look at; without it none is taken (a full page's is a tenth of a second of
Chromium's CPU, on a suite bound by CPU). Every page is checked for console errors and for
requests to any host but the site.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.conftest import CHROMIUM

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
SCREENS = bool(os.environ.get("SCREENS"))  # save the screens for a person to look at
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 640}
# A first deal in which the scripted person lays down and then lays off (strategy.find_seed).
SEED = "browser-130"


def counting(css_class: str, counter: str) -> str:
    """An init script that counts the elements of ``css_class`` added to the page in
    ``window[counter]``."""
    return f"""
window.{counter} = 0;
new MutationObserver((records) => {{
  for (const r of records) for (const n of r.addedNodes) {{
    if (n.classList && n.classList.contains("{css_class}")) window.{counter} += 1;
  }}
}}).observe(document, {{childList: true, subtree: true}});
"""


# Counts the cards that fly across the table (controllers/flight.js) in window.__flights.
COUNT_FLIGHTS = counting("flying-card", "__flights")
# Content-Security-Policy violations become console errors, which Watch collects.
REPORT_CSP = """
document.addEventListener("securitypolicyviolation", (e) => console.error(
  `CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""

@pytest.fixture(autouse=True)
def started_at(monkeypatch) -> datetime:
    """The moment this test began, held still for the server's daily clock (games.daily.now,
    which the daily, the boards and the leagues read) and for the browser's own
    (``open_page`` fixes the pages' ``Date`` there: the leaderboard page asks for today's
    board): a test that runs across UTC midnight still sees the day it began in, on both
    sides. A test that asks for the ``clock`` fixture moves the server's clock, not the
    browser's."""
    from tests.factories import Clock

    return Clock(monkeypatch, datetime.now(UTC)).moment


class AsgiServer:
    """``ladder.asgi.application`` on uvicorn, as ``./dev serve`` and production run it, in a
    thread of the test process: every HTTP request and websocket goes through the real
    serving path (ladder/serving.py, Channels' router and consumers)."""

    def __init__(self):
        import uvicorn

        from ladder.asgi import application

        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        config = uvicorn.Config(application, log_level="warning", lifespan="off",
                                access_log=False, proxy_headers=False, ws_max_size=4096)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.socket]}, daemon=True)

    def start(self) -> None:
        from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

        # Its own layer: one that another event loop was receiving on refuses a second loop.
        channel_layers.set(DEFAULT_CHANNEL_LAYER,
                           channel_layers.make_backend(DEFAULT_CHANNEL_LAYER))
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.socket.close()
        # A channel layer receives on one event loop at a time, and this server's consumers may
        # have died mid-receive with its loop: the tests that follow get a fresh layer
        # (Channels' channel_layers.set, made for swapping the backend in tests).
        from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

        channel_layers.set(DEFAULT_CHANNEL_LAYER,
                           channel_layers.make_backend(DEFAULT_CHANNEL_LAYER))


@pytest.fixture(scope="module")
def asgi_server(django_db_setup):
    """One server a test module: once it stops, its event loop no longer takes the sends of
    code outside it (games.web.groups falls back to sending directly), so the tests that follow
    this folder's see Channels as they would without it."""
    server = AsgiServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def site(asgi_server, transactional_db):
    """The served site (``site.url``), on the test database: committed data is seen by both
    sides, and the database is emptied after each test."""
    return asgi_server


@pytest.fixture
def live_server():
    """pytest-django's live server is a WSGI server: no websockets, not the site's serving
    path. Browser tests use ``site``."""
    pytest.fail("browser tests use the `site` fixture (the ASGI application on uvicorn)")


@contextlib.contextmanager
def chromium(**launch_options):
    """Chromium, launched with Playwright. Playwright's sync API keeps an event loop running
    in this thread, so Django's async-safety check is lifted while it runs (as
    pytest-playwright users do): the database calls here are plain synchronous ones."""
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                        **launch_options)
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="module")
def browser(django_db_setup, django_db_blocker):
    """Chromium for one test module."""
    with chromium() as browser:
        yield browser


@pytest.fixture(autouse=True)
def no_throttles(settings):
    """Every browser comes from 127.0.0.1: the rate limits (games/web/throttles.py has their own
    tests) would soon refuse new identities, logins and transfer codes. Off here, counters
    cleared (with Redis they outlive a test)."""
    from django.core.cache import cache

    settings.THROTTLE_RATES = {scope: None for scope in settings.THROTTLE_RATES}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def seeded(monkeypatch):
    """New games get SEED instead of a random seed (the live server runs in this process)."""

    monkeypatch.setattr("games.services.actions.new_seed", lambda: SEED)


class Watch:
    """A page's console errors, uncaught exceptions and requests to other hosts."""

    def __init__(self, page, origin: str):
        self.errors: list[str] = []
        self.foreign: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))

        def request(r):
            scheme = urlsplit(r.url).scheme
            if scheme in ("http", "https", "ws", "wss") and not r.url.startswith(origin):
                self.foreign.append(r.url)

        page.on("request", request)

    def check(self, allow: tuple[str, ...] = ()):
        """No console errors but those containing one of ``allow`` (e.g. "status of 401"
        for a refusal the page explains)."""
        errors = [e for e in self.errors if not any(a in e for a in allow)]
        assert errors == [], f"console errors: {errors}"
        assert self.foreign == [], f"requests to other hosts: {self.foreign}"


@pytest.fixture
def open_page(browser, site, started_at):
    """open_page(viewport, speed="instant", touch=False, ...) -> (page, watch).

    The pages' ``Date`` stands at the test's moment (Playwright's clock: timers still run).

    Pages run under the site's Content-Security-Policy, and a violation is a console error;
    ``csp=False`` bypasses the policy (axe-core is injected as an inline script). Under the
    policy ``page.wait_for_function`` needs a function ("() => ..."): an expression is
    evaluated with eval, which the policy refuses.
    ``reduced_motion="reduce"`` is the system setting. ``ask_joker`` is the table's setting
    (off here: the scripted player throws jokers away by a double click; on for a person)."""
    contexts = []

    def make(viewport=DESKTOP, speed="instant", touch=False, locale="en-GB", csp=True,
             reduced_motion="no-preference", ask_joker=False):
        context = browser.new_context(viewport=viewport, has_touch=touch, locale=locale,
                                      bypass_csp=not csp, reduced_motion=reduced_motion)
        settings = {"speed": speed, "askJoker": ask_joker}
        context.add_init_script(
            f"localStorage.setItem('ladder.settings', {json.dumps(json.dumps(settings))})")
        context.add_init_script(COUNT_FLIGHTS)
        context.add_init_script(REPORT_CSP)
        context.clock.set_fixed_time(started_at)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page, Watch(page, site.url)

    yield make
    for context in contexts:
        context.close()


def shoot(page, name: str, full_page: bool = True) -> None:
    """With SCREENS=1, the page as it is now in ``artifacts/screenshots/<name>.png`` (``name``
    may hold folders): the whole page, or the window only."""
    if SCREENS:
        path = ARTIFACTS / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=full_page)


def axe_violations(page, impacts=("serious", "critical")) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"] if v["impact"] in impacts]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
