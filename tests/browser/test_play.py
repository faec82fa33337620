"""A person plays Ladder Rummy in Chromium: mouse, touch and keyboard, against the live API."""

from __future__ import annotations

import gzip

import pytest

from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.strategy import discard_choice_json
from tests.browser.table_driver import card, double_click, play_turn, view, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_TURNS = 40


def start_practice(page, base_url: str, level: str = "easy") -> None:
    page.goto(base_url + "/")
    page.check(f'input[name="level"][value="{level}"]')
    page.click("[data-practice-start]")
    page.wait_for_url("**/play/**")
    wait_idle(page)


def test_a_practice_game_is_played_through_a_whole_deal_with_the_mouse(
        open_page, site, seeded):
    page, watch = open_page(DESKTOP, speed="fast")
    page.goto(site.url + "/")
    shoot(page, "home-desktop")
    start_practice(page, site.url)
    shoot(page, "table-desktop")
    assert page.locator(".hand .card").count() == 10
    assert page.locator(".seat").count() == 3
    assert page.locator(".ladder .rung").count() == 10
    assert page.locator(".hand .card").first.get_attribute("aria-label")  # "seven of hearts"

    # Not allowed yet: a discard before drawing says why, with the rule.
    page.keyboard.press("Tab")
    double_click(page, page.locator(".hand .card").first)
    assert "Draw a card first" in page.inner_text("[data-message]")
    assert "R13" in page.inner_text("[data-message]")

    record = {"laid_down": 0, "laid_off": 0, "discarded": 0, "summaries": 0}

    def summary(p):
        record["summaries"] += 1
        assert "Deal 1 is over" in p.inner_text("dialog[open]")
        shoot(p, "deal-summary-desktop")

    play_turn(page, record, on_summary=summary)
    # The computer players' cards flew between the piles and their seats; then the person
    # turns the speed to instant in the settings (it applies at once).
    assert page.evaluate("() => window.__flights") > 3
    page.click("[data-settings-toggle]")
    page.select_option('[data-setting="speed"]', "instant")
    page.click("[data-settings-toggle]")
    flights = page.evaluate("() => window.__flights")

    turns = 1
    while view(page)["deal"] == 1 and turns < MAX_TURNS:
        play_turn(page, record, on_summary=summary)
        turns += 1
        if record["laid_down"] and not record.get("shot"):
            shoot(page, "table-laid-down-desktop")
            record["shot"] = True

    v = view(page)
    assert v["deal"] == 2, f"deal 1 did not end in {MAX_TURNS} turns"
    assert page.evaluate("() => window.__flights") == flights  # none since
    # The scores so far: deal 1's contracts and penalties, then the totals.
    page.click("[data-scores-toggle]")
    scores = page.locator("#scores")
    assert scores.is_visible()
    assert scores.locator("tbody tr").count() == 1
    assert "✓" in scores.locator("tbody tr").first.locator("td").first.inner_text()
    footer = scores.locator("tfoot tr").first.locator("td").all_inner_texts()
    assert footer[0].startswith("1") and "1 contract" in footer[0]
    shoot(page, "table-scores-desktop")
    page.click("[data-scores-close]")
    assert scores.is_hidden()
    assert record["summaries"] == 1
    assert record["laid_down"] == 1 and record["laid_off"] >= 1
    assert v["deals"][0]["climbed"][0] is True
    # The bots' turns were shown, in words, as they happened.
    log = page.locator("[data-log] li").all_inner_texts()
    assert any("Ada" in line and "discarded" in line for line in log)
    assert "Deal 2 of 10" in page.inner_text("[data-deal-info]")

    # A reload lands exactly where the game was.
    ids = "els => els.map(e => e.dataset.id)"
    hand_before = page.locator(".hand .card").evaluate_all(ids)
    page.reload()
    wait_idle(page)
    assert page.locator(".hand .card").evaluate_all(ids) == hand_before
    shoot(page, "table-deal2-desktop")
    watch.check()


