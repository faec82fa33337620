"""The table as a player meets it: everything important in view at four window sizes and in
three languages, a deal log that shows the computer players' moves made before the page
opened, a hand with tap targets a finger can hit, help behind "?", a contract laid down in
two gestures, and a move refused with 429 sent again rather than lost."""

from __future__ import annotations

import json

import pytest

from tests.browser.conftest import counting, shoot
from tests.browser.strategy import discard_choice_json
from tests.browser.table_driver import hint, outside_viewport, start_practice, view, wait_idle
from tests.languages import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1280, "height": 800}, "wide-laptop": {"width": 1366, "height": 768},
         "desktop": {"width": 1920, "height": 1080}, "phone": {"width": 390, "height": 844}}
NEXT_FRAME = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def play_until_the_contract_is_held(page) -> None:
    """Draw and discard (as a second tab would) until the hint lays the contract down; then
    the page is read again with that hand."""
    for _ in range(120):
        act(page, {"type": "draw", "from": "stock"})
        if hint(page)["lay_down"]:
            break
        act(page, {"type": "discard", "card": discard_choice_json(view(page))})
    else:
        pytest.fail("the hand never held the contract")
    page.reload()
    wait_idle(page)


def act(page, action: dict) -> dict:
    """An action sent by the page's own fetch (with the CSRF cookie), as a second tab would."""
    game_id = page.locator("#game").get_attribute("data-game-id")
    return page.evaluate("""async ([id, action]) => {
        const game = await (await fetch(`/api/v1/games/${id}`)).json();
        const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
        const r = await fetch(`/api/v1/games/${id}/actions`, {method: "POST",
            headers: {"Content-Type": "application/json", "X-CSRFToken": token},
            body: JSON.stringify({version: game.version, action})});
        return r.json();
    }""", [game_id, action])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_message_after_an_illegal_key_is_in_view_with_the_hand_piles_and_log(
        open_page, site, seeded, language):
    # Seeded: melds laid down before the person's first turn would push the phone's hand down
    # (the table grows to 30vh there, so that lay-off targets keep their buttons in view).
    page, watch = open_page(SIZES["laptop"])
    start_practice(page, site.url, language)
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.locator(".hand .card").first.focus()
        page.evaluate("() => { document.querySelector('[data-message]').textContent = ''; }")
        page.keyboard.press("d")  # discard before drawing: not allowed (R13)
        page.wait_for_selector("[data-message].error")
        assert "R13" in page.inner_text("[data-message]")
        shoot(page, f"table-{name}-{language}", full_page=False)
        assert outside_viewport(page) == [], f"{name} in {language}"
    # A panel is an overlay: opening the scores moves nothing.
    page.set_viewport_size(SIZES["laptop"])
    page.evaluate(NEXT_FRAME)  # the ResizeObservers that lay the hand out run before it
    before = page.locator(".hand").bounding_box()
    page.click("[data-scores-toggle]")
    assert page.locator("#scores").is_visible()
    assert page.locator(".hand").bounding_box() == before
    watch.check(allow=("status of 4",))


# A busy moment: six moves arrive in the log and every computer player is marked dealer and
# laid down, as the page marks them.
BUSY = """() => {
  const log = document.querySelector("[data-log-lines]");
  for (let i = 0; i < 6; i++) {
    log.append(Object.assign(document.createElement("li"), {textContent: "A move"}));
  }
  for (const badges of document.querySelectorAll(".seat .badges")) {
    const badge = (kind, text) => Object.assign(document.createElement("span"),
                                                {className: `badge ${kind}`, textContent: text});
    badges.replaceChildren(badge("dealer", "Reparte"), badge("down", "✓ Ha bajado"));
  }
  return document.querySelectorAll("[data-log-lines] li").length;
}"""


def test_on_a_phone_moves_in_the_log_and_a_player_laying_down_move_nothing(
        open_page, site, seeded):
    page, watch = open_page(SIZES["phone"], touch=True)
    start_practice(page, site.url, "es")
    page.evaluate(NEXT_FRAME)
    before = page.locator(".hand").bounding_box()
    lines = page.evaluate(BUSY)
    page.evaluate(NEXT_FRAME)
    assert page.locator(".hand").bounding_box() == before
    assert page.locator("[data-log-lines] li").count() == lines  # nothing drew the page again
    assert outside_viewport(page) == []
    watch.check()


def test_the_log_lists_the_computer_players_moves_made_before_the_page_opened(
        open_page, site):
    page, watch = open_page(SIZES["laptop"])
    start_practice(page, site.url)
    v = view(page)
    act(page, {"type": "draw", "from": "stock"})
    answered = act(page, {"type": "discard", "card": discard_choice_json(view(page))})
    bot_discards = [e for e in answered["events"]
                    if e["t"] == "discarded" and e["data"]["seat"] != 0]
    assert bot_discards
    page.reload()
    wait_idle(page)
    log = page.locator("[data-log] li").all_inner_texts()
    name = v["players"][bot_discards[0]["data"]["seat"]]["name"]
    assert any(name in line and "discarded" in line for line in log), log
    assert any(line.startswith("You discarded") for line in log), log
    assert page.get_attribute("[data-log]", "role") == "log"
    watch.check()


