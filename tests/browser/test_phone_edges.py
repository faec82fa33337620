"""The phone's rough edges (issue 41, each seen on a screenshot), at the size where each was
seen: the deal summary, the turn banner, the melds at 360, the log, a phone on its side, the
replay, Spanish articles, the top menu, a league's hidden results."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.browser.strategy import PERSON, person_action
from tests.browser.table_driver import (
    card,
    counted_melds,
    more_melds,
    outside_viewport,
    play_turn,
    tap_to_the_last_meld,
    view,
    wait_idle,
)
from tests.browser.test_phone_table import (  # noqa: F401 (long_deal: a fixture)
    PHONES,
    double_tap,
    long_deal,
    start_practice,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# How far a box's content reaches past its right edge (CSS pixels).
OVERFLOW = "(el) => el.scrollWidth - el.clientWidth"


def play_on_the_server(game_id: str, until) -> None:
    """Play the game through the service layer with the scripted strategy, a round at a time,
    up to the person's turn at which ``until(round)`` holds: ``round`` is what that turn and
    the computer players' after it would be (a list of (seat, action, state after), played
    on the engine as the server plays it, from the game's seed). The page then plays that
    turn. In a thread of its own (the service publishes its events with async_to_sync; this
    thread runs Playwright's event loop)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(_play_on_the_server, game_id, until).result()


def _play_on_the_server(game_id: str, until) -> None:
    from django.db import connection

    from games import services
    from games.bots import choose, rng_for
    from games.engine import apply, player_view
    from games.models import Game

    def one_round(state):  # the person's turn, then the others' up to the person's next
        steps = []
        while True:
            seat = state.turn
            view = player_view(state, seat)
            action = person_action(view) if seat == PERSON else choose(
                game.level, view, rng_for(game.seed, seat, state.actions))
            state, _ = apply(state, seat, action)
            steps.append((seat, action, state))
            if state.phase == "finished" or (state.turn == PERSON and state.phase == "draw"):
                return steps

    try:
        while True:
            game = Game.objects.get(public_id=game_id)
            state = game.load_state()
            assert state.turn == PERSON and state.phase == "draw", "the game ended first"
            if until(one_round(state)):
                return
            while True:  # the same round through the service (it plays the computer players)
                action = person_action(player_view(state, PERSON))
                services.act(game_id, game.owner, game.version, action.to_json())
                game = Game.objects.get(public_id=game_id)
                state = game.load_state()
                if state.turn == PERSON and state.phase == "draw":
                    break
    finally:
        connection.close()


def the_deal_ends(steps) -> bool:
    return steps[-1][2].deal != steps[0][2].deal


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("size", list(PHONES))
def test_the_deal_summary_fits_a_phone_with_its_contracts_and_totals(
        open_page, site, seeded, size, language):
    page, watch = open_page(PHONES[size], touch=True, speed="instant")
    start_practice(page, site.url, language)
    play_on_the_server(view(page)["id"], until=the_deal_ends)
    page.reload()
    wait_idle(page)
    measured = []

    def measure(page):
        dialog = page.locator("dialog[open]")
        box = dialog.bounding_box()
        # Contracts and Total, the standings the place comes from: every cell in the box.
        rights = dialog.locator("table.deal-summary tr > :nth-last-child(-n+2)").evaluate_all(
            "(cells) => cells.map((c) => c.getBoundingClientRect().right)")
        measured.append({"overflow": dialog.evaluate(OVERFLOW), "cells": len(rights),
                         "outside": [r for r in rights if r > box["x"] + box["width"]]})

    play_turn(page, {"laid_down": 0, "laid_off": 0, "discarded": 0}, on_summary=measure)
    assert measured == [{"overflow": 0, "cells": 10, "outside": []}]
    watch.check()


# Whether an element's text is cut off: wider or taller than its box.
CUT_OFF = "(el) => el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5"


@pytest.mark.parametrize("language", ["en", "th"])
@pytest.mark.parametrize("size", list(PHONES))
def test_the_turn_banner_is_read_to_its_end_on_a_phone(open_page, site, seeded, size, language):
    page, watch = open_page(PHONES[size], touch=True, speed="instant")
    start_practice(page, site.url, language)
    banner = page.locator("[data-turn]")
    hand_top = page.locator(".hand").bounding_box()["y"]
    for phase in ("draw", "play"):  # the play phase's says how to discard: a double tap
        assert view(page)["phase"] == phase
        assert not banner.evaluate(CUT_OFF), (phase, banner.inner_text())
        assert page.locator(".hand").bounding_box()["y"] == hand_top  # it never moves the hand
        if phase == "draw":
            page.tap("[data-stock]")
            wait_idle(page)
    watch.check()


def the_person_lays_off(steps) -> bool:
    from games.engine import LayOff

    return any(seat == PERSON and isinstance(action, LayOff) for seat, action, _ in steps)


@pytest.mark.usefixtures("long_deal")
def test_at_360_with_melds_down_the_space_goes_to_the_melds(open_page, site):
    page, watch = open_page(PHONES["360x740"], touch=True, speed="instant")
    start_practice(page, site.url)
    play_on_the_server(view(page)["id"], until=the_person_lays_off)
    page.reload()
    wait_idle(page)
    page.tap("[data-stock]")
    wait_idle(page)
    v = view(page)
    card_h = page.locator(".hand .card").first.bounding_box()["height"]
    # One row of cards holds the hand (and the card to come): no empty second row.
    assert len(v["hand"]) <= 6
    assert page.locator(".hand").bounding_box()["height"] < 1.5 * card_h
    option = v["legal"]["lay_off"][0]
    card(page, option["card"]).tap()
    seen = counted_melds(page)
    assert seen["buttons"] and all(seen["buttons"]), seen  # "Lay off here" whole, in view
    assert seen["share"] > 0.55, seen  # the piles take little of the table's width (0.5 before)
    # The melds out of view are counted, and the count takes the player to them.
    assert seen["melds"] > seen["whole"] and seen["more"] == more_melds(seen), seen
    tap_to_the_last_meld(page, seen)
    watch.check()


# The log's line for each of a seat's moves with a card (controllers/animator.js).
LOG_LINES = """async (cards) => {
    const src = document.querySelector('script[src*="pages/table"]').src;
    const animator = await import(src.replace(/pages[/]table[.]js.*/, 'controllers/animator.js'));
    const view = {you: 0, players: [0, 1, 2, 3].map((seat) => ({seat, name: 'Ada'}))};
    const lines = [];
    for (const card of cards) {
        for (const [t, extra] of [['drew', {from: 'discard'}], ['drew', {from: 'stock'}],
                                   ['laid_off', {}], ['discarded', {}]]) {
            for (const seat of [0, 1]) {
                lines.push(animator.describeEvent(view, {t, seat, card, ...extra}));
            }
        }
    }
    return lines;
}"""


def test_spanish_log_lines_give_each_card_its_article(open_page, site, seeded):
    page, watch = open_page(PHONES["390x844"], touch=True, locale="es-ES")
    start_practice(page, site.url, "es")
    cards = [{"id": f"{r}S.1", "rank": r, "suit": "S"} for r in ("J", "Q", "K", "A", "7")]
    cards.append({"id": "JK.1", "joker": True})
    lines = page.evaluate(LOG_LINES, cards)
    assert len(lines) == 6 * 8 and all(lines), lines
    for line in lines:
        for word in ("jota", "reina"):
            assert f" el {word}" not in line and f" del {word}" not in line, line
        for word in ("rey", "as", "siete", "comodín"):
            assert f" la {word}" not in line, line
    assert "Ada descartó la jota de picas." in lines
    assert "Tomaste la reina de picas del descarte." in lines
    assert "Ada colocó el rey de picas." in lines
    assert "Robaste el comodín del mazo." in lines
    watch.check()


@pytest.mark.parametrize("language", ["en", "th"])
def test_on_its_side_a_phone_shows_hand_piles_and_buttons_in_the_window(
        open_page, site, seeded, language):
    page, watch = open_page({"width": 844, "height": 390}, touch=True, speed="instant")
    start_practice(page, site.url, language)
    assert outside_viewport(page) == []
    page.tap("[data-stock]")  # eleven cards: the hand at its largest
    wait_idle(page)
    assert outside_viewport(page) == []
    assert page.evaluate("() => scrollY") == 0
    watch.check()


@pytest.mark.parametrize("language", ["en", "th"])
def test_at_360_each_seat_shows_its_last_move(open_page, site, seeded, language):
    """The log has room for four lines at 360: a round of the computer players' moves is six
    or seven. Each seat says its own last move, whole, in the window."""
    page, watch = open_page(PHONES["360x740"], touch=True, speed="instant")
    start_practice(page, site.url, language)
    page.tap("[data-stock]")
    wait_idle(page)
    hand = view(page)["hand"]
    double_tap(page, next(c["id"] for c in hand if not c["id"].startswith("JK")))
    page.wait_for_function("() => [...document.querySelectorAll('.seat .last-move')]"
                           ".filter((p) => p.textContent).length === 3")
    wait_idle(page)
    moves = page.locator(".seat .last-move")
    for i in range(3):
        move = moves.nth(i)
        assert move.is_visible() and not move.evaluate(CUT_OFF), move.inner_text()
        box = move.bounding_box()
        assert box["y"] >= 0 and box["x"] + box["width"] <= 360
    assert outside_viewport(page) == []
    watch.check()


def test_a_joker_thrown_away_by_a_double_tap_is_asked_about_once(open_page, site, seeded):
    page, watch = open_page(PHONES["360x740"], touch=True, speed="instant", ask_joker=True)
    start_practice(page, site.url)
    page.tap("[data-stock]")  # this seed's first draw is a joker
    wait_idle(page)
    joker = next(c["id"] for c in view(page)["hand"] if c["id"].startswith("JK"))
    double_tap(page, joker)
    page.wait_for_function("() => /joker/.test(document.querySelector('[data-message]')"
                           ".textContent)")
    assert "Do it again to confirm" in page.inner_text("[data-message]")
    assert outside_viewport(page) == []  # the question moves nothing out of the window
    assert joker in [c["id"] for c in view(page)["hand"]]  # asked, not thrown
    double_tap(page, joker)  # the same again: thrown
    wait_idle(page)
    assert joker not in [c["id"] for c in view(page)["hand"]]
    watch.check()


def test_with_the_question_turned_off_d_throws_a_joker_at_once(open_page, site, seeded):
    page, watch = open_page({"width": 1280, "height": 800}, speed="instant", ask_joker=True)
    start_practice(page, site.url)
    page.click("[data-settings-toggle]")
    page.uncheck('[data-setting="askJoker"]')
    page.click("[data-settings-toggle]")
    page.click("[data-stock]")
    wait_idle(page)
    joker = next(c["id"] for c in view(page)["hand"] if c["id"].startswith("JK"))
    card(page, joker).focus()
    page.keyboard.press("d")
    wait_idle(page)
    assert joker not in [c["id"] for c in view(page)["hand"]]
    watch.check()


def a_card_fits_two_places(steps) -> bool:
    """After the person's draw, a card of theirs may be laid off in two places or more."""
    from collections import Counter

    from games.engine import player_view

    after_draw = steps[0][2]
    places = Counter(card for _, card, _ in player_view(after_draw, PERSON).legal.lay_offs)
    return any(n > 1 for n in places.values())


@pytest.fixture
def two_places_seed(monkeypatch):
    """A game in which, in deal 2, a card of the person's fits two places (a joker, both
    ends of a run)."""

    monkeypatch.setattr("games.services.actions.new_seed", lambda: "browser-8")


@pytest.mark.usefixtures("two_places_seed")
def test_l_on_a_card_that_fits_two_melds_offers_them_on_the_arrow_keys(open_page, site):
    page, watch = open_page({"width": 1280, "height": 800}, speed="instant")
    start_practice(page, site.url)
    play_on_the_server(view(page)["id"], until=a_card_fits_two_places)
    page.reload()
    wait_idle(page)
    page.click("[data-stock]")
    wait_idle(page)
    options = view(page)["legal"]["lay_off"]
    chosen = next(o["card"] for o in options if sum(p["card"] == o["card"] for p in options) > 1)
    card(page, chosen).focus()
    page.keyboard.press("l")
    focused = "() => document.activeElement.dataset.layoff !== undefined"
    page.wait_for_function(focused)
    place = "() => [document.activeElement.dataset.layoff, document.activeElement.dataset.end]"
    first = page.evaluate(place)
    page.keyboard.press("ArrowRight")
    second = page.evaluate(place)
    assert page.evaluate(focused) and second != first
    page.keyboard.press("Enter")  # laid off there, in two keys and Enter
    wait_idle(page)
    assert chosen not in [c["id"] for c in view(page)["hand"]]
    watch.check()


def test_a_reload_while_the_deal_summary_is_open_shows_it_again_until_dismissed(
        open_page, site, seeded):
    page, watch = open_page(PHONES["390x844"], touch=True, speed="instant")
    start_practice(page, site.url)
    play_on_the_server(view(page)["id"], until=the_deal_ends)
    page.reload()
    wait_idle(page)
    seen = []

    def reload_first(page):
        if seen:
            return
        seen.append(page.inner_text("dialog[open] [data-summary-title]"))
        page.reload()  # the summary open: it is shown again
        page.wait_for_selector("dialog[open] [data-summary-continue]")
        seen.append(page.inner_text("dialog[open] [data-summary-title]"))

    play_turn(page, {"laid_down": 0, "laid_off": 0, "discarded": 0}, on_summary=reload_first)
    assert seen == ["Deal 1 is over", "Deal 1 is over"]
    page.reload()  # dismissed: not again

    def no_summary(page):
        raise AssertionError("the dismissed summary was shown again")

    wait_idle(page, on_summary=no_summary)
    watch.check()
