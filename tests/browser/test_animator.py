"""The page's animator (controllers/animator.js) plays the server's events on a copy of the
view without re-doing the rules: whose turn it is and each hand's size come from the events
(docs/api.md, "What each event's `data` holds"). Played through whole turns of a real game,
the events bring the page's copy to the server's GameView."""

from __future__ import annotations

import pytest

from tests.browser.strategy import discard_choice_json
from tests.browser.table_driver import start_practice

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# One action sent by the page's fetch, its events applied by the animator to the view before
# it: the copy's public facts, and the server's view after the action, side by side.
ACT_AND_ANIMATE = """async ([id, action]) => {
    const { applyEvent, cloneView } = await import("/static/frontend/js/controllers/animator.js");
    const before = await (await fetch(`/api/v1/games/${id}`)).json();
    const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
    const answer = await (await fetch(`/api/v1/games/${id}/actions`, {method: "POST",
        headers: {"Content-Type": "application/json", "X-CSRFToken": token},
        body: JSON.stringify({version: before.version, action})})).json();
    const shown = cloneView(before);
    for (const event of answer.events) applyEvent(shown, event);
    const facts = (v) => ({turn: v.turn, phase: v.phase, deal: v.deal,
        hand_sizes: v.players.map((p) => p.hand_size), hand: v.hand.map((c) => c.id).sort()});
    return {shown: facts(shown), server: facts(answer.game), game: answer.game,
            types: answer.events.map((e) => e.t)};
}"""


def test_the_animator_follows_the_servers_turns_and_hand_sizes(open_page, site):
    page, _ = open_page({"width": 1280, "height": 800})
    game_id = start_practice(page, site.url)
    seen = set()
    view = None
    for _ in range(12):  # a dozen turns: the computer players' draws and discards between
        answer = page.evaluate(ACT_AND_ANIMATE, [game_id, {"type": "draw", "from": "stock"}])
        assert answer["shown"] == answer["server"]
        view = answer["game"]
        answer = page.evaluate(ACT_AND_ANIMATE,
                               [game_id, {"type": "discard", "card": discard_choice_json(view)}])
        assert answer["shown"] == answer["server"], answer["types"]
        seen |= set(answer["types"])
        if answer["game"]["phase"] == "finished":
            break
    assert {"discarded", "drew"} <= seen


def test_the_animator_takes_the_turn_and_the_hand_size_from_the_event(open_page, site):
    """Events naming a turn and hand sizes that no count of cards would give: the animator
    shows what the server said (it used to count them itself)."""
    page, _ = open_page({"width": 1280, "height": 800})
    page.goto(site.url + "/rules/")
    shown = page.evaluate("""async () => {
        const { applyEvent } = await import("/static/frontend/js/controllers/animator.js");
        const view = {you: 0, turn: 1, phase: "play", hand: [], table: [], discard_top: null,
            discard_size: 3, stock_size: 50, players: [0, 1, 2, 3].map((seat) => (
                {seat, hand_size: 10, laid_down: false}))};
        applyEvent(view, {v: 1, t: "discarded",
                          data: {seat: 1, card: {id: "7H.1", rank: "7", suit: "H"},
                                 hand_size: 4, turn: 3}});
        const afterDiscard = {turn: view.turn, phase: view.phase, size: view.players[1].hand_size};
        applyEvent(view, {v: 2, t: "drew", data: {seat: 3, from: "stock", hand_size: 8}});
        return {afterDiscard, turn: view.turn, phase: view.phase, size: view.players[3].hand_size};
    }""")
    assert shown == {"afterDiscard": {"turn": 3, "phase": "draw", "size": 4},
                     "turn": 3, "phase": "play", "size": 8}
