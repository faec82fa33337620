"""The leaderboard benchmark runs end to end on a tiny board (the real run is a command, not a
test: ``manage.py bench_leaderboard --scores 1000000``)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Player
from leaderboards.models import Score, Tally

pytestmark = pytest.mark.django_db


def test_the_benchmark_fills_measures_and_cleans_up():
    out = StringIO()
    call_command("bench_leaderboard", scores=40, samples=3, quiet_plans=True, stdout=out)
    text = out.getvalue()
    for line in ("filled 2000-01-03 with 40 scores", "top 50", "own rank", "naive rank",
                 "GET board + me", "deleted the bench rows"):
        assert line in text, text
    assert not Score.objects.exists() and not Tally.objects.exists()
    assert not Player.objects.exists()
