"""``manage.py verify_daily``: anyone can check a revealed seed against its commitment and
re-deal the day with the engine alone; the deals it prints are the deals players got."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.management.commands.verify_daily import deals_of
from games.players.models import sha256_hex
from games.reads import replays
from games.services.daily import deal_for, start_daily
from tests.factories import DAY
from tests.leaderboards.factories import player
from tests.leaderboards.play import play_to_the_end

SEED = "6b1f0c3ad2e94a5f8c7b1e2d3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a"


def verify(*args) -> str:
    out = StringIO()
    call_command("verify_daily", *args, stdout=out)
    return out.getvalue()


def test_a_matching_commitment_is_ok_and_the_ten_deals_are_printed():
    out = verify("--seed", SEED, "--commitment", sha256_hex(SEED))
    assert "OK: sha256(seed) equals the commitment" in out
    assert out.count("\ndeal ") == 10
    assert out.count("  seat ") == 40


def test_a_wrong_commitment_is_a_mismatch():
    with pytest.raises(CommandError, match="MISMATCH"):
        verify("--seed", SEED, "--commitment", sha256_hex(SEED + "x"))


def test_the_deals_are_the_engines_deals_and_differ_between_seeds():
    dealt = deals_of(SEED)
    assert [d["deal"] for d in dealt] == list(range(1, 11))
    for deal in dealt:
        assert [len(hand) for hand in deal["hands"]] == [10, 10, 10, 10]
        cards = [c for hand in deal["hands"] for c in hand] + [deal["upcard"]]
        assert len(set(cards)) == 41
    assert [d["dealer"] for d in dealt] == [(dealt[0]["dealer"] + i) % 4 for i in range(10)]
    assert deals_of(SEED) == dealt
    assert deals_of(SEED[::-1])[0]["hands"] != dealt[0]["hands"]


@pytest.mark.slow
@pytest.mark.django_db
def test_the_verified_deals_are_the_deals_a_player_of_that_day_was_dealt(clock):
    someone, _ = player()
    game = play_to_the_end(start_daily(someone).game)
    clock.advance(days=1)
    played = replays.replay_of(game)["deals"]
    verified = deals_of(deal_for(DAY).seed)
    assert len(played) == 10
    for mine, check in zip(played, verified, strict=True):
        assert mine["dealer"] == check["dealer"]
        assert mine["discard_top"]["id"] == check["upcard"]
        assert [[c["id"] for c in hand] for hand in mine["hands"]] == check["hands"]


@pytest.mark.django_db
def test_by_date_it_checks_a_revealed_day_and_refuses_a_running_one(clock):
    deal_for(DAY)
    with pytest.raises(CommandError, match="still running"):
        verify("--date", str(DAY))
    clock.advance(days=1)
    assert "OK" in verify("--date", str(DAY))
    with pytest.raises(CommandError, match="No daily"):
        verify("--date", "2001-01-01")