def test_each_card_of_the_hand_is_at_least_44_px_wide_to_tap_on_a_phone(open_page, site):
    page, watch = open_page(SIZES["phone"], touch=True)
    start_practice(page, site.url)
    page.click("[data-stock]")  # eleven cards
    wait_idle(page)
    widths = page.evaluate("""() => {
        const cards = [...document.querySelectorAll('.hand .card')]
            .map((c) => c.getBoundingClientRect());
        return cards.map((r, i) => {
            const next = cards[i + 1];
            const sameRow = next && Math.abs(next.top - r.top) < r.height / 2;
            return sameRow ? Math.min(r.width, next.left - r.left) : r.width;
        });
    }""")
    assert len(widths) == 11
    assert min(widths) >= 44, widths
    shoot(page, "table-phone-eleven-cards", full_page=False)
    assert outside_viewport(page) == []
    watch.check()


def test_the_help_opens_with_the_question_mark_key_and_speaks_touch_on_a_touch_screen(
        open_page, site):
    page, watch = open_page(SIZES["laptop"])
    start_practice(page, site.url)
    page.keyboard.press("?")
    dialog = page.locator("dialog[data-help]")
    assert dialog.is_visible()
    assert "draw from the stock" in dialog.inner_text()
    page.keyboard.press("Escape")
    assert not dialog.is_visible()

    phone, _ = open_page(SIZES["phone"], touch=True)
    start_practice(phone, site.url)
    phone.click("[data-help-open]")
    text = phone.inner_text("dialog[data-help]")
    assert "Tap it twice" in text and "double-click" not in text
    watch.check()


COUNT_CELEBRATIONS = counting("celebration", "__celebrations")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_contract_held_in_hand_is_laid_down_in_two_gestures_and_celebrated(
        open_page, site, motion):
    page, watch = open_page(SIZES["laptop"], reduced_motion=motion)
    page.add_init_script(COUNT_CELEBRATIONS)
    start_practice(page, site.url)
    play_until_the_contract_is_held(page)
    assert "ready" in page.get_attribute("[data-action=laydown]", "class")

    current = ".ladder .rung.current .rung-label"
    assert page.inner_text(current) == "1"
    page.click("[data-action=laydown]")  # 1: the hand arranged into the contract's melds
    page.click("[data-laydown-confirm]")  # 2: laid down
    wait_idle(page)
    assert view(page)["players"][0]["laid_down"]
    assert page.inner_text(current) == "2"  # the climb shows when it is celebrated
    log = page.locator("[data-log] li").all_inner_texts()
    assert any(line.startswith("You laid down") for line in log)
    # A rung climbed is celebrated, briefly; not when the system asks for reduced motion.
    assert page.evaluate("() => window.__celebrations") == (1 if motion == "no-preference" else 0)
    watch.check()


def test_a_move_refused_with_429_is_sent_again_after_retry_after_and_lands(open_page, site):
    page, watch = open_page(SIZES["laptop"])
    start_practice(page, site.url)
    sent = []

    def once_429(route):
        sent.append(route.request.post_data)
        if len(sent) == 1:
            body = {"error": {"code": "throttled", "message": "Slow down."}}
            return route.fulfill(status=429, headers={"Retry-After": "1"},
                                 content_type="application/json", body=json.dumps(body))
        return route.continue_()

    page.route("**/actions", once_429)
    # Every text the message line takes, kept as it changes: the wait's words stand only for
    # the second of the wait (then the move lands and clears them), which a busy machine's
    # polling could miss, and the bots' narration may come first.
    page.evaluate("""() => {
        const line = document.querySelector('[data-message]');
        window.messagesSeen = [];
        new MutationObserver(() => window.messagesSeen.push(line.textContent))
            .observe(line, {childList: true, characterData: true, subtree: true});
    }""")
    page.keyboard.press("s")
    page.wait_for_function(
        "() => window.messagesSeen.some((text) => text.toLowerCase().includes('slow down'))")
    page.wait_for_function("() => document.querySelectorAll('.hand .card').length === 11")
    assert len(sent) == 2 and sent[0] == sent[1]
    assert view(page)["phase"] == "play"
    watch.check(allow=("status of 429",))


RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def test_the_sort_the_player_chose_is_kept_for_the_next_hands(open_page, site):
    page, watch = open_page(SIZES["laptop"])
    start_practice(page, site.url)
    page.click("[data-sort=rank]")
    start_practice(page, site.url)  # a new game: a new hand, dealt in the chosen order
    ids = page.locator(".hand .card").evaluate_all("els => els.map(e => e.dataset.id)")
    ranks = [RANKS.index(i.split(".")[0][:-1]) for i in ids if not i.startswith("JK")]
    assert ranks == sorted(ranks), ids
    watch.check()
