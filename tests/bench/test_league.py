"""The league benchmark runs end to end on a small league (the real run is a script:
``.venv/bin/python -m bench.league --members 100``)."""

from __future__ import annotations

import re
from datetime import date
from io import StringIO

import pytest

from bench.league import LeagueBench
from games.models import DailyDeal
from games.players.models import Player
from leaderboards.leagues.models import League
from leaderboards.models import Score

pytestmark = pytest.mark.django_db


def test_the_benchmark_fills_a_league_times_its_page_and_removes_its_rows():
    out = StringIO()
    LeagueBench(out).run(members=6, days=8, today=date(2001, 3, 30), samples=3)
    text = out.getvalue()
    assert "league of 6 members, 8 days" in text, text
    assert re.search(r"today: 6 entries, week: \d+, all time: 6; \d+ queries", text), text
    timed = re.findall(r"p50 +[\d.]+ ms +p99 +[\d.]+ ms +max +[\d.]+ ms +\(n=[13]\)", text)
    assert len(timed) == 4, text
    assert re.search(r"without the [1-6] tallies", text), text
    assert not Score.objects.exists() and not Player.objects.exists()
    assert not DailyDeal.objects.exists() and not League.objects.exists()
