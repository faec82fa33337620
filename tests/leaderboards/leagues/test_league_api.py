"""/api/v1/leagues: every action and refusal over HTTP, in the API's one error shape."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from leaderboards.leagues.models import League, Membership
from tests.leaderboards.factories import player
from tests.leaderboards.leagues.factories import API, Api, error_code, league_with, member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def test_a_player_creates_a_league_and_gets_its_code_and_link():
    ada, api = member("Ana")
    response = api.post("/leagues", {"name": "Friday Club"})
    assert response.status_code == 201
    body = response.json()
    league = League.objects.get(public_id=body["id"])
    assert body["name"] == "Friday Club" and body["members"] == 1 and body["you_created"]
    assert body["code"] == f"{league.code[:4]}-{league.code[4:8]}-{league.code[8:]}"
    assert body["join_path"] == f"/leagues/join/{league.code}/"
    assert api.get("/leagues").json()["leagues"][0]["id"] == body["id"]


def test_a_new_browser_creates_a_league_and_gets_a_player_cookie():
    browser = Client()
    response = browser.post(f"{API}/leagues", {"name": "Cousins"},
                            content_type="application/json")
    assert response.status_code == 201
    assert "ladder_player" in response.cookies
    assert browser.get(f"{API}/leagues").json()["leagues"][0]["name"] == "Cousins"


def test_a_cookie_write_without_the_csrf_token_is_refused():
    browser = Client(enforce_csrf_checks=True)
    response = browser.post(f"{API}/leagues", {"name": "Cousins"},
                            content_type="application/json")
    assert (response.status_code, error_code(response)) == (403, "csrf_failed")
    assert not League.objects.exists()


@pytest.mark.parametrize("name, code", [
    ("x", "invalid_name"), ("y" * 41, "invalid_name"), ("a\x00b", "invalid_name"),
    ("ⓐⓓⓜⓘⓝ", "reserved_name"), ("Moderator", "reserved_name")])
def test_a_bad_name_is_422_and_makes_nothing(name, code):
    _, api = member("Ana")
    response = api.post("/leagues", {"name": name})
    assert (response.status_code, error_code(response)) == (422, code)
    assert not League.objects.exists()


def test_without_an_identity_my_leagues_are_401_and_todays_standings_empty():
    assert Api().get("/leagues").status_code == 401
    assert Api().get("/leagues/today").json()["leagues"] == []


def test_a_join_link_shows_only_the_name_and_the_member_count():
    ada, _ = player("Ana")
    league = league_with(ada, player("Ben")[0])
    response = Api().get(f"/leagues/join/{league.code}")
    assert response.json() == {"number": league.pk, "name": "Friday Club",
                               "name_hidden": False, "members": 2}


def test_joining_from_the_code_and_then_again():
    ada, _ = player("Ana")
    league = league_with(ada)
    ben, api = member("Ben")
    typed = f"{league.code[:4].lower()} {league.code[4:]}"
    response = api.post(f"/leagues/join/{typed}")
    assert response.status_code == 201 and response.json()["members"] == 2
    again = api.post(f"/leagues/join/{league.code}")
    assert (again.status_code, error_code(again)) == (409, "already_member")


def test_a_new_browser_joins_from_the_link_with_no_account():
    ada, _ = player("Ana")
    league = league_with(ada)
    browser = Client()
    response = browser.post(f"{API}/leagues/join/{league.code}")
    assert response.status_code == 201 and "ladder_player" in response.cookies
    assert browser.get(f"{API}/leagues/{league.public_id}").status_code == 200


def test_an_unknown_code_makes_no_player_and_is_404():
    browser = Client()
    response = browser.post(f"{API}/leagues/join/ZZZZZZZZZZZZ")
    assert (response.status_code, error_code(response)) == (404, "invalid_league_code")
    assert "ladder_player" not in response.cookies


@pytest.mark.parametrize("code", ["abc", "A" * 21, "ABCD%00EFGH", "ABCD_EFGH"])
def test_a_code_out_of_bounds_is_refused(code):
    response = Api().get(f"/leagues/join/{code}")
    assert response.status_code in (404, 422)
    assert set(response.json()) == {"error"}


def test_an_old_code_stops_working_when_the_creator_renews_it():
    ada, ada_api = member("Ana")
    league = league_with(ada)
    old = league.code
    renewed = ada_api.post(f"/leagues/{league.public_id}/code")
    assert renewed.status_code == 200 and renewed.json()["code"].replace("-", "") != old
    _, ben_api = member("Ben")
    for response in (Api().get(f"/leagues/join/{old}"), ben_api.post(f"/leagues/join/{old}")):
        assert (response.status_code, error_code(response)) == (404, "invalid_league_code")


def test_a_league_you_are_not_in_is_404_for_every_method():
    ada, _ = player("Ana")
    league = league_with(ada)
    _, eve = member("Eve")
    path = f"/leagues/{league.public_id}"
    for response in (eve.get(path), eve.patch(path, {"name": "Taken"}), eve.delete(path),
                     eve.post(f"{path}/code"), eve.delete(f"{path}/members/{ada.public_id}")):
        assert (response.status_code, error_code(response)) == (404, "not_found")
    assert eve.get("/leagues/nosuchleague").status_code == 404


def test_the_creator_renames_and_a_member_may_not():
    ada, ada_api = member("Ana")
    ben, ben_api = member("Ben")
    league = league_with(ada, ben)
    path = f"/leagues/{league.public_id}"
    refused = ben_api.patch(path, {"name": "Ben's Club"})
    assert (refused.status_code, error_code(refused)) == (403, "creator_only")
    assert ada_api.patch(path, {"name": "Saturday"}).json()["name"] == "Saturday"
    bad = ada_api.patch(path, {"name": "S"})
    assert (bad.status_code, error_code(bad)) == (422, "invalid_name")


def test_the_creator_removes_a_member_and_a_member_leaves():
    ada, ada_api = member("Ana")
    ben, ben_api = member("Ben")
    cat, cat_api = member("Cat")
    league = league_with(ada, ben, cat)
    path = f"/leagues/{league.public_id}/members"
    assert ben_api.delete(f"{path}/{cat.public_id}").status_code == 403
    assert ada_api.delete(f"{path}/{cat.public_id}").status_code == 204
    assert cat_api.get(f"/leagues/{league.public_id}").status_code == 404
    assert ben_api.delete(f"{path}/{ben.public_id}").status_code == 204
    assert list(Membership.objects.values_list("player", flat=True)) == [ada.pk]
    assert ada_api.delete(f"{path}/{ben.public_id}").status_code == 404


def test_the_creator_deletes_the_league():
    ada, ada_api = member("Ana")
    ben, ben_api = member("Ben")
    league = league_with(ada, ben)
    assert ben_api.delete(f"/leagues/{league.public_id}").status_code == 403
    assert ada_api.delete(f"/leagues/{league.public_id}").status_code == 204
    assert ben_api.get(f"/leagues/{league.public_id}").status_code == 404
    assert not League.objects.exists()


def test_a_full_league_and_a_player_in_twenty_leagues_are_409():
    ada, _ = player("Ana")
    league = league_with(ada)
    Membership.objects.bulk_create([Membership(league=league, player=player(f"M{i}")[0])
                                    for i in range(99)])
    _, api = member("Late")
    response = api.post(f"/leagues/join/{league.code}")
    assert (response.status_code, error_code(response)) == (409, "league_full")


def test_creating_leagues_is_throttled_per_player(settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "leagues": "2/h"}
    _, api = member("Ana")
    statuses = [api.post("/leagues", {"name": f"Club {i}"}).status_code for i in range(3)]
    assert statuses == [201, 201, 429]
    refused = api.post("/leagues", {"name": "Club 9"})
    assert error_code(refused) == "throttled" and int(refused["Retry-After"]) >= 1


def code_guesses(remote_address: str, count: int, token: str | None = None) -> list[int]:
    """``count`` look-ups of unknown codes from ``remote_address``, then a join by one."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    client = Client(headers=headers, REMOTE_ADDR=remote_address)
    statuses = [client.get(f"{API}/leagues/join/ZZZZ-ZZZZ-ZZ{i:02d}").status_code
                for i in range(count)]
    return [*statuses, client.post(f"{API}/leagues/join/ZZZZ-ZZZZ-ZZZZ").status_code]