def test_a_draw_made_while_the_page_reads_the_game_again_is_not_lost(open_page, site):
    """A page reads the game once more as its socket opens. A draw pressed while that read
    is on its way used to be dropped without a word (the page looked ready for it): it now
    waits for the read, then goes, and the drawn card has the focus."""
    page, watch = open_page(DESKTOP)
    start_practice(page, site.url)
    game_id = page.locator("#game").get_attribute("data-game-id")
    reads = []

    def hold_the_second(route):  # the page's opening read goes; the socket's is held
        reads.append(route)
        if len(reads) == 1:
            route.continue_()

    page.route(f"**/api/v1/games/{game_id}", hold_the_second, times=2)
    page.reload()
    while len(reads) < 2:
        page.wait_for_timeout(20)
    version = int(page.locator("#game").get_attribute("data-version"))
    assert page.evaluate("document.getElementById('game').classList.contains('my-turn')")
    page.keyboard.press("s")
    page.wait_for_timeout(300)
    assert page.locator("#game").get_attribute("data-version") == str(version)
    reads[1].continue_()
    page.wait_for_function("(v) => Number(document.getElementById('game').dataset.version) > v"
                           " && !document.getElementById('game').hasAttribute('aria-busy')",
                           arg=version, timeout=5000)
    wait_idle(page)
    assert "just drawn" in page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert view(page)["phase"] == "play"
    watch.check()


def test_a_turn_by_keyboard_alone(open_page, site):
    page, watch = open_page(DESKTOP)
    start_practice(page, site.url)
    version = view(page)["version"]
    page.keyboard.press("s")  # draw from the stock
    wait_idle(page)
    focused = page.evaluate("document.activeElement.dataset.id")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused and "just drawn" in label
    # Arrows move along the hand; Space selects; D discards the focused card.
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Space")
    assert page.locator(".hand .card.selected").count() == 1
    target = page.evaluate("document.activeElement.dataset.id")
    legal = view(page)["legal"]["discard"]
    if target not in legal:
        page.keyboard.press("ArrowRight")
        target = page.evaluate("document.activeElement.dataset.id")
    page.keyboard.press("d")
    wait_idle(page)
    after = view(page)
    assert after["version"] > version + 1
    assert target not in [c["id"] for c in after["hand"]]
    assert page.evaluate("window.__flights") == 0  # instant: no card flies
    # C opens the scores so far (the focus goes into them); Escape closes them and gives the
    # focus back to where it was: the hand.
    focused = page.evaluate("document.activeElement.dataset.id")
    assert focused
    page.keyboard.press("c")
    assert page.locator("#scores").is_visible()
    assert "No deal has ended yet" in page.inner_text("#scores")
    assert page.evaluate("document.activeElement.dataset.scoresClose") == ""
    page.keyboard.press("Escape")
    assert page.locator("#scores").is_hidden()
    assert page.evaluate("document.activeElement.dataset.id") == focused
    watch.check()


# Taps sent in one go, far inside the double-tap window: (card id | selector) -> pointer events.
TAPS = """(targets) => {
  for (const t of targets) {
    const el = t.card ? document.querySelector(`.hand .card[data-id="${CSS.escape(t.card)}"]`)
                      : document.querySelector(t.selector);
    for (const type of ["pointerdown", "pointerup"]) {
      el.dispatchEvent(new PointerEvent(type, {bubbles: true, pointerId: 1, isPrimary: true}));
    }
  }
}"""


def test_a_double_tap_is_two_taps_on_one_card_with_nothing_between(
        open_page, site, seeded):
    page, watch = open_page(DESKTOP, speed="instant")
    start_practice(page, site.url)
    page.click("[data-stock]")
    wait_idle(page)
    chosen = view(page)["legal"]["discard"][0]
    # Tap, a tap elsewhere (here the turn banner), tap again: selected, then not; kept.
    page.evaluate(TAPS, [{"card": chosen}, {"selector": "[data-turn]"}, {"card": chosen}])
    assert card(page, chosen).get_attribute("aria-selected") == "false"
    assert chosen in [c["id"] for c in view(page)["hand"]]
    page.click("[data-turn]")  # the last tap above is forgotten: the next two are a pair
    # Two taps with nothing between, as fast: the card is discarded.
    page.evaluate(TAPS, [{"card": chosen}, {"card": chosen}])
    wait_idle(page)
    assert chosen not in [c["id"] for c in view(page)["hand"]]
    watch.check()


