"""POST /players, GET /me, PATCH /me: anonymous identities for third-party clients."""

import pytest

from games.players.identity import hash_token
from games.players.models import Player
from tests.games.conftest import bearer_api
from tests.games.helpers import error_of

pytestmark = pytest.mark.django_db


def test_a_new_player_gets_an_id_a_friendly_name_and_a_token_once(nobody):
    response = nobody.post("/players")

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "name", "token"}
    assert len(body["name"].split()) == 2  # "Brave Otter"
    player = Player.objects.get(public_id=body["id"])
    assert player.token_hash == hash_token(body["token"])
    assert body["token"] not in str(Player.objects.values().get(pk=player.pk))


def test_the_token_says_who_i_am(alice):
    response = alice.get("/me")

    assert response.status_code == 200
    me = response.json()
    assert me["registered"] is False and me["username"] is None
    assert Player.objects.filter(public_id=me["id"], name=me["name"]).exists()


def test_an_unknown_token_is_refused_not_taken_for_anonymous():
    api = bearer_api("lr_not-a-real-token")

    for response in (api.get("/me"), api.post("/games", {"level": "easy"})):
        assert response.status_code == 401
        assert error_of(response)["code"] == "invalid_token"
    assert not Player.objects.exists()


def test_no_identity_is_401_no_identity_on_reads(nobody):
    for path in ("/me", "/games", "/games/abc"):
        response = nobody.get(path)
        assert response.status_code == 401, path
        assert error_of(response)["code"] == "no_identity"


def test_a_bearer_client_needs_no_csrf_token(alice):
    strict = bearer_api(alice.token, enforce_csrf_checks=True)

    response = strict.patch("/me", {"name": "Card Shark"})

    assert response.status_code == 200
    assert response.json()["name"] == "Card Shark"


@pytest.mark.parametrize("name", ["Zoë  Brontë", "ไพ่ รัมมี่", "O'Neil-2", "José_M.", "สมชาย",
                                  "น้ำ", "ที่นี่", "Íñigo Muñoz", "Nguyễn Thị"])
def test_a_player_may_choose_a_name_in_any_script(alice, name):
    response = alice.patch("/me", {"name": name})

    assert response.status_code == 200
    assert response.json()["name"] == " ".join(name.split())
    assert alice.get("/me").json()["name"] == " ".join(name.split())


@pytest.mark.parametrize("name", ["", "x", "a" * 25, "<script>", "null\x00byte", "💩💩💩",
                                  "1234", "   ", "tab\there?"])
def test_a_name_out_of_bounds_is_refused_and_the_old_one_kept(alice, name):
    before = alice.get("/me").json()["name"]

    response = alice.patch("/me", {"name": name})

    assert response.status_code == 422
    assert error_of(response)["code"] in ("invalid_name", "invalid_request")
    assert alice.get("/me").json()["name"] == before


@pytest.mark.parametrize("name", ["a" + "\u0301" * 23, "Zalgo" + "\u0336\u0337\u0338",
                                  "ก" + "\u0e48" * 3, "e\u0301\u0302\u0303"])
def test_a_name_with_more_than_two_marks_on_one_letter_is_refused(alice, name):
    before = alice.get("/me").json()["name"]

    response = alice.patch("/me", {"name": name})

    assert response.status_code == 422
    assert error_of(response)["code"] == "invalid_name"
    assert alice.get("/me").json()["name"] == before
