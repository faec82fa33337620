"""Scores: written by the server from the finished game's own result, inside its transaction;
automatic flags for review."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction
from django.test import override_settings

from games import daily
from games.engine import ENGINE_VERSION
from games.models import Game
from games.services.daily import start_daily
from games.signals import game_finished
from leaderboards import services
from leaderboards.flags import MANY_IDENTITIES_PER_ADDRESS
from leaderboards.models import Score, Tally, WeekScore
from tests.factories import DAY
from tests.leaderboards.factories import api, finished_daily, player
from tests.leaderboards.play import play_to_the_end

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def test_finishing_a_daily_records_its_score_from_the_games_own_result():
    someone, _ = player()
    game = play_to_the_end(start_daily(someone).game)
    score = Score.objects.get(game=game)
    assert (score.player, score.day, score.week) == (someone, DAY, "2030-W10")
    assert (score.contracts, score.penalty, score.place, score.finished_at) == (
        game.contracts, game.penalty, game.place, game.finished_at)
    assert score.person_actions == game.actions.filter(seat=0).count() > 0
    assert score.listed
    # A script played it in a couple of seconds: that is what the too_fast flag is for.
    assert Score.TOO_FAST in score.flags and score.flagged


def test_practice_games_never_rank():
    someone, _ = player()
    game = Game.objects.create(owner=someone, mode=Game.PRACTICE, seed="s", state={},
                               engine_version=ENGINE_VERSION, status=Game.FINISHED,
                               contracts=10, penalty=0, place=1,
                               finished_at=datetime(2030, 3, 6, 9, tzinfo=UTC))
    with transaction.atomic():
        game_finished.send(sender=Game, game=game)
    assert not Score.objects.exists()
    assert services.record_score(game) is None


def test_a_score_rolls_back_with_the_game_that_failed_to_finish():
    someone, _ = player()
    with pytest.raises(RuntimeError), transaction.atomic():
        finished_daily(someone, DAY, 5, 100)
        raise RuntimeError("the finishing transaction fails after the signal")
    assert not Score.objects.exists()
    assert not Tally.objects.filter(entries__gt=0).exists()


def test_a_game_gets_one_score_however_often_it_is_told():
    game = finished_daily(player()[0], DAY, 5, 100)
    assert services.record_score(game) == game.score
    assert Score.objects.count() == 1
    assert Tally.objects.get(board=str(DAY)).entries == 1


def test_no_endpoint_accepts_a_score_from_a_client():
    schema = api().get("/openapi.json").json()
    for path, operations in schema["paths"].items():
        if "/leaderboards" in path:
            assert set(operations) <= {"get"}, path


def test_a_banned_players_new_score_is_kept_but_not_listed(django_user_model):
    someone, _ = player()
    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    services.ban_player(someone, moderator, "cheating")
    game = finished_daily(someone, DAY, 9, 0)
    assert not game.score.listed
    assert not WeekScore.objects.exists()


# --- Flags -------------------------------------------------------------------------------------


def test_a_daily_finished_faster_than_a_person_could_play_it_is_flagged():
    moment = datetime(2030, 3, 6, 9, tzinfo=UTC)
    quick = finished_daily(player()[0], DAY, 8, 50, finished_at=moment,
                           started_at=moment - timedelta(seconds=40), person_actions=150)
    human = finished_daily(player()[0], DAY, 8, 50, finished_at=moment,
                           started_at=moment - timedelta(minutes=20), person_actions=150)
    assert quick.score.flags == [Score.TOO_FAST] and quick.score.flagged
    assert human.score.flags == [] and not human.score.flagged
    assert quick.score.listed  # a flag asks for review; it hides nothing


def test_many_identities_from_one_address_in_a_day_are_flagged_together():
    address = daily.address_hash(DAY, "203.0.113.9")
    games = [finished_daily(player()[0], DAY, 5, 100, address_hash=address)
             for _ in range(MANY_IDENTITIES_PER_ADDRESS)]
    elsewhere = finished_daily(player()[0], DAY, 5, 100,
                               address_hash=daily.address_hash(DAY, "198.51.100.1"))
    flagged = Score.objects.flagged()
    assert set(flagged) == {g.score for g in games}
    assert all(s.flags == [Score.SHARED_ADDRESS] for s in flagged)
    elsewhere.score.refresh_from_db()
    assert not elsewhere.score.flagged


def test_a_few_identities_from_one_address_are_not_flagged():
    address = daily.address_hash(DAY, "203.0.113.9")
    for _ in range(MANY_IDENTITIES_PER_ADDRESS - 1):
        finished_daily(player()[0], DAY, 5, 100, address_hash=address)
    assert not Score.objects.flagged().exists()


def test_the_address_hash_is_keyed_per_day_and_keeps_no_address():
    one = daily.address_hash(DAY, "203.0.113.9")
    assert one == daily.address_hash(DAY, "203.0.113.9")
    assert one != daily.address_hash(DAY + timedelta(days=1), "203.0.113.9")
    assert re.fullmatch(r"[0-9a-f]{32}", one)
    with override_settings(SECRET_KEY="another-secret-key-" + "x" * 40):
        assert daily.address_hash(DAY, "203.0.113.9") != one


def test_a_scored_game_cannot_be_deleted_alone_but_its_player_can_be():
    from django.db.models import RestrictedError

    game = finished_daily(player()[0], DAY, 5, 100)
    with pytest.raises(RestrictedError):
        game.delete()
    game.owner.delete()
    assert not Score.objects.exists() and not Game.objects.exists()
