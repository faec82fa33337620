"""Scouting the daily (R26, leaderboards.flags): a second identity starting the same daily from
the same address or the same browser links the two attempts, both are flagged for the
moderators' queue, and the day's board marks them until a moderator resolves the link."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.players.identity import COOKIE_NAME, DEVICE_COOKIE
from leaderboards.models import AttemptLink, ModerationLog, Score, week_of
from tests.factories import DAY
from tests.leaderboards.factories import API, api, player
from tests.leaderboards.play import play_to_the_end

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]  # noon of DAY
SCORES = reverse("admin:leaderboards_score_changelist")
LINKS = reverse("admin:leaderboards_attemptlink_changelist")


@pytest.fixture
def staff(django_user_model) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("mod", "m@example.com", "x"))
    return client


def start_daily(token: str, address: str) -> Game:
    response = Client(REMOTE_ADDR=address, headers={"Authorization": f"Bearer {token}"}).post(
        f"{API}/games", {"mode": "daily"}, content_type="application/json")
    assert response.status_code == 201, response.content
    return Game.objects.get(public_id=response.json()["id"])


def new_browser(address: str) -> Client:
    client = Client(enforce_csrf_checks=True, REMOTE_ADDR=address)
    client.get(f"{API}/csrf")
    return client


def browser_post(client: Client, path: str, data: dict | None = None):
    return client.post(API + path, data or {}, content_type="application/json",
                       headers={"X-CSRFToken": client.cookies["csrftoken"].value})


def board() -> list[dict]:
    return api().get(f"/leaderboards/daily/{DAY}").json()["entries"]


def week_board() -> list[dict]:
    return api().get(f"/leaderboards/week/{week_of(DAY)}").json()["entries"]


@pytest.mark.slow
def test_two_identities_from_one_address_on_the_same_daily_are_flagged_in_the_admin(staff):
    (_, scout_token), (_, main_token) = player("Scout"), player("Main")
    first = start_daily(scout_token, "203.0.113.5")
    second = start_daily(main_token, "203.0.113.5")

    link = AttemptLink.objects.get()
    assert (link.earlier, link.later, link.same_address, link.same_device) == (
        first, second, True, False)
    for game in (first, second):
        play_to_the_end(game)
    assert all(Score.LINKED in s.flags and s.flagged and s.linked
               for s in Score.objects.all())

    queue = staff.get(SCORES, {"review": "needed"}).content.decode()
    clusters = staff.get(SCORES, {"review": "linked"}).content.decode()

    for page in (queue, clusters):
        assert "Scout" in page and "Main" in page
        assert "another identity played this daily from the same address or browser" in page
        assert "(same address, unresolved)" in page
    for score in Score.objects.all():  # each links to the other's score
        assert reverse("admin:leaderboards_score_change", args=[score.pk]) in clusters


@pytest.mark.slow
def test_a_scout_that_never_finishes_is_still_linked_to_the_ranked_attempt(staff):
    (_, scout_token), (_, main_token) = player("Scout"), player("Main")
    abandoned = start_daily(scout_token, "203.0.113.5")
    play_to_the_end(start_daily(main_token, "203.0.113.5"))

    score = Score.objects.get()
    page = staff.get(SCORES, {"review": "linked"}).content.decode()
    links = staff.get(LINKS).content.decode()

    assert score.linked and Score.LINKED in score.flags
    assert reverse("admin:games_game_change", args=[abandoned.pk]) in page
    assert "Scout" in links and "Main" in links and "active" in links


def test_a_second_identity_of_one_browser_is_linked_by_its_device_cookie():
    browser = new_browser("198.51.100.1")
    first = browser_post(browser, "/games", {"mode": "daily"})
    device = first.cookies[DEVICE_COOKIE]
    assert device["httponly"] is True and device["samesite"] == "Lax"
    assert int(device["max-age"]) >= 365 * 24 * 3600
    assert COOKIE_NAME in first.cookies  # the identity's own, separate cookie

    logged_out = browser_post(browser, "/account/logout")
    assert logged_out.status_code == 204
    assert DEVICE_COOKIE not in logged_out.cookies  # the browser keeps its device cookie
    browser.defaults["REMOTE_ADDR"] = "192.0.2.77"  # another network, the same browser
    second = browser_post(browser, "/games", {"mode": "daily"})

    assert second.status_code == 201
    link = AttemptLink.objects.get()
    assert link.later.owner != link.earlier.owner
    assert (link.same_address, link.same_device) == (False, True)


def test_identities_from_other_addresses_and_browsers_are_not_linked():
    new_browser_a, new_browser_b = new_browser("198.51.100.1"), new_browser("198.51.100.2")
    for browser in (new_browser_a, new_browser_b):
        assert browser_post(browser, "/games", {"mode": "daily"}).status_code == 201
    start_daily(player()[1], "198.51.100.3")

    assert not AttemptLink.objects.exists()
    assert Game.objects.filter(mode=Game.DAILY).count() == 3


@pytest.mark.slow
def test_the_board_marks_linked_entries_until_a_moderator_resolves_the_link(staff):
    (_, scout_token), (_, main_token), (_, other_token) = (
        player("Scout"), player("Main"), player("Other"))
    for token, address in ((scout_token, "203.0.113.5"), (main_token, "203.0.113.5"),
                           (other_token, "198.51.100.9")):
        play_to_the_end(start_daily(token, address))
    marks = {"Scout": True, "Main": True, "Other": False}
    assert {e["player"]["name"]: e["linked"] for e in board()} == marks
    assert {e["player"]["name"]: e["linked"] for e in week_board()} == marks  # it counts them
    assert api(scout_token).get(f"/leaderboards/week/{week_of(DAY)}").json()["me"]["linked"]

    response = staff.post(LINKS, {"action": "resolve", "reason": "siblings, checked",
                                  "_selected_action": [AttemptLink.objects.get().pk]},
                          follow=True)

    assert response.status_code == 200
    assert not any(e["linked"] for e in board() + week_board())
    assert not api(scout_token).get(f"/leaderboards/week/{week_of(DAY)}").json()["me"]["linked"]
    assert AttemptLink.objects.get().resolved_by == "mod"
    assert ModerationLog.objects.get(action=ModerationLog.REVIEW).reason == "siblings, checked"


@pytest.mark.slow
def test_marking_a_linked_score_reviewed_resolves_its_links(staff):
    (_, scout_token), (_, main_token) = player("Scout"), player("Main")
    for token in (scout_token, main_token):
        play_to_the_end(start_daily(token, "203.0.113.5"))
    main = Score.objects.get(player__name="Main")

    staff.post(SCORES, {"action": "mark_reviewed", "reason": "looked",
                        "_selected_action": [main.pk]}, follow=True)

    assert AttemptLink.objects.get().resolved
    assert not Score.objects.filter(linked=True).exists()


@pytest.mark.slow
def test_the_score_list_reads_the_linked_attempts_of_a_page_at_once(staff):
    """The 'linked attempts' column costs the same queries for two scores as for six."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries_of_the_list() -> int:
        with CaptureQueriesContext(connection) as captured:
            page = staff.get(SCORES, {"review": "linked"})
        assert page.status_code == 200
        return len(captured)

    def linked_pair(number: int) -> None:
        address = f"203.0.113.{number}"
        for name in (f"Scout{number}", f"Main{number}"):
            play_to_the_end(start_daily(player(name)[1], address))

    linked_pair(1)
    two = queries_of_the_list()
    linked_pair(2)
    linked_pair(3)
    assert Score.objects.filter(linked=True).count() == 6
    assert queries_of_the_list() == two
