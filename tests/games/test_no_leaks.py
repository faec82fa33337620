"""No leaks (R25): over 50 full games played through the API by a scripted person, no response
and no websocket message contains a card hidden from the person at that moment, and none
contains the seed before the game is over. Each finished game also replays, from its seed and
its log, to its stored snapshot and result.

The check runs beside the game on the server's own log: for every version ``v`` it keeps
the state, and what the person could have seen in the deal by then (own hand, the table,
every card that went through the discard pile). An event at ``v`` may show what was known just
before action ``v``, the cards that action itself showed (a discard, melds, a lay-off), and
what is known after it within the same deal; a ``deal_started`` event, the new deal's view.
The websocket's messages are taken where they leave the service for the channel layer
(test_websocket.py checks the consumer forwards them unchanged).
"""

from __future__ import annotations

import json
import os
import re
from unittest import mock

import pytest

from games.engine import action_from_json, apply, new_game
from games.engine.cards import card_id
from games.models import Game, GameAction
from games.services import publishing
from tests.games.scripted import play_to_the_end

# 50 games on SQLite (every developer's run and CI's second run). What a response holds does
# not depend on the database, so CI's PostgreSQL run plays 10 to keep the suite's time; set
# LEAK_GAMES to play more or fewer.
DEFAULT_GAMES = {"sqlite": 50, "postgresql": 10}


def games_to_play() -> int:
    from django.db import connection

    return int(os.environ.get("LEAK_GAMES", DEFAULT_GAMES.get(connection.vendor, 50)))
CARD = re.compile(r"(?:10|[2-9AJQK])[SHDC]\.[12]|JK\.[123]")


def cards_in(document) -> set[str]:
    """Every string in a JSON document that is a card id."""
    found = set()
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and CARD.fullmatch(item):
            found.add(item)
    return found


def known(state, seat: int = 0) -> set[str]:
    """What ``seat`` has seen in the current deal: own hand, table, the discard pile's
    traffic."""
    cards = set(state.hands[seat])
    for meld in state.table:
        cards.update(meld.meld.cards)
    cards.update(card for _seat, card, _took in state.pile_log)
    return {card_id(c) for c in cards}


def action_cards(data: dict) -> set[str]:
    return cards_in(data)


class Witness:
    """Follows one game on the server's log and judges what the person at ``seat`` was
    sent."""

    def __init__(self, game: Game, seat: int = 0):
        self.game, self.seat = game, seat
        state, _ = new_game(game.seed)
        self.states = [state]
        self.actions: list[dict] = []

    def catch_up(self) -> None:
        rows = (GameAction.objects.filter(game=self.game, index__gte=len(self.actions))
                .order_by("index").values_list("seat", "action"))
        for seat, data in rows:
            state, _ = apply(self.states[-1], seat, action_from_json(data))
            self.states.append(state)
            self.actions.append(data)

    def allowed_for_event(self, message: dict) -> set[str]:
        v = message["v"]
        after = self.states[v]
        if message["t"] == "deal_started" or v == 0:
            return known(after, self.seat)
        before = self.states[v - 1]
        allowed = known(before, self.seat) | action_cards(self.actions[v - 1])
        if after.deal == before.deal:
            allowed |= known(after, self.seat)
        return allowed

    def check_view(self, view: dict, where: str) -> None:
        leaked = cards_in(view) - known(self.states[view["version"]], self.seat)
        assert not leaked, f"{where}: hidden cards {sorted(leaked)} at v{view['version']}"

    def check_events(self, messages: list[dict], where: str) -> None:
        versions = [m["v"] for m in messages]
        assert versions == sorted(versions), f"{where}: events out of order"
        for message in messages:
            leaked = cards_in(message) - self.allowed_for_event(message)
            assert not leaked, f"{where}: hidden cards {sorted(leaked)} in {message}"

    def check_seed(self, text: str, finished: bool, where: str) -> None:
        if not finished:
            assert self.game.seed not in text, f"{where}: the seed before the end"


@pytest.mark.slow
def test_nothing_hidden_reaches_the_person_in_fifty_games(
        alice, django_capture_on_commit_callbacks):
    published: list[tuple[str, list[dict]]] = []

    # Kept, not sent: no socket listens here, and a send from a test's thread costs a Redis
    # connection of its own (test_websocket checks the consumer forwards frames unchanged).
    def spy(game_id, seat, messages):
        assert seat == 0  # the person's seat: nobody else sits at these games
        published.append((game_id, messages))

    checked_responses = checked_messages = 0
    with (mock.patch.object(publishing, "publish", spy),
          django_capture_on_commit_callbacks(execute=True)):
        for number in range(games_to_play()):
            first = len(alice.responses)
            view = alice.new_game("easy")
            game = Game.objects.get(public_id=view["id"])
            witness = Witness(game)

            def judge(response, witness=witness, number=number):
                nonlocal checked_responses
                witness.catch_up()
                body = response.json()
                text = response.content.decode()
                finished = body["game"]["status"] == "finished" if "game" in body else False
                witness.check_seed(text, finished, f"game {number}")
                witness.check_view(body["game"], f"game {number}")
                witness.check_events(body["events"], f"game {number}")
                checked_responses += 1

            witness.catch_up()
            witness.check_view(view, "new game")
            witness.check_seed(json.dumps(view), False, "new game")
            # While it runs: no replay, and the list of games shows no card at all.
            closed = alice.get(f"/replays/{view['id']}")
            assert closed.status_code == 404 and game.seed not in closed.content.decode()
            assert not cards_in(alice.get("/games").json())
            final = play_to_the_end(alice, view, on_response=judge)
            assert final["status"] == "finished"
            assert alice.get(f"/replays/{view['id']}").status_code == 200  # the owner's now
            # The finished game replays to its stored snapshot and result.
            game.refresh_from_db()
            assert witness.states[-1].to_json() == game.state
            assert (game.contracts, game.penalty, game.place) == tuple(
                final["result"][0][k] for k in ("contracts", "penalty", "place"))

            # Every response this person got for this game, hints included.
            for response in alice.responses[first:]:
                body = response.json()
                if "hand" in body:
                    witness.check_view(body, "view")
                if "lay_down" in body and "version" in body:  # a hint
                    leaked = cards_in(body) - known(witness.states[body["version"]])
                    assert not leaked, f"hint leaked {leaked}"

    # Every websocket message, as published after commit (captured on commit in tests).
    witnesses: dict[str, Witness] = {}
    for game_id, messages in published:
        if game_id not in witnesses:
            witnesses[game_id] = Witness(Game.objects.get(public_id=game_id))
            witnesses[game_id].catch_up()
        witness = witnesses[game_id]
        witness.check_events(messages, f"websocket {game_id}")
        finished = any(m["t"] == "game_finished" for m in messages)
        witness.check_seed(json.dumps(messages), finished, f"websocket {game_id}")
        checked_messages += len(messages)

    games = games_to_play()
    assert Game.objects.finished().count() == games
    assert checked_responses > games * 50
    assert checked_messages > games * 500


def test_the_witness_catches_a_hidden_card():
    """The checker itself can fail: another seat's hand is not the person's to see."""
    state, _ = new_game("witness")
    hidden = card_id(state.hands[1][0])
    assert hidden not in known(state)
    assert hidden in cards_in({"data": {"hand": [{"id": hidden}]}})
