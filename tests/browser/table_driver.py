"""Driving the table page the way a person does: helpers shared by the browser tests."""

from __future__ import annotations

import contextlib

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.strategy import discard_choice_json

# What a player must see at their turn, at every window size, without scrolling.
IN_VIEW = ("[data-message]", ".hand .card", "[data-stock]", "[data-discard]",
           "[data-action=laydown]", "[data-action=discard]", "[data-log]")
IDLE = ("() => { const g = document.getElementById('game');"
        " return g && !g.hasAttribute('data-loading') && !g.hasAttribute('aria-busy')"
        " && !document.querySelector('dialog[open]')"
        " && (g.classList.contains('my-turn')"
        " || /over/.test(document.querySelector('[data-turn]').textContent)); }")


def view(page) -> dict:
    """The GameView, as the page's own API would fetch it."""
    game_id = page.locator("#game").get_attribute("data-game-id")
    return page.evaluate(
        "async (id) => (await fetch(`/api/v1/games/${id}`)).json()", game_id)


def hint(page) -> dict:
    game_id = page.locator("#game").get_attribute("data-game-id")
    return page.evaluate(
        "async (id) => (await fetch(`/api/v1/games/${id}/hint`)).json()", game_id)


def wait_idle(page, on_summary=None):
    """Wait for the person's turn (or the end), closing deal summaries on the way."""
    while True:
        page.wait_for_function(
            IDLE.replace("return g &&", "return document.querySelector('dialog[open]') || g &&"))
        if page.locator("dialog[open] [data-summary-continue]").count():
            if on_summary:
                on_summary(page)
            page.click("dialog[open] [data-summary-continue]")
            continue
        return


def start_practice(page, base_url: str, language: str | None = "en",
                   level: str | None = "easy") -> str:
    """Start a practice game at ``level`` (None: the home page's default) from the home page,
    in ``language`` (None: the browser's own), and wait until the table is idle; the game's
    id."""
    if language is not None:
        page.context.add_cookies([{"name": "django_language", "value": language,
                                   "url": base_url}])
    page.goto(base_url + "/")
    if level is not None:
        page.check(f'input[name="level"][value="{level}"]')
    page.click("[data-practice-start]")
    page.wait_for_url("**/play/**")
    wait_idle(page)
    return page.locator("#game").get_attribute("data-game-id")


def start_daily(page, base_url: str) -> None:
    """Start today's daily from the home page, where it is not started yet, and wait until
    the table is idle."""
    page.goto(base_url + "/")
    page.wait_for_selector("[data-daily-start]:not([disabled])")
    assert "Not started yet" in page.inner_text("[data-daily-state]")
    page.click("[data-daily-start]")
    page.wait_for_url("**/play/**")
    wait_idle(page)


def card(page, card_id: str):
    return page.locator(f'.hand .card[data-id="{card_id}"]')


DOUBLE_TAP_MS = 400  # controllers/input.js: two clicks or taps on a card this close discard it
# When the page heard each press end, by the clock its own double-tap check reads.
PRESS_TIMES = """() => {
    if (!window.__presses) {
        const heard = () => window.__presses.push(performance.now());
        document.addEventListener('pointerup', heard, true);
    }
    window.__presses = [];
}"""


def made_as_double(page, gesture) -> None:
    """``gesture()`` presses a card of the hand twice (a double click, two taps), which the page
    takes for a discard when the presses end within DOUBLE_TAP_MS by its clock. A loaded
    machine may deliver them further apart: the page rightly took two single presses (the card
    selected and put back), and the gesture is made again once the last press can no longer
    pair with the next."""
    for _ in range(3):
        page.evaluate(PRESS_TIMES)
        gesture()
        presses = page.evaluate("() => window.__presses")
        assert len(presses) >= 2, f"the page heard {len(presses)} presses of two"
        if presses[1] - presses[0] < DOUBLE_TAP_MS:
            return
        page.wait_for_timeout(DOUBLE_TAP_MS)
    raise AssertionError(f"three double presses came over {DOUBLE_TAP_MS} ms apart")


def double_click(page, locator) -> None:
    """A double click on a card of the hand: a discard (made_as_double)."""
    made_as_double(page, locator.dblclick)


