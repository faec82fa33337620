"""GET /games/{id}/hint: practice games only; a legal lay-down when the hand holds the
contract, and the lay-offs open now."""

import pytest

from games.engine import contract_for, holds_contract
from games.engine.cards import parse_card
from tests.games.helpers import error_of
from tests.games.scripted import costliest

pytestmark = pytest.mark.django_db


def hand_of(game: dict) -> list[int]:
    return [parse_card(c["id"]) for c in game["hand"]]


def test_no_lay_down_is_hinted_before_the_draw(alice):
    game = alice.new_game()

    hint = alice.get(f"/games/{game['id']}/hint").json()

    assert hint == {"version": game["version"], "lay_down": None, "lay_off": []}


def test_the_hinted_lay_down_is_accepted_by_the_rules(alice):
    """Play stock-draw-and-discard turns until the hand holds the contract, then lay down
    exactly what the hint says."""
    game = alice.new_game()
    for _ in range(200):
        if game["phase"] == "draw":
            game = alice.act(game, {"type": "draw", "from": "stock"}).json()["game"]
            continue
        contract = contract_for(game["players"][0]["rung"])
        hint = alice.get(f"/games/{game['id']}/hint").json()
        if game["legal"]["lay_down"] and holds_contract(hand_of(game), contract) and \
                hint["lay_down"]:
            response = alice.act(game, {"type": "lay_down", "melds": hint["lay_down"]})
            assert response.status_code == 200, response.content
            assert response.json()["events"][0]["t"] == "laid_down"
            return
        if not holds_contract(hand_of(game), contract):
            assert hint["lay_down"] is None
        game = alice.act(game, {"type": "discard",
                                "card": costliest(game["legal"]["discard"])}).json()["game"]
    pytest.fail("the hand never held the contract")


def test_the_hinted_lay_offs_are_the_legal_ones(alice):
    game = alice.new_game()
    game = alice.act(game, {"type": "draw", "from": "stock"}).json()["game"]

    hint = alice.get(f"/games/{game['id']}/hint").json()

    assert hint["lay_off"] == game["legal"]["lay_off"]


def test_there_are_no_hints_in_a_ranked_game(alice):
    response = alice.post("/games", {"mode": "daily"})
    assert response.status_code in (200, 201), response.content
    daily = response.json()

    response = alice.get(f"/games/{daily['id']}/hint")

    assert response.status_code == 403
    assert error_of(response)["code"] == "no_hints_in_ranked_games"
