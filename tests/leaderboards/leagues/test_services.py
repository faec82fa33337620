"""leaderboards.leagues.services: every action and every refusal, without HTTP."""

from __future__ import annotations

import pytest

from games.web.codes import shown_code
from games.web.errors import Refusal
from leaderboards.leagues import services
from leaderboards.leagues.models import (
    LEAGUES_PER_PLAYER_MAX,
    MEMBERS_MAX,
    League,
    LeagueModerationLog,
    Membership,
    normalise_code,
)
from tests.leaderboards.factories import player
from tests.leaderboards.leagues.factories import league_with

pytestmark = pytest.mark.django_db


def refused(call, *args) -> Refusal:
    with pytest.raises(Refusal) as caught:
        call(*args)
    return caught.value


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_user("mod", is_staff=True)


def test_creating_a_league_makes_its_creator_the_first_member():
    ada, _ = player("Ana")
    league = services.create_league(ada, "  Friday   Club ")
    assert league.name == "Friday Club" and league.creator == ada
    assert list(league.memberships.values_list("player", flat=True)) == [ada.pk]
    assert normalise_code(shown_code(league.code)) == league.code


@pytest.mark.parametrize("name, code", [
    ("x", "invalid_name"), ("a" * 41, "invalid_name"), ("<script>", "invalid_name"),
    ("Ａｄｍｉｎ", "reserved_name"), ("\u3164\u3164", "invalid_name")])
def test_a_league_name_follows_the_player_name_rules_up_to_40_characters(name, code):
    ada, _ = player("Ana")
    assert refused(services.create_league, ada, name).code == code
    assert not League.objects.exists()


def test_a_forty_character_name_in_thai_is_fine():
    ada, _ = player("Ana")
    name = "ก๊วนไพ่วันศุกร์" + "x" * 25
    assert len(name) == 40
    assert services.create_league(ada, name).name == name


def test_joining_by_code_adds_a_member_and_joining_twice_is_refused():
    ada, _ = player("Ana")
    ben, _ = player("Ben")
    league = league_with(ada)
    typed = shown_code(league.code).lower().replace("-", " ")
    assert services.join(ben, typed) == league
    assert refused(services.join, ben, league.code).code == "already_member"
    assert Membership.objects.filter(league=league).count() == 2


def test_an_unknown_or_malformed_code_is_not_found():
    ben, _ = player("Ben")
    assert refused(services.join, ben, "ZZZZ-ZZZZ").status == 404
    assert refused(services.join, ben, "not a code!").code == "invalid_league_code"


def test_a_renewed_code_replaces_the_old_one_at_once():
    ada, _ = player("Ana")
    ben, _ = player("Ben")
    league = league_with(ada)
    old = league.code
    renewed = services.renew_code(ada, league.public_id)
    assert renewed.code != old
    assert refused(services.join, ben, old).code == "invalid_league_code"
    assert services.join(ben, renewed.code) == league


def test_a_league_holds_at_most_a_hundred_members():
    ada, _ = player("Ana")
    league = league_with(ada)
    Membership.objects.bulk_create([Membership(league=league, player=player(f"M{i}")[0])
                                    for i in range(MEMBERS_MAX - 1)])
    late, _ = player("Late")
    refusal = refused(services.join, late, league.code)
    assert (refusal.status, refusal.code) == (409, "league_full")


def test_a_player_is_in_at_most_twenty_leagues():
    ada, _ = player("Ana")
    ben, _ = player("Ben")
    for i in range(LEAGUES_PER_PLAYER_MAX):
        services.create_league(ada, f"League {i}")
    assert refused(services.create_league, ada, "One more").code == "too_many_leagues"
    for i in range(LEAGUES_PER_PLAYER_MAX - 1):
        services.join(ben, League.objects.get(name=f"League {i}").code)
    services.create_league(ben, "Twentieth")
    last = League.objects.get(name=f"League {LEAGUES_PER_PLAYER_MAX - 1}")
    assert refused(services.join, ben, last.code).code == "too_many_leagues"


def test_only_the_creator_renames_removes_renews_and_deletes():
    ada, _ = player("Ana")
    ben, _ = player("Ben")
    cat, _ = player("Cat")
    league = league_with(ada, ben, cat)
    for call, args in [(services.rename, ("New name",)), (services.renew_code, ()),
                       (services.delete_league, ()), (services.remove_member, (cat.public_id,))]:
        refusal = refused(call, ben, league.public_id, *args)
        assert (refusal.status, refusal.code) == (403, "creator_only")
    assert League.objects.get(pk=league.pk).name == "Friday Club"


def test_a_stranger_is_told_the_league_does_not_exist():
    ada, _ = player("Ana")
    eve, _ = player("Eve")
    league = league_with(ada)
    for call, args in [(services.rename, ("Mine now",)), (services.renew_code, ()),
                       (services.delete_league, ()), (services.leave, ()),
                       (services.remove_member, (ada.public_id,))]:
        refusal = refused(call, eve, league.public_id, *args)
        assert (refusal.status, refusal.code) == (404, "not_found")


def test_the_creator_renames_removes_a_member_and_deletes():
    ada, _ = player("Ana")
    ben, _ = player("Ben")
    league = league_with(ada, ben)
    assert services.rename(ada, league.public_id, "Saturday Club").name == "Saturday Club"
    services.remove_member(ada, league.public_id, ben.public_id)
    assert not Membership.objects.filter(player=ben).exists()
    assert refused(services.remove_member, ada, league.public_id, ben.public_id).status == 404
    services.delete_league(ada, league.public_id)
    assert not League.objects.exists() and not Membership.objects.exists()


def test_a_member_leaves_and_the_creator_leaving_hands_the_league_on():
    ada, _ = player("Ana")
    ben, _ = player("Ben")
    cat, _ = player("Cat")
    league = league_with(ada, ben, cat)
    services.leave(cat, league.public_id)
    services.remove_member(ada, league.public_id, ada.public_id)  # removing oneself: leaving
    league.refresh_from_db()
    assert league.creator == ben
    assert list(league.memberships.values_list("player", flat=True)) == [ben.pk]
    services.leave(ben, league.public_id)
    assert not League.objects.exists()


def test_moderators_hide_restore_and_delete_with_a_logged_reason(moderator):
    ada, _ = player("Ana")
    league = league_with(ada, name="Rude Name")
    with pytest.raises(services.ReasonRequired):
        services.hide_name(league, moderator, " ")
    assert services.hide_name(league, moderator, "insult")
    assert not services.hide_name(league, moderator, "again")
    league.refresh_from_db()
    assert league.shown_name == f"League #{league.pk}"
    assert services.restore_name(league, moderator, "appeal")
    assert services.hide_name(league, moderator, "insult again")
    # A new name from the creator passes the rules again and replaces the hidden one.
    assert services.rename(ada, league.public_id, "Polite Name").shown_name == "Polite Name"
    assert services.delete_by_moderator(league, moderator, "spam")
    assert not League.objects.exists()
    logs = list(LeagueModerationLog.objects.order_by("id").values_list(
        "action", "league_number", "league_name", "reason"))
    assert logs == [("hide_name", league.pk, "Rude Name", "insult"),
                    ("restore_name", league.pk, "Rude Name", "appeal"),
                    ("hide_name", league.pk, "Rude Name", "insult again"),
                    ("delete", league.pk, "Polite Name", "spam")]
    assert LeagueModerationLog.objects.get(action="delete").details == {
        "members": 1, "creator": ada.public_id, "public_id": league.public_id}