def play_turn(page, record: dict, on_summary=None) -> None:
    """One turn by mouse: click the stock, lay down / lay off as the hint says, then
    double-click the discard."""
    page.click("[data-stock]")
    wait_idle(page, on_summary)
    while True:
        v = view(page)
        if v["phase"] != "play" or v["turn"] != v["you"]:
            return
        h = hint(page)
        if h["lay_down"] and v["legal"]["may_lay_down"]:
            page.click("[data-hint]")
            page.wait_for_selector("[data-laydown-confirm]:not([disabled])")
            page.click("[data-laydown-confirm]")
            record["laid_down"] += 1
            wait_idle(page, on_summary)
            continue
        if v["legal"]["lay_off"]:
            option = v["legal"]["lay_off"][0]
            card(page, option["card"]).click()
            button = page.locator(f'[data-layoff="{option["meld"]}"][data-end="{option["end"]}"]')
            if not button.count():
                button = page.locator(f'[data-layoff="{option["meld"]}"]').first
            button.click()
            record["laid_off"] += 1
            wait_idle(page, on_summary)
            continue
        double_click(page, card(page, discard_choice_json(v)))
        record["discarded"] += 1
        wait_idle(page, on_summary)
        return


OUTSIDE = """(selectors) => selectors.filter((s) => {
    const els = [...document.querySelectorAll(s)];
    return !els.length || els.some((el) => {
        const r = el.getBoundingClientRect();
        return r.top < 0 || r.left < 0
            || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5;
    });
})"""


def outside_viewport(page, settle_ms: float = 3000) -> list[str]:
    """The IN_VIEW elements outside the window once the layout has settled: the hand is laid
    out by a ResizeObserver and its cards move with a short transition, so a single look on a
    busy machine may catch a card on its way. Whatever is still outside after ``settle_ms``
    is reported."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(f"(s) => ({OUTSIDE})(s).length === 0", arg=list(IN_VIEW),
                               timeout=settle_ms)
    return page.evaluate(OUTSIDE, list(IN_VIEW))


# The table's view (the centre, which scrolls inside itself): the melds seen whole, those
# mostly below or above it, whether each "Lay off here" is seen whole and uncovered, the button
# counting the hidden melds, and the share of the view's width the melds have.
MELDS_SEEN = """() => {
    const c = document.querySelector('.centre'), box = c.getBoundingClientRect();
    const top = box.top + c.clientTop, bottom = top + c.clientHeight;
    const left = box.left + c.clientLeft, right = left + c.clientWidth;
    const seen = (r) => r.top >= top - 1 && r.bottom <= bottom + 1
        && r.left >= left - 1 && r.right <= right + 1;
    const uncovered = (el) => {
        const r = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
    };
    const melds = [...document.querySelectorAll('[data-melds] .meld')].map(
        (m) => m.getBoundingClientRect());
    const more = document.querySelector('[data-melds-more]');
    return {melds: melds.length, whole: melds.filter(seen).length,
            below: melds.filter((r) => (r.top + r.bottom) / 2 > bottom).length,
            above: melds.filter((r) => (r.top + r.bottom) / 2 < top).length,
            buttons: [...document.querySelectorAll('[data-layoff]')].map(
                (b) => seen(b.getBoundingClientRect()) && uncovered(b)),
            more: more.hidden ? null : more.textContent,
            share: document.querySelector('[data-melds]').offsetWidth / c.clientWidth};
}"""


# The table has stopped scrolling and the count has caught up with it (a frame after).
MELDS_SETTLED = """async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const c = document.querySelector('.centre');
    let last = -1;
    while (c.scrollTop !== last) { last = c.scrollTop; await frame(); }
    return true;
}"""


def more_melds(seen: dict) -> str | None:
    n = seen["below"] or seen["above"]
    return f"{n} more meld{'s' if n > 1 else ''} {'↓' if seen['below'] else '↑'}" if n else None

def counted_melds(page) -> dict:
    """MELDS_SEEN once the table has stopped scrolling and the count has caught up (it is
    redrawn in the frame after a change: fonts and the hand settle in the first ones)."""
    for _ in range(30):
        page.wait_for_function(MELDS_SETTLED)
        seen = page.evaluate(MELDS_SEEN)
        if seen["more"] == more_melds(seen):
            break
        page.wait_for_timeout(100)
    return seen


def tap_to_the_last_meld(page, seen: dict) -> dict:
    """Taps the count of hidden melds until none is below the table's view, the count right
    after each tap (it took the player to them); what is seen then."""
    for _ in range(seen["melds"]):
        if seen["below"] == 0:
            break
        page.tap("[data-melds-more]")
        page.wait_for_function(f"() => ({MELDS_SEEN})().below < {seen['below']}")
        seen = counted_melds(page)
        assert seen["more"] == more_melds(seen), seen
    assert seen["below"] == 0
    return seen
