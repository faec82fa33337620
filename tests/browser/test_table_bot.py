"""docs/examples/table_bot.py, the bot to copy (docs/api.md, "A bot to copy"): two copies of
it, run as a third party would run them (their own processes, over HTTP and websockets),
sit at one table on the served site (``site``: no browser, the real ASGI serving path) and
play a whole game to its end on the game's frames alone, under the default rate limits:
the game finishes, every frame each heard validates against its schema in the AsyncAPI
document, and no answer was a 429. Prints how long after one bot sent an action the other
heard its frame (p50, p99)."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import statistics
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from django.conf import settings
from django.core.cache import cache

from games.models import Game
from tests.frames import asyncapi_document, frame_checker

BOT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "table_bot.py"


def bot_module():
    spec = importlib.util.spec_from_file_location("table_bot", BOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bot_paces_itself_by_the_ratelimit_fields_and_waits_out_a_429(monkeypatch):
    """After an answer whose window is used up (r=0) it waits t seconds before its next call;
    a 429 it waits out for Retry-After seconds and sends again."""
    answers = iter([
        httpx.Response(200, json={}, headers={"RateLimit": '"actions";r=1;t=40'}),
        httpx.Response(200, json={}, headers={
            "RateLimit": '"table_codes";r=3;t=500, "actions";r=0;t=7'}),
        httpx.Response(429, json={}, headers={"Retry-After": "12"}),
        httpx.Response(200, json={"done": True})])
    slept, throttled = [], []

    async def sleep(seconds):
        slept.append(seconds)

    module = bot_module()
    # The bot's own name for asyncio only: the served site's thread sleeps too.
    monkeypatch.setattr(module, "asyncio", SimpleNamespace(sleep=sleep))
    api = module.Api("http://bots.example")
    api.http = httpx.AsyncClient(base_url="http://bots.example/api/v1",
                                 transport=httpx.MockTransport(lambda request: next(answers)))
    api.throttled = throttled.append

    async def three_calls():
        await api.json("POST", "/games/g/actions", {})
        await api.json("POST", "/games/g/actions", {})
        return await api.json("POST", "/games/g/actions", {})

    assert asyncio.run(three_calls()) == {"done": True}
    assert slept == [0.0, 0.0, 7.0, 12.0]
    assert len(throttled) == 1


@pytest.fixture(autouse=True)
def no_throttles():
    """Unlike the folder's fixture of this name, the default limits stand: the bots must
    pace themselves under them. Only the counts are cleared."""
    cache.clear()
    yield
    cache.clear()


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.slow
def test_two_copies_of_the_bot_play_a_whole_table_game_on_frames_alone(site, tmp_path):
    assert settings.THROTTLE_RATES["actions"] and settings.THROTTLE_RATES["identities"]
    logs = {"host": tmp_path / "host.jsonl", "guest": tmp_path / "guest.jsonl"}
    bot = [sys.executable, str(BOT), "--server", site.url]
    host = subprocess.Popen([*bot, "--log", logs["host"]], stdout=subprocess.PIPE, text=True)
    try:
        code = host.stdout.readline().strip()
        assert code, "the host printed no table code"
        # The guest opens its sockets with tickets, the host with its bearer token.
        guest = subprocess.run([*bot, "--join", code, "--ticket", "--name", "Guest Bot",
                                "--log", logs["guest"]], timeout=150, check=False)
        assert guest.returncode == 0
        assert host.wait(timeout=30) == 0
    finally:
        host.kill()
        host.stdout.close()

    game = Game.objects.get()
    assert game.status == "finished"
    heard = {who: lines(path) for who, path in logs.items()}
    checks = {channel: frame_checker(asyncapi_document(), channel) for channel in ("game", "table")}
    for notes in heard.values():
        assert [n for n in notes if "throttled" in n] == []
        for note in notes:
            if "frame" in note:
                checks[note["channel"]][0](note["frame"])
        assert [n["frame"]["t"] for n in notes if "frame" in n][-1] == "game_finished"
    # Frames alone: each read the game once when its socket opened, then only after a frame
    # that named its seat (0 the host's, 1 the guest's: the lowest free seat) as the next to
    # move, and played every turn it had.
    for seat, notes in enumerate((heard["host"], heard["guest"])):
        frames = [n["frame"] for n in notes if n.get("channel") == "game"]
        named = sum(f["data"].get("turn" if f["t"] == "discarded" else "first") == seat
                    for f in frames if f["t"] in ("discarded", "deal_started"))
        turns = sum(n.get("action") == "draw" for n in notes)
        assert turns > 20 and sum("read" in n for n in notes) <= named + 1 <= turns + 1
    assert checks["game"][1]["game_finished"] == 2

    # An action sent at version v is the frame of version v + 1 on the other's socket, once
    # that is open (the host may move before the guest's socket opens: the guest's first read
    # catches that up).
    latencies = []
    for mover, other in (("host", "guest"), ("guest", "host")):
        first_heard = {}
        for note in heard[other]:
            if note.get("channel") == "game":
                first_heard.setdefault(note["frame"]["v"], note["at"])
        sent = [n for n in heard[mover] if "sent" in n and n["sent"] + 1 >= min(first_heard)]
        assert len(sent) > 100
        latencies += [(first_heard[n["sent"] + 1] - n["at"]) * 1000 for n in sent]
    cuts = statistics.quantiles(latencies, n=100)
    print(f"\n{len(latencies)} actions, version {game.version}: one bot's action to the "
          f"other's frame p50 {cuts[49]:.1f} ms, p99 {cuts[98]:.1f} ms, max {max(latencies):.1f}")