def test_a_turn_by_touch_on_a_phone(open_page, site):
    # The system asks for reduced motion: the steps keep their pace, no card flies.
    page, watch = open_page(PHONE, touch=True, speed="fast", reduced_motion="reduce")
    page.goto(site.url + "/")
    shoot(page, "home-phone")
    start_practice(page, site.url)
    shoot(page, "table-phone")
    page.tap("[data-stock]")
    wait_idle(page)
    fresh = page.locator(".hand .card.fresh")
    fresh_id = fresh.get_attribute("data-id")
    legal = view(page)["legal"]["discard"]
    chosen = fresh_id if fresh_id in legal else legal[0]
    card(page, chosen).scroll_into_view_if_needed()
    box = card(page, chosen).bounding_box()
    for _ in range(2):  # a double tap discards: two taps well inside its 400 ms
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_idle(page)
    assert chosen not in [c["id"] for c in view(page)["hand"]]
    assert page.evaluate("window.__flights") == 0
    page.tap("[data-scores-toggle]")
    assert page.locator("#scores").is_visible()
    shoot(page, "table-phone-after-turn")

    # The first load of the table, nothing cached: at most 150 KB gzipped.
    responses = []
    fresh = page.context.new_page()
    fresh.on("response", lambda r: responses.append(r))
    fresh.goto(page.url)
    wait_idle(fresh)
    fresh.wait_for_load_state("networkidle")
    weight = sum(len(gzip.compress(r.body(), 6)) for r in responses if r.status == 200)
    assert weight <= 150 * 1024, f"first load of the table: {weight} bytes gzipped"
    watch.check()


def test_a_card_held_mid_drag_stays_in_the_hand_while_the_computer_players_move(
        open_page, site, seeded):
    """Another seat's move changes nothing in your hand, so the hand is not drawn again: a card
    you are dragging to sort your hand stays under the pointer while the bots' moves play, and
    dropping it puts it where you let go. Once the moves are played, no seat stays marked as
    the one moving."""
    page, watch = open_page(DESKTOP, speed="normal")
    start_practice(page, site.url)
    page.click("[data-stock]")
    page.wait_for_function("() => document.querySelector('#game.my-turn [data-stock]:disabled')")
    discarded = discard_choice_json(view(page))
    double_click(page, card(page, discarded))
    card(page, discarded).wait_for(state="detached")  # the discard's answer is on screen
    lines = page.locator("[data-log-lines] li")
    before = lines.count()
    held = page.locator(".hand .card").first
    held_id = held.get_attribute("data-id")
    box = held.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 20, box["y"] + box["height"] / 2)
    handle = held.element_handle()
    page.wait_for_function("(n) => document.querySelectorAll('[data-log-lines] li').length >= n",
                           arg=before + 2)  # the bots' draws and discards, played back
    assert handle.evaluate("(el) => el.isConnected && el.classList.contains('dragging')")
    last = page.locator(".hand .card").last.bounding_box()
    page.mouse.move(last["x"] + last["width"] - 2, last["y"] + last["height"] / 2)
    page.mouse.up()
    page.wait_for_function("(id) => [...document.querySelectorAll('.hand .card')].at(-1)"
                           ".dataset.id === id", arg=held_id)
    # Once the moves are played, no seat is still marked as the one moving.
    page.wait_for_selector("#game.my-turn")
    page.wait_for_function("() => !document.querySelector('[data-playback]:not([hidden])')")
    assert page.locator(".seat.acting").count() == 0
    watch.check()
