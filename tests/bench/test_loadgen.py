"""The load generator plays real games through the API of a running server (Locust runs in
its own process: it patches the standard library with gevent)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def open_server(settings, live_server):
    """The live server with no rate limits: one address plays every game."""
    settings.THROTTLE_RATES = {scope: None for scope in settings.THROTTLE_RATES}
    return live_server


def test_persons_play_legal_moves_and_the_run_reports_their_actions(open_server, tmp_path):
    figures_file = tmp_path / "figures.json"
    run = subprocess.run(
        # One game: SQLite's shared in-memory test database locks on concurrent writes.
        [sys.executable, "-m", "bench.loadgen", "--url", open_server.url, "--games", "1",
         "--duration", "3", "--warmup", "0.5", "--think", "0.02-0.05", "--level", "easy",
         "--json", str(figures_file), "--fail-on-errors"],
        cwd=REPO, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(figures_file.read_text())
    assert figures["errors"] == 0, figures["errors_by_kind"]
    assert figures["actions_per_s"] > 0
    assert set(figures["latency_ms"]) >= {"action", "draw", "discard"}
    action = figures["latency_ms"]["action"]
    assert 0 < action["p50"] <= action["p95"] <= action["p99"] <= action["max"]
    assert "actions/s" in run.stdout and "host yardstick" in run.stdout


def test_the_load_generator_refuses_a_server_that_is_not_on_this_machine():
    run = subprocess.run([sys.executable, "-m", "bench.loadgen", "--url", "http://192.0.2.1"],
                         cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert "only targets this machine" in run.stderr
