"""Lighthouse scores and the play page's weight, under production settings.

    .venv/bin/python bench/lighthouse.py [--preset mobile|desktop] [--runs N]

Serves the site as production does (DEBUG=false, ``collectstatic`` into ``staticfiles/``,
WhiteNoise's compressed manifest storage; SQLite in a temporary folder, no Redis) with uvicorn
on a free loopback port, makes one player with two practice games (one played to its end), then:

- runs the npm ``lighthouse`` CLI on Debian's Chromium (``CHROME_PATH``, default
  /usr/bin/chromium, started by Playwright with the player's cookie) against the home page,
  that game's play page and the replay of a second game played to its end (with the expert's
  review), ``--runs`` times each, and prints the median performance,
  accessibility and best-practices scores;
- loads the play page once in a fresh Chromium with Playwright and prints the bytes
  transferred (headers and encoded bodies, as the network carried them), fonts apart.

Lighthouse is installed on first use into bench/node_modules (git-ignored):
``npm install --prefix bench --no-save lighthouse``. Mobile is Lighthouse's default preset
(a throttled mid-range phone); ``--preset desktop`` is the laptop one.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
PYTHON = str(REPO / ".venv" / "bin" / "python")
LIGHTHOUSE = BENCH / "node_modules" / ".bin" / "lighthouse"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CATEGORIES = ("performance", "accessibility", "best-practices")
WEIGHT_LIMIT_KB = 150  # issue 23: the play page's first load, fonts apart

MAKE_GAME = """
from django.http import HttpResponse
from games import services
from games.players.services import create_player  # noqa: E402
from games.players.identity import COOKIE_NAME, set_player_cookie
from games.engine import PLAY, best_lay_down, player_view
from games.engine.cards import card_id
from games.models import Game
player = create_player(name="Lighthouse")
game = services.start_game(player, Game.PRACTICE, "normal").game
over = services.start_game(player, Game.PRACTICE, "normal").game
while over.status == Game.ACTIVE:  # a plain person to the end, for the replay page
    view = player_view(over.load_state(), 0)
    found = view.legal.lay_down and best_lay_down(view.hand, view.me.contract,
                                                  view.situation.forbidden_face)
    if view.phase != PLAY:
        action = {"type": "draw", "from": "stock"}
    elif found:
        action = {"type": "lay_down", "melds": [[card_id(c) for c in m.cards] for m in found[0]]}
    else:
        action = {"type": "discard", "card": card_id(view.legal.discards[0])}
    over = services.act(over.public_id, player, over.version, action).game
response = HttpResponse()
set_player_cookie(response, player)
print(game.public_id, over.public_id, COOKIE_NAME, response.cookies[COOKIE_NAME].value)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def production_env(folder: Path) -> dict:
    return {**os.environ, "DEBUG": "false", "SECRET_KEY": "lighthouse-" + secrets.token_urlsafe(40),
            "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "false",
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}", "REDIS_URL": "",
            "LOG_LEVEL": "WARNING"}


def manage(env: dict, *args: str) -> str:
    return subprocess.run([PYTHON, "manage.py", *args], cwd=REPO, env=env, check=True,
                          capture_output=True, text=True).stdout.strip()


def wait_until_up(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"the server did not answer at {url}")


def ensure_lighthouse() -> None:
    if not LIGHTHOUSE.exists():
        subprocess.run(["npm", "install", "--prefix", str(BENCH), "--no-save", "--no-audit",
                        "--no-fund", "lighthouse"], check=True)


