"""The clients to copy (docs/api.md, "A bot to copy"), made and run as a third party would, on
the served site (``site``: no browser, the real ASGI serving path), under the default rate
limits: docs/examples/bot.py on the client openapi-python-client makes from the document
(generated into a temporary folder) plays a practice game; then docs/examples/table_host.ts
(openapi-typescript's types, openapi-fetch and ws from the npm registry, ``tsc --strict``, run
with node) opens a table, bot.py sits down at it by its code, and the two play a whole game
with two bots on the socket frames alone. Every frame either heard validates against its
schema in the AsyncAPI document, every error code is in the document's enum, no answer is a
429. Prints how long the practice game took, and how long after one client sent an action
the other heard its frame (p50, p99)."""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client

from games.models import Game
from tests.clients import PACKAGE, generate_python_client, generate_typescript_types
from tests.frames import asyncapi_document, frame_checker
from tests.npm import npm_folder

pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
TOOLS = ("openapi-typescript@7.13.0", "typescript@5.9.3", "openapi-fetch@0.17.0", "ws@8.23.1",
         "@types/ws@8.18.2", "@types/node@20.19.43")


@pytest.fixture(autouse=True)
def no_throttles():
    """Unlike the folder's fixture of this name, the default limits stand: the clients must
    pace themselves under them. Only the counts are cleared."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(scope="module")
def document() -> dict:
    return Client().get("/api/v1/openapi.json").json()


@pytest.fixture(scope="module")
def python_client(tmp_path_factory, document) -> Path:
    """A folder holding the generated ladder_client package (put on the bot's PYTHONPATH)."""
    folder = tmp_path_factory.mktemp("python_client")
    run = generate_python_client(document, folder)
    assert run.returncode == 0, run.stdout + run.stderr
    return folder


def run_bot(python_client: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(EXAMPLES / "bot.py"), *args],
                            env={**os.environ, "PYTHONPATH": str(python_client)},
                            stdout=subprocess.PIPE, text=True)


def finish(process: subprocess.Popen, timeout: float) -> str:
    """What ``process`` printed, once it ended with status 0 (killed after ``timeout`` s)."""
    try:
        said, _ = process.communicate(timeout=timeout)
    finally:
        process.kill()
    assert process.returncode == 0, said
    return said


def notes(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_bot_paces_itself_by_the_ratelimit_field_and_waits_out_a_429(python_client):
    """After an answer whose window is used up (r=0) it waits t seconds before its next call;
    a 429 it waits out for Retry-After seconds and sends again."""
    sys.path.insert(0, str(python_client))
    try:
        spec = importlib.util.spec_from_file_location("bot", EXAMPLES / "bot.py")
        bot = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bot)
    finally:
        sys.path.remove(str(python_client))
        for name in [n for n in sys.modules if n.split(".")[0] == PACKAGE]:
            del sys.modules[name]
    answers = iter([
        httpx.Response(200, json={}, headers={"RateLimit": '"actions";r=1;t=40'}),
        httpx.Response(200, json={}, headers={
            "RateLimit": '"table_codes";r=3;t=500, "actions";r=0;t=7'}),
        httpx.Response(429, json={}, headers={"Retry-After": "12"}),
        httpx.Response(200, json={"done": True})])
    slept = []
    paced = bot.Paced(httpx.MockTransport(lambda request: next(answers)), sleep=slept.append)
    with httpx.Client(transport=paced, base_url="http://bots.example") as http:
        for _ in range(2):
            http.post("/api/v1/games/g/actions", json={})
        assert http.post("/api/v1/games/g/actions", json={}).json() == {"done": True}
    assert slept == [0.0, 0.0, 7.0, 12.0]


