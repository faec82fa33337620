"""A scripted person who plays a whole game through the API, as a simple client would:
draw from the stock, lay the contract down when the hint finds a way (where several people
play and hints are off, the engine's best lay-down), lay off what fits, discard the
costliest card allowed."""

from __future__ import annotations

from games.engine import best_lay_down, contract_for, holds_contract
from games.engine.cards import card_id, parse_card, penalty_of


def costliest(cards: list[str]) -> str:
    return max(cards, key=lambda c: (penalty_of(parse_card(c)), c))


def next_action(api, game: dict) -> dict:
    legal = game["legal"]
    if game["phase"] == "draw":
        return {"type": "draw", "from": "stock"}
    if legal["may_lay_down"] and _holds_contract(game):  # ask for a hint only when it helps
        melds = _lay_down(api, game)
        if melds:
            return {"type": "lay_down", "melds": melds}
    if legal["lay_off"]:
        return legal["lay_off"][0]  # an option is the action, posted as it is
    return {"type": "discard", "card": costliest(legal["discard"])}


def one_action(api, game: dict) -> dict:
    """Plays the next plain action of the player to move (``game`` their own read): the game
    after it."""
    response = api.act(game, next_action(api, game))
    assert response.status_code == 200, response.content
    return response.json()["game"]


def play_to_the_end(api, game: dict, on_response=None, max_requests: int = 2000) -> dict:
    """Plays ``game`` (a GameView) until it is finished; returns the final GameView."""
    for _ in range(max_requests):
        if game["status"] == "finished":
            return game
        response = api.act(game, next_action(api, game))
        assert response.status_code == 200, response.content
        if on_response:
            on_response(response)
        game = response.json()["game"]
    raise AssertionError(f"game {game['id']} not finished after {max_requests} requests")


def play_together_to_the_end(people: dict, game: dict, on_response=None,
                             max_requests: int = 3000) -> dict:
    """Plays a game several people share (``people``: their APIs by seat) until it is
    finished, each person on their turn from their own read of the game; returns the final
    GameView. ``on_response(mine, response)`` sees each mover's read and answer."""
    for _ in range(max_requests):
        if game["status"] == "finished":
            return game
        mover = people[game["turn"]]
        mine = mover.get(f"/games/{game['id']}").json()
        response = mover.act(mine, next_action(mover, mine))
        assert response.status_code == 200, response.content
        if on_response:
            on_response(mine, response)
        game = response.json()["game"]
    raise AssertionError(f"game {game['id']} not finished after {max_requests} requests")


def _lay_down(api, game: dict) -> list[list[str]] | None:
    hint = api.get(f"/games/{game['id']}/hint")
    if hint.status_code == 403 and hint.json()["error"]["code"] == "no_hints_at_shared_games":
        hand = [parse_card(card["id"]) for card in game["hand"]]
        found = best_lay_down(hand, contract_for(game["players"][game["you"]]["rung"]))
        return None if found is None else [[card_id(c) for c in meld.cards]
                                           for meld in found[0]]
    assert hint.status_code == 200, hint.content
    return hint.json()["lay_down"]


def _holds_contract(game: dict) -> bool:
    hand = [parse_card(card["id"]) for card in game["hand"]]
    return holds_contract(hand, contract_for(game["players"][game["you"]]["rung"]))
