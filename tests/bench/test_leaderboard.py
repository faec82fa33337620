"""The leaderboard benchmark runs end to end on a tiny board (the real run is a script, not a
test: ``.venv/bin/python -m bench.leaderboard --scores 1000000``)."""

from __future__ import annotations

import re
from datetime import date
from io import StringIO

import pytest

from bench.leaderboard import BoardBench
from games.models import DailyDeal
from games.players.models import Player
from leaderboards.models import Score, Tally

pytestmark = pytest.mark.django_db


@pytest.mark.slow
def test_the_benchmark_fills_a_board_times_its_queries_and_removes_its_rows():
    out = StringIO()
    BoardBench(out).run(scores=40, day=date(2000, 1, 3), samples=3, quiet_plans=True)
    text = out.getvalue()
    assert re.search(r"board 2000-01-03: (\d+) listed entries \(40 scores\)", text), text
    timed = re.findall(r"p50 +[\d.]+ ms +p99 +[\d.]+ ms +max +[\d.]+ ms +\(n=(\d+)\)", text)
    assert len(timed) >= 4 and all(int(n) > 0 for n in timed), text
    assert not Score.objects.exists() and not Tally.objects.exists()
    assert not Player.objects.exists() and not DailyDeal.objects.exists()


def test_the_benchmark_refuses_a_day_that_already_has_scores():
    BoardBench(StringIO()).run(scores=5, day=date(2000, 1, 4), samples=1, keep=True,
                               quiet_plans=True)
    with pytest.raises(ValueError, match="already has 5 scores"):
        BoardBench(StringIO()).run(scores=5, day=date(2000, 1, 4), samples=1)