def test_the_python_bot_plays_a_practice_game(site, python_client, tmp_path):
    assert settings.THROTTLE_RATES["actions"] and settings.THROTTLE_RATES["games"]
    began = time.monotonic()
    bot = run_bot(python_client, "--server", site.url, "--log", str(tmp_path / "bot.jsonl"))
    said = finish(bot, timeout=150)
    took = time.monotonic() - began
    game = Game.objects.get()
    assert game.status == "finished" and f"game {game.public_id} over" in said
    sent = [n for n in notes(tmp_path / "bot.jsonl") if "sent" in n]
    assert len(sent) > 100 and not any("error" in n for n in notes(tmp_path / "bot.jsonl"))
    print(f"\npractice game: {len(sent)} actions of the bot, version {game.version}, "
          f"{took:.1f} s from its start to its end (the process's start included)")


@pytest.fixture(scope="module")
def typescript_client(tmp_path_factory, document) -> Path:
    """docs/examples/table_host.ts compiled (``tsc --strict``) against the document's types,
    in a folder that node runs it from."""
    tools = npm_folder(*TOOLS)
    folder = tmp_path_factory.mktemp("typescript_client")
    run = generate_typescript_types(document, folder, tools, "ladder-api.ts")
    assert run.returncode == 0, run.stderr
    (folder / "node_modules").symlink_to(tools / "node_modules")
    (folder / "package.json").write_text('{"type": "module"}')
    (folder / "table_host.ts").write_text((EXAMPLES / "table_host.ts").read_text())
    tsc = subprocess.run([str(tools / "node_modules" / ".bin" / "tsc"), "--strict", "--target",
                          "es2022", "--module", "nodenext", "table_host.ts"],
                         cwd=folder, capture_output=True, text=True, timeout=300)
    assert tsc.returncode == 0, tsc.stdout + tsc.stderr
    return folder


def test_the_typescript_and_python_clients_play_a_whole_table_game_on_frames_alone(
        site, python_client, typescript_client, document, tmp_path):
    logs = {"host": tmp_path / "host.jsonl", "guest": tmp_path / "guest.jsonl"}
    host = subprocess.Popen(["node", "table_host.js", site.url, "2", str(logs["host"])],
                            cwd=typescript_client, stdout=subprocess.PIPE, text=True)
    try:
        code = host.stdout.readline().strip()
        assert code, "the host printed no table code"
        guest = run_bot(python_client, "--server", site.url, "--join", code,
                        "--name", "Copied Bot", "--log", str(logs["guest"]))
        said = finish(guest, timeout=150)
    finally:
        said_host = finish(host, timeout=30)

    game = Game.objects.get()
    assert game.status == "finished"
    assert f"game {game.public_id} over" in said and f"game {game.public_id} over" in said_host
    heard = {who: notes(path) for who, path in logs.items()}
    asyncapi = asyncapi_document()
    checks = {channel: frame_checker(asyncapi, channel) for channel in ("game", "table")}
    codes = set(document["components"]["schemas"]["ErrorDetail"]["properties"]["code"]["enum"])
    for who_notes in heard.values():
        for note in who_notes:
            if "frame" in note:
                checks[note["channel"]][0](note["frame"])
        errors = {note["error"] for note in who_notes if "error" in note}
        assert errors <= codes and "throttled" not in errors, errors
        assert [n["frame"]["t"] for n in who_notes if "frame" in n][-1] == "game_finished"
    assert checks["game"][1]["game_finished"] == 2
    # Frames alone: each read the game once when its socket opened, then only after a frame
    # that named its seat (0 the host's, 1 the guest's: the lowest free seat) as the next to
    # move, and played every turn it had.
    for seat, who_notes in enumerate((heard["host"], heard["guest"])):
        frames = [n["frame"] for n in who_notes if n.get("channel") == "game"]
        named = sum(f["data"].get("turn" if f["t"] == "discarded" else "first") == seat
                    for f in frames if f["t"] in ("discarded", "deal_started"))
        turns = sum(n.get("action") == "draw" for n in who_notes)
        assert turns > 20 and sum("read" in n for n in who_notes) <= named + 1 <= turns + 1

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
    print(f"\n{len(latencies)} actions, version {game.version}: one client's action to the "
          f"other's frame p50 {cuts[49]:.1f} ms, p99 {cuts[98]:.1f} ms, max {max(latencies):.1f}")
