"""POST /transfer-codes and /transfer-codes/redeem: move an anonymous identity to another
browser without registering."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.players.models import TransferCode, sha256_hex
from tests.games.conftest import Api
from tests.games.helpers import error_of

pytestmark = pytest.mark.django_db


def new_browser() -> Api:
    api = Api(Client(enforce_csrf_checks=True), csrf=True)
    api.get("/csrf")
    return api


def test_a_code_moves_the_identity_and_its_games_to_another_browser(browser):
    game = browser.new_game()
    made = browser.post("/transfer-codes")
    assert made.status_code == 201
    code = made.json()["code"]
    assert len(code) == 14 and code.count("-") == 2
    other = new_browser()

    response = other.post("/transfer-codes/redeem", {"code": code.lower()})

    assert response.status_code == 200
    assert other.get(f"/games/{game['id']}").status_code == 200
    # Moved, not copied: the first browser's cookie no longer works.
    assert browser.get("/me").status_code == 401


def test_only_the_codes_hash_is_stored(alice):
    code = alice.post("/transfer-codes").json()["code"]

    record = TransferCode.objects.get()
    assert record.code_hash == sha256_hex(code.replace("-", ""))
    assert code.replace("-", "") not in str(TransferCode.objects.values().get())


def test_a_code_works_once(alice):
    code = alice.post("/transfer-codes").json()["code"]
    assert new_browser().post("/transfer-codes/redeem", {"code": code}).status_code == 200

    response = new_browser().post("/transfer-codes/redeem", {"code": code})

    assert response.status_code == 404
    assert error_of(response)["code"] == "invalid_transfer_code"


def test_an_expired_or_unknown_code_is_refused(alice):
    code = alice.post("/transfer-codes").json()["code"]
    TransferCode.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    for attempt in (code, "0000-0000-0000"):
        response = new_browser().post("/transfer-codes/redeem", {"code": attempt})
        assert response.status_code == 404, attempt
    for attempt in ("not a code", "", "ABCD-EFGH-JKMN" * 4):  # not shaped like a code
        response = new_browser().post("/transfer-codes/redeem", {"code": attempt})
        assert response.status_code == 422, attempt
        assert response.json()["error"]["code"] == "invalid_transfer_code"


def test_a_new_code_cancels_the_old_one(alice):
    old = alice.post("/transfer-codes").json()["code"]
    alice.post("/transfer-codes")

    assert new_browser().post("/transfer-codes/redeem", {"code": old}).status_code == 404


def test_redeeming_is_csrf_checked_and_throttled(alice, settings, throttle_clock):
    code = alice.post("/transfer-codes").json()["code"]
    forged = Api(Client(enforce_csrf_checks=True))
    assert forged.post("/transfer-codes/redeem", {"code": code}).status_code == 403

    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "transfer": "2/d"}
    guesser = new_browser()
    statuses = [guesser.post("/transfer-codes/redeem", {"code": "0000-0000-0000"}).status_code
                for _ in range(3)]

    assert statuses == [404, 404, 429]
