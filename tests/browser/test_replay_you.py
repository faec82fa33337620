"""The replay of a friends' table from a friend's phone (issue 51, item 4): the hand face up
in front is the friend's own seat, not the host's; the log says "You" for the friend's moves
and the host's name for the host's; the expert's note sits on that hand. A friend who left
the table before the end opens it the same way once the game is over, and the review says how
many turns the computer played for them; a mark that cost below 0 says their move was at
least as good (item 5)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from games.bots import REASONS, choose, rng_for
from games.engine import action_from_json, apply, new_game, player_view
from games.engine.cards import card_id
from games.models import Analysis, Game, GameAction, Seat
from games.players.identity import COOKIE_NAME
from tests.browser.test_replay import PHONE_TALL, open_replay, signed_cookie
from tests.factories import player_with_token

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOST, FRIEND = 0, 2
VERSION_IS = "(v) => document.getElementById('replay').dataset.version === String(v)"


def played_together(leaves: bool) -> tuple:
    """A host and a friend (seat 2) at an easy table, some turns each, the friend leaving
    midway or not; the game then over. In a thread of its own: the service publishes with
    async_to_sync, and this thread runs Playwright's event loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(_play, leaves).result()


def _play(leaves: bool) -> tuple:
    from django.db import connection

    from games import services

    try:
        host, _ = player_with_token("Hostess Ana")
        friend, _ = player_with_token("Friend Ben")
        people = {HOST: host, FRIEND: friend}
        game = services.start_game_together(host, people, level="easy").game
        for moves in range(40):
            if leaves and moves == 24:
                services.leave_game(game.public_id, friend)
                people.pop(FRIEND)
                game.refresh_from_db()
            state = game.load_state()
            seat = state.turn
            action = choose("easy", player_view(state, seat), rng_for(game.seed, seat,
                                                                       state.actions))
            game = services.act(game.public_id, people[seat], game.version,
                                action.to_json()).game
        # Over, with a result for each seat (the tests' shortcut: a whole game is minutes).
        Seat.objects.filter(game=game).update(contracts=0, penalty=0, place=1)
        Game.objects.filter(pk=game.pk).update(status=Game.FINISHED, finished_at=game.updated_at,
                                               contracts=0, penalty=0, place=1)
        return host, friend, Game.objects.get(pk=game.pk)
    finally:
        connection.close()


def states_of(game: Game) -> list:
    state, _ = new_game(game.seed)
    states = [state]
    for seat, data in game.actions.order_by("index").values_list("seat", "action"):
        state, _ = apply(state, seat, action_from_json(data))
        states.append(state)
    return states


def marked_below_zero(game: Game, states: list, bot_turns: int) -> int:
    """The friend's review: one mark, at their last discard of their own that did not end the
    deal, that cost below 0 (the imagined deals liked their card better); the mark's version."""
    v = [index for index in GameAction.objects.filter(
        game=game, seat=FRIEND, bot=False, action__type="discard").values_list("index", flat=True)
        if states[index + 1].deal == states[index].deal][-1]
    played = GameAction.objects.get(game=game, index=v).action
    view = player_view(states[v], FRIEND)
    kept = next(card_id(c) for c in view.legal.discards
                if card_id(c).split(".")[0] != played["card"].split(".")[0])
    Analysis.objects.create(game=game, seat=FRIEND, data={
        "decisions": 9, "agreed": 8, "bot_turns": bot_turns, "costliest": None,
        "marks": [{"v": v, "deal": states[v].deal, "kind": "discard", "played": played,
                   "expert": {"type": "discard", "card": kept},
                   "reason": {"code": "discard_does_nothing",
                              "message": REASONS["discard_does_nothing"]},
                   "cost": -0.0213}]})
    return v


LOG = """() => [...document.querySelectorAll('[data-log-lines] li')].map(
  (li) => [li.textContent, li.classList.contains('mine')])"""


@pytest.mark.parametrize("leaves", [False, True], ids=["stays", "left-midway"])
def test_a_friends_phone_replays_the_table_from_the_friends_own_seat(open_page, site, leaves):
    host, friend, game = played_together(leaves)
    states = states_of(game)
    v = marked_below_zero(game, states, bot_turns=3 if leaves else 0)
    page, watch = open_page(PHONE_TALL, touch=True)
    page.context.add_cookies([{"name": COOKIE_NAME, "value": signed_cookie(friend),
                               "url": site.url}])
    open_replay(page, site.url, game, f"?v={v}")

    summary = page.inner_text("[data-analysis-summary]")
    assert ("3 turns the computer played for you are not counted." in summary) == leaves
    note = page.inner_text("[data-mark-note]")
    assert "By the expert's own estimate, your move was at least as good." in note
    assert "It cost" not in note

    page.tap("[data-go='forward']")  # the friend's discard itself
    page.wait_for_function(VERSION_IS, arg=v + 1)
    hand = page.eval_on_selector_all("[data-hand] .card", "(cs) => cs.map((c) => c.dataset.id)")
    assert sorted(hand) == sorted(card_id(c) for c in states[v + 1].hands[FRIEND])
    assert page.inner_text("[data-me-name]") == "You"
    assert page.locator(f'.seat[data-seat="{FRIEND}"]').count() == 0
    host_seat = page.locator(f'.seat[data-seat="{HOST}"]')
    assert host_seat.locator("h3").inner_text() == host.name

    lines = page.evaluate(LOG)
    assert lines[-1][1] and lines[-1][0].startswith("You discarded")  # the friend's move
    assert all(text.startswith("You ") == mine for text, mine in lines if text)
    seats = list(game.actions.order_by("index").values_list("seat", flat=True))
    deal = states[v + 1].deal
    host_moved = any(seat == HOST and states[i].deal == deal for i, seat in enumerate(seats[:v]))
    assert any(text.startswith(host.name) for text, _ in lines) == host_moved
    watch.check()