@pytest.mark.usefixtures("throttle_clock")
def test_code_guesses_are_counted_per_address_whatever_the_identity(settings):
    """Issue 42: look-ups were counted per player, and identities are free."""
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "league_codes": "3/10m"}
    tokens = [player(f"Guesser {i}")[1] for i in range(3)]

    assert code_guesses("198.51.100.7", 2, tokens[0]) == [404, 404, 404]
    assert code_guesses("198.51.100.7", 0, tokens[1]) == [429]  # another identity
    assert code_guesses("198.51.100.7", 0) == [429]  # none at all
    assert code_guesses("198.51.100.8", 0, tokens[2]) == [404]  # another address


@pytest.mark.usefixtures("throttle_clock")
def test_ipv6_code_guesses_are_counted_by_the_64_bit_network(settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "league_codes": "3/10m"}

    assert code_guesses("2001:db8:1:2::1", 2) == [404, 404, 404]
    assert code_guesses("2001:db8:1:2:ffff:ffff:ffff:fffe", 0) == [429]  # same /64
    assert code_guesses("2001:db8:1:3::1", 0) == [404]  # the next /64


def test_code_guesses_have_a_daily_ceiling_beyond_the_short_window(settings, monkeypatch):
    from games.web import throttles

    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "league_codes": "3/10m",
                               "league_codes_day": "5/d"}
    midnight = 1_900_000_000 - 1_900_000_000 % 86_400  # a day's first second
    monkeypatch.setattr(throttles, "clock", lambda: midnight + 1)

    assert code_guesses("198.51.100.9", 2) == [404, 404, 404]
    monkeypatch.setattr(throttles, "clock", lambda: midnight + 3600)  # a new short window
    assert code_guesses("198.51.100.9", 1) == [404, 404]
    assert code_guesses("198.51.100.9", 0) == [429]  # six in the day
    monkeypatch.setattr(throttles, "clock", lambda: midnight + 86_400 + 1)  # the next day
    assert code_guesses("198.51.100.9", 0) == [404]