def lighthouse(url: str, cookie: dict, preset: str, out: Path) -> dict[str, int]:
    """One Lighthouse run on a fresh Chromium profile that holds the player's cookie (set
    through Playwright, as a browser would keep it: an extra Cookie header would reach the
    page but not its scripts' requests). Lighthouse keeps the profile's storage
    (``--disable-storage-reset``); the profile is new, so the cache is empty."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    with tempfile.TemporaryDirectory(prefix="ladder-chromium-") as profile, \
            sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROME, headless=True,
            args=["--no-sandbox", "--disable-gpu", f"--remote-debugging-port={port}"])
        context.add_cookies([cookie])
        command = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
                   f"--port={port}", "--disable-storage-reset",
                   "--only-categories=" + ",".join(CATEGORIES)]
        if preset == "desktop":
            command.append("--preset=desktop")
        try:
            subprocess.run(command, check=True)
        finally:
            context.close()
    report = json.loads(out.read_text())
    return {name: round(report["categories"][name]["score"] * 100) for name in CATEGORIES}


def play_page_weight(url: str, cookies: list[dict]) -> dict:
    """Bytes transferred by the play page's first load in a fresh browser (empty cache), by
    kind, fonts apart; the page counts as loaded once the network has been idle. Also the
    icon requests (the favicon among them: one, the hashed static file, never /favicon.ico)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROME, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_cookies(cookies)
        page = context.new_page()
        finished = []
        page.on("requestfinished", lambda request: finished.append(request))
        page.goto(url, wait_until="networkidle")
        totals: dict[str, int] = {}
        for request in finished:
            sizes = request.sizes()
            size = sizes["responseHeadersSize"] + sizes["responseBodySize"]
            kind = "font" if request.resource_type == "font" else "other"
            totals[kind] = totals.get(kind, 0) + size
            totals["requests"] = totals.get("requests", 0) + 1
            if "icon" in request.url.rsplit("/", 1)[-1]:
                totals.setdefault("icons", []).append(f"{request.url} ({size} B)")
        browser.close()
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", choices=("mobile", "desktop"), default="mobile")
    parser.add_argument("--runs", type=int, default=3,
                        help="Lighthouse runs per page (median); 0: the page weight only")
    args = parser.parse_args()
    ensure_lighthouse()
    folder = Path(tempfile.mkdtemp(prefix="ladder-lighthouse-"))
    env = production_env(folder)
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    game_id, over_id, cookie_name, cookie_value = manage(
        env, "shell", "-v", "0", "-c", MAKE_GAME).split()
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    uvicorn = str(REPO / ".venv" / "bin" / "uvicorn")
    server = subprocess.Popen([uvicorn, "ladder.asgi:application", "--host", "127.0.0.1",
                               "--port", str(port), "--log-level", "warning"], cwd=REPO, env=env)
    try:
        wait_until_up(origin + "/")
        pages = {"home": origin + "/", "play": f"{origin}/play/{game_id}/",
                 "replay": f"{origin}/replay/{over_id}/"}
        cookie = {"name": cookie_name, "value": cookie_value, "url": origin}
        if args.runs:
            print(f"lighthouse ({args.preset}, median of {args.runs}) on {CHROME}")
        for name, url in pages.items() if args.runs else ():
            runs = [lighthouse(url, cookie, args.preset, folder / f"{name}-{i}.json")
                    for i in range(args.runs)]
            medians = {c: statistics.median(r[c] for r in runs) for c in CATEGORIES}
            print(f"  {name:6} " + "  ".join(f"{c} {medians[c]:g}" for c in CATEGORIES)
                  + f"   (runs: {[[r[c] for c in CATEGORIES] for r in runs]})")
        for lang in ("en", "th"):
            language = {"name": "django_language", "value": lang, "url": origin}
            weight = play_page_weight(pages["play"], [cookie, language])
            other_kb, font_kb = weight.get("other", 0) / 1024, weight.get("font", 0) / 1024
            verdict = "within" if other_kb <= WEIGHT_LIMIT_KB else "OVER"
            print(f"play page first load ({lang}): {other_kb:.1f} KB transferred without fonts "
                  f"({verdict} {WEIGHT_LIMIT_KB} KB), fonts {font_kb:.1f} KB, "
                  f"{weight.get('requests', 0)} requests; icons: {weight.get('icons', [])}")
        print(f"reports: {folder}")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
