"""Moderation through Django admin's HTTP views: hide/restore, ban/unban, reset a name, review
flags; every action logged with a reason; nothing deleted; only staff get in."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.players.models import Player
from leaderboards.models import ModerationLog, Score
from tests.factories import DAY
from tests.leaderboards.factories import api, finished_daily, player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]

SCORES = reverse("admin:leaderboards_score_changelist")
PLAYERS = reverse("admin:games_player_changelist")


@pytest.fixture
def admin_client(django_user_model) -> Client:
    user = django_user_model.objects.create_superuser("root", "root@example.com", "x")
    client = Client()
    client.force_login(user)
    return client


def act(client: Client, changelist: str, action: str, objects, reason: str = "rule 3"):
    return client.post(changelist, {"action": action, "reason": reason,
                                    "_selected_action": [o.pk for o in objects]}, follow=True)


def board_names() -> list[str]:
    return [e["player"]["name"] for e in api().get(f"/leaderboards/daily/{DAY}").json()["entries"]]


def test_hiding_a_score_takes_it_off_the_boards_and_logs_who_why_and_when(admin_client):
    cheat = finished_daily(player("Cheat")[0], DAY, 10, 0).score
    finished_daily(player("Honest")[0], DAY, 4, 90)
    response = act(admin_client, SCORES, "hide", [cheat], reason="impossible result")
    assert response.status_code == 200 and b"Hidden: 1" in response.content
    assert board_names() == ["Honest"]
    assert api().get("/leaderboards/week").json()["count"] == 1
    cheat.refresh_from_db()
    assert cheat.hidden_at is not None and not cheat.listed
    log = ModerationLog.objects.get()
    assert (log.action, log.moderator_name, log.reason, log.score, log.player) == (
        "hide", "root", "impossible result", cheat, cheat.player)
    assert log.created_at is not None


def test_restoring_a_score_puts_it_back(admin_client):
    score = finished_daily(player("Back")[0], DAY, 6, 30).score
    act(admin_client, SCORES, "hide", [score])
    act(admin_client, SCORES, "restore", [score], reason="appeal upheld")
    assert board_names() == ["Back"]
    assert list(ModerationLog.objects.order_by("id").values_list("action", flat=True)) == [
        "hide", "restore"]


def test_an_action_without_a_reason_does_nothing(admin_client):
    score = finished_daily(player("Kept")[0], DAY, 6, 30).score
    response = act(admin_client, SCORES, "hide", [score], reason="  ")
    assert b"give a reason" in response.content
    assert board_names() == ["Kept"]
    assert not ModerationLog.objects.exists()


def test_banning_a_player_removes_all_their_scores_and_unbanning_restores_them(admin_client):
    banned, _ = player("Farm")
    finished_daily(banned, DAY, 9, 0)
    finished_daily(banned, date(2030, 3, 5), 9, 0)
    finished_daily(player("Other")[0], DAY, 2, 50)
    act(admin_client, PLAYERS, "ban", [banned], reason="bot farm")
    assert board_names() == ["Other"]
    assert Score.objects.filter(player=banned).count() == 2  # hidden, never deleted
    banned.refresh_from_db()
    assert banned.banned_at is not None
    act(admin_client, PLAYERS, "unban", [banned], reason="mistake")
    assert board_names() == ["Farm", "Other"]
    assert [log.details for log in ModerationLog.objects.order_by("id")] == [
        {"unlisted": 2}, {"listed": 2}]


def test_unbanning_leaves_hidden_scores_hidden(admin_client):
    someone, _ = player("Both")
    score = finished_daily(someone, DAY, 9, 0).score
    act(admin_client, SCORES, "hide", [score])
    act(admin_client, PLAYERS, "ban", [someone])
    act(admin_client, PLAYERS, "unban", [someone])
    assert board_names() == []
    act(admin_client, SCORES, "restore", [score])
    assert board_names() == ["Both"]


def test_resetting_a_name_logs_the_old_one(admin_client):
    rude, _ = player("Rude Name")
    act(admin_client, PLAYERS, "reset_name", [rude], reason="offensive")
    rude.refresh_from_db()
    assert rude.name != "Rude Name"
    log = ModerationLog.objects.get()
    assert log.details == {"old_name": "Rude Name", "new_name": rude.name}


def test_the_review_filter_lists_flagged_scores_and_review_clears_them(admin_client):
    moment = datetime(2030, 3, 6, 9, tzinfo=UTC)
    flagged = finished_daily(player("Flagged")[0], DAY, 9, 0, finished_at=moment,
                             started_at=moment - timedelta(seconds=10), person_actions=100).score
    finished_daily(player("Plain")[0], DAY, 3, 80)
    listing = admin_client.get(SCORES, {"review": "needed"})
    assert b"Flagged" in listing.content and b"Plain" not in listing.content
    act(admin_client, SCORES, "mark_reviewed", [flagged], reason="fast but fine")
    listing = admin_client.get(SCORES, {"review": "needed"})
    assert b"Flagged" not in listing.content
    assert admin_client.get(SCORES, {"review": "flagged"}).content.count(b"Flagged") >= 1
    assert board_names() == ["Flagged", "Plain"]


def test_the_admin_pages_render_for_staff(admin_client):
    game = finished_daily(player("Shown")[0], DAY, 9, 0)
    for url in (SCORES, PLAYERS, reverse("admin:leaderboards_moderationlog_changelist"),
                reverse("admin:leaderboards_score_change", args=[game.score.pk]),
                reverse("admin:games_player_change", args=[game.owner.pk])):
        assert admin_client.get(url).status_code == 200, url
    assert admin_client.get(SCORES, {"q": "Shown"}).status_code == 200


def test_a_games_admin_page_shows_its_replay_once_the_day_has_ended(admin_client, clock):
    game = finished_daily(player()[0], DAY, 9, 0)
    Game.objects.filter(pk=game.pk).update(seed="abc", state={})
    page = reverse("admin:games_game_change", args=[game.pk])
    assert b"opens when its day has ended" in admin_client.get(page).content
    clock.set_day(date(2030, 3, 7))
    content = admin_client.get(page).content
    assert b"&quot;seed&quot;: &quot;abc&quot;" in content
    assert f'href="/replay/{game.public_id}/"'.encode() in content  # the viewer, open to all


def test_scores_cannot_be_deleted_or_added(admin_client):
    score = finished_daily(player()[0], DAY, 9, 0).score
    assert admin_client.get(reverse("admin:leaderboards_score_delete",
                                    args=[score.pk])).status_code == 403
    assert admin_client.get(reverse("admin:leaderboards_score_add")).status_code == 403
    response = admin_client.post(SCORES, {"action": "delete_selected",
                                          "_selected_action": [score.pk]})
    assert Score.objects.filter(pk=score.pk).exists()
    assert response.status_code in (200, 302)


def test_only_staff_reach_the_admin(django_user_model):
    django_user_model.objects.create_user("plain", password="pw-123-long-enough")
    client = Client()
    client.login(username="plain", password="pw-123-long-enough")
    response = client.get(SCORES)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert Client().get(SCORES).status_code == 302


def test_a_moderator_made_by_the_command_can_moderate(monkeypatch):
    monkeypatch.setenv("MODERATOR_PASSWORD", "a-long-moderator-passphrase")
    call_command("create_moderator", "mia")
    client = Client()
    assert client.login(username="mia", password="a-long-moderator-passphrase")
    score = finished_daily(player("Seen")[0], DAY, 9, 0).score
    assert client.get(SCORES).status_code == 200
    act(client, SCORES, "hide", [score], reason="checked")
    assert board_names() == []
    user = ModerationLog.objects.get().moderator
    assert user.is_staff and not user.is_superuser
    assert not user.has_perm("leaderboards.delete_score")
    # 3 of leagues, 3 of tables:
    assert Permission.objects.filter(group__name="moderators").count() == 16
    assert client.get(reverse("admin:leaderboards_attemptlink_changelist")).status_code == 200


def test_a_staff_user_without_moderation_rights_cannot_moderate(django_user_model):
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    client = Client()
    client.force_login(staff)
    score = finished_daily(player("Safe")[0], DAY, 9, 0).score
    assert client.get(SCORES).status_code == 403
    act(client, SCORES, "hide", [score])
    assert board_names() == ["Safe"]
    assert Player.objects.filter(banned_at__isnull=False).count() == 0