def test_a_join_code_has_sixty_bits_read_as_three_groups_of_four():
    _, api = member("Ana")
    league = api.post("/leagues", {"name": "Club"}).json()

    assert len(League.objects.get(public_id=league["id"]).code) == 12
    assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}", league["code"])


def test_the_openapi_document_states_the_bounds():
    schema = Client().get(f"{API}/openapi.json").json()
    paths = schema["paths"]
    assert {"/api/v1/leagues", "/api/v1/leagues/today", "/api/v1/leagues/join/{code}",
            "/api/v1/leagues/{league_id}", "/api/v1/leagues/{league_id}/code",
            "/api/v1/leagues/{league_id}/members/{player_id}"} <= set(paths)
    name = schema["components"]["schemas"]["NewLeague"]["properties"]["name"]
    assert (name["minLength"], name["maxLength"]) == (2, 40)
    code = next(p for p in paths["/api/v1/leagues/join/{code}"]["post"]["parameters"]
                if p["name"] == "code")["schema"]
    assert code["maxLength"] == 20 and code["pattern"]
    members = schema["components"]["schemas"]["LeaguePage"]["properties"]["members"]
    assert members["maxItems"] == 100
    assert set(paths["/api/v1/leagues/{league_id}"]) == {"get", "patch", "delete"}
    assert "409" in paths["/api/v1/leagues/join/{code}"]["post"]["responses"]
