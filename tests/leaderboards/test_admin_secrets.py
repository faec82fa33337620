"""Staff cannot reach a running day's seed or an unfinished game's state through the admin
(issue 29; docs/design.md, "The apps"), and cannot move an identity to another account.

The brute-force test asks every question an attacker asked (prefix and exact lookups on the
seed, JSON-path lookups on the state, through relations too, search, ordering), as a
moderator and as a superuser, then gives the running deal and game other secrets and asks
again: every answer must be byte for byte the same, so none depends on the secrets.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import daily, services
from games.models import DailyDeal, Game
from games.players.models import Player
from games.services.daily import start_daily
from leaderboards import services as moderation
from leaderboards.models import Score
from tests.factories import practice_game
from tests.leaderboards.factories import player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]

DEALS = reverse("admin:games_dailydeal_changelist")
GAMES = reverse("admin:games_game_changelist")
SCORES = reverse("admin:leaderboards_score_changelist")
PLAYERS = reverse("admin:games_player_changelist")
LINKS = reverse("admin:leaderboards_attemptlink_changelist")
OTHER_SEED = "f" * 64
DRAW = {"type": "draw", "from": "stock"}


@pytest.fixture(params=["moderator", "superuser"])
def staff(request, django_user_model) -> Client:
    if request.param == "superuser":
        user = django_user_model.objects.create_superuser("root", "root@example.com", "x")
    else:
        moderation.make_moderator("mia", "", "a-long-moderator-passphrase")
        user = django_user_model.objects.get(username="mia")
    client = Client()
    client.force_login(user)
    return client


def running_daily() -> Game:
    return start_daily(player("Today")[0]).game


def questions(game: Game) -> list[tuple[str, dict]]:
    """What an attacker asks, with the real secrets (each also asked with a wrong guess)."""
    seed = game.seed
    stock, hand = game.state["stock"], game.state["hands"][0]
    state_guesses = [{"state__stock__0": stock[0]}, {"state__stock__0": stock[1]},
                     {"state__hands__0__0": hand[0]}, {"state__seed": seed},
                     {"state__seed__startswith": seed[:1]}, {"state__icontains": seed[:4]},
                     {"state__has_key": "stock"}, {"state__stock__contains": stock[:1]},
                     {"daily__games__state__stock__0": stock[0]}]
    asked = []
    for prefix in (seed[:1], seed[:2], "0", "z"):
        asked += [(DEALS, {"seed__startswith": prefix}), (DEALS, {"seed__istartswith": prefix}),
                  (GAMES, {"seed__startswith": prefix}),
                  (GAMES, {"daily__seed__startswith": prefix}),
                  (SCORES, {"game__seed__startswith": prefix}),
                  (PLAYERS, {"games__seed__startswith": prefix}),
                  (PLAYERS, {"games__daily__seed__startswith": prefix}),
                  (LINKS, {"earlier__seed__startswith": prefix})]
    for guess in (seed, OTHER_SEED):
        asked += [(DEALS, {"seed": guess}), (DEALS, {"date": str(game.daily.date), "seed": guess}),
                  (DEALS, {"seed__gt": guess}), (DEALS, {"seed__regex": f"^{guess[:3]}"}),
                  (GAMES, {"seed": guess}), (GAMES, {"seed__in": guess}),
                  (DEALS, {"q": guess}), (GAMES, {"q": guess}), (PLAYERS, {"q": guess}),
                  (SCORES, {"q": guess})]
    asked += [(GAMES, guess) for guess in state_guesses]
    asked += [(url, {"o": order}) for url in (DEALS, GAMES, PLAYERS)
              for order in ("1", "-1", "2", "-2", "3", "-3", "4", "5", "6", "7", "8", "9")]
    asked += [(DEALS, {"_to_field": "seed", "_popup": "1"}),
              (GAMES, {"_to_field": "seed", "_popup": "1"})]
    asked += [(reverse("admin:games_dailydeal_change", args=[game.daily_id]), {}),
              (reverse("admin:games_game_change", args=[game.pk]), {})]
    return asked


def answer(client: Client, url: str, params: dict) -> tuple[int, str]:
    response = client.get(url, params)
    body = response.content.decode()
    body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", body)
    return response.status_code, body


@pytest.mark.slow
def test_no_admin_answer_depends_on_a_running_days_seed_or_an_unfinished_games_state(staff):
    game = running_daily()
    other = practice_game(player("Other")[0])  # another game and its state in the lists
    asked = questions(game)
    before = [answer(staff, url, params) for url, params in asked]

    DailyDeal.objects.filter(pk=game.daily_id).update(seed=OTHER_SEED)
    Game.objects.filter(pk=game.pk).update(seed=OTHER_SEED, state=other.state)
    after = [answer(staff, url, params) for url, params in asked]

    differ = [question for question, b, a in zip(asked, before, after, strict=True) if b != a]
    assert differ == [], differ[:5]
    assert all(status in (200, 302, 400) for status, _ in before)


def test_a_seed_filter_is_refused_not_answered(staff):
    game = running_daily()

    response = staff.get(DEALS, {"date": str(game.daily.date),
                                 "seed__startswith": game.seed[:2]})

    assert response.status_code == 400
    assert b"1 daily deal" not in response.content


def test_the_running_days_seed_is_not_on_any_admin_page(staff):
    game = running_daily()
    pages = [DEALS, GAMES, reverse("admin:games_dailydeal_change", args=[game.daily_id]),
             reverse("admin:games_game_change", args=[game.pk]),
             reverse("admin:games_player_change", args=[game.owner_id])]
    for page in pages:
        assert game.seed.encode() not in staff.get(page).content, page


def test_the_seed_shows_on_the_deals_page_once_its_day_has_ended(staff, clock):
    game = running_daily()
    page = reverse("admin:games_dailydeal_change", args=[game.daily_id])
    clock.advance(days=1)

    assert daily.has_ended(game.daily.date)
    assert game.seed.encode() in staff.get(page).content


def test_secret_paths_are_recognised_through_relations():
    from games.admin import names_a_secret

    assert names_a_secret(DailyDeal, "seed__startswith")
    assert names_a_secret(Game, "state__stock__0")
    assert names_a_secret(Player, "games__daily__seed")
    assert names_a_secret(Score, "game__state")
    assert not names_a_secret(Game, "owner__name__icontains")
    assert not names_a_secret(Game, "no_such_field")


def test_a_moderator_cannot_point_a_victims_player_at_their_own_account(staff,
                                                                         django_user_model):
    victim, _ = player("Victim")
    victim_user = django_user_model.objects.create_user("victim", password="victim pass 123")
    Player.objects.filter(pk=victim.pk).update(user=victim_user)
    staff_user = django_user_model.objects.get(pk=staff.session["_auth_user_id"])
    page = reverse("admin:games_player_change", args=[victim.pk])

    form = staff.get(page)
    staff.post(page, {"user": staff_user.pk, "name": "Victim", "cookie_epoch": 9,
                      "_save": "Save"})

    assert b'name="user"' not in form.content
    victim.refresh_from_db()
    assert (victim.user_id, victim.cookie_epoch) == (victim_user.pk, 0)


def game_page(staff: Client, game: Game) -> str:
    return staff.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()


def moves_shown(page: str, game: Game) -> bool:
    """Whether the page lists the game's log: any logged action's JSON, or the inline."""
    logged = [json.dumps(a, separators=(", ", ": ")) for a in
              game.actions.values_list("action", flat=True)]
    return "Game actions" in page or any(escape(text) in page for text in logged)


def test_no_admin_page_shows_the_moves_of_a_running_days_daily(staff, clock):
    """Issue 42: a moderator copied today's top score move by move from the actions inline."""
    game = running_daily()
    played = services.act(game.public_id, game.owner, game.version, DRAW).game
    assert played.actions.exists()

    assert not moves_shown(game_page(staff, played), played)
    clock.advance(days=1)  # the day ends: moderation reads the log again
    assert moves_shown(game_page(staff, played), played)


def test_no_admin_page_shows_the_moves_of_a_practice_game_still_being_played(staff):
    game = practice_game(player("Practice")[0])
    played = services.act(game.public_id, game.owner, game.version, DRAW).game

    assert not moves_shown(game_page(staff, played), played)
    Game.objects.filter(pk=played.pk).update(status=Game.FINISHED)
    assert moves_shown(game_page(staff, played), played)
