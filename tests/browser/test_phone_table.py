"""A phone table that holds still: a whole deal played by touch at 390×844 and 360×740, with
every card's place measured before and after each draw and discard, and between the two taps
of each discard; the tap targets of every control of the play page; a drawn card placed by the
chosen sort."""

from __future__ import annotations

import pytest

from tests.browser.conftest import shoot
from tests.browser.strategy import discard_choice_json
from tests.browser.table_driver import (
    card,
    double_click,
    hint,
    made_as_double,
    outside_viewport,
    start_practice,
    view,
    wait_idle,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A first deal of fourteen turns for the person, who lays down and lays off in it
# (tests/browser/strategy.py's first_deal; no joker in a run).
LONG_DEAL_SEED = "phone-184"
PHONES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
LAPTOP = {"width": 1280, "height": 800}
MAX_TURNS = 40
TAP_PX = 44
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]

# Each hand card's place in the window, without the lift of a selected or hovered card (a
# transform): its offset in its positioned parent plus that parent's place.
PLACES = """() => Object.fromEntries([...document.querySelectorAll('.hand .card')].map((c) => {
    const p = c.offsetParent.getBoundingClientRect();
    return [c.dataset.id, {x: p.left + c.offsetLeft, y: p.top + c.offsetTop,
                           w: c.offsetWidth, h: c.offsetHeight}];
}))"""
TWO_FRAMES_ON = f"""async () => {{
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return ({PLACES})();
}}"""
# The layout has settled when two frames apart give the same places.
SETTLED = f"""async () => {{
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    let last = JSON.stringify(({PLACES})());
    for (let i = 0; i < 20; i++) {{
        await frame();
        const now = JSON.stringify(({PLACES})());
        if (now === last) return JSON.parse(now);
        last = now;
    }}
    return JSON.parse(last);
}}"""


@pytest.fixture
def long_deal(monkeypatch):

    monkeypatch.setattr("games.services.actions.new_seed", lambda: LONG_DEAL_SEED)


def places(page) -> dict:
    return page.evaluate(SETTLED)


def moved(before: dict, after: dict) -> list[str]:
    """Cards held before and after that changed row or slid more than a quarter of their
    width (or moved up or down by more than a quarter of their height)."""
    out = []
    for cid, a in before.items():
        b = after.get(cid)
        if b and (abs(b["x"] - a["x"]) > a["w"] / 4 or abs(b["y"] - a["y"]) > a["h"] / 4):
            out.append(f"{cid} ({a['x']:.0f},{a['y']:.0f})->({b['x']:.0f},{b['y']:.0f})")
    return out


IN_TABLE = """(sel) => {
    const el = document.querySelector(sel), box = document.querySelector('.centre');
    const r = el.getBoundingClientRect(), c = box.getBoundingClientRect();
    return r.top >= Math.max(0, c.top) - 0.5 && r.bottom <= Math.min(innerHeight, c.bottom) + 0.5
        && r.left >= 0 && r.right <= innerWidth + 0.5;
}"""


PUSH_MELDS = "(px) => { document.querySelector('[data-melds]').style.paddingTop = px; }"


def double_tap(page, card_id: str, record: dict | None = None) -> None:
    box = card(page, card_id).bounding_box()
    if box["y"] < 0 or box["y"] + box["height"] > page.viewport_size["height"]:
        if record is not None:
            record["outside"].append(f"{card_id} to discard at y={box['y']:.0f}")
        card(page, card_id).scroll_into_view_if_needed()
        box = card(page, card_id).bounding_box()
    x, y = box["x"] + min(box["width"] / 2, 20), box["y"] + box["height"] / 2
    held = page.evaluate(PLACES) if record is not None else None

    def two_taps():
        page.touchscreen.tap(x, y)
        # The first tap selects the card and the hand is drawn again: no card may move under
        # the finger (two frames on, well inside the double tap's time) before the second tap,
        # or it lands on the card beside.
        if record is not None:
            record["moved_on_select"] += [f"{card_id}: {m}"
                                          for m in moved(held, page.evaluate(TWO_FRAMES_ON))]
        page.touchscreen.tap(x, y)

    made_as_double(page, two_taps)


def play_turn_by_touch(page, record: dict) -> None:
    """One turn of the scripted strategy (tests/browser/strategy.py) by touch, measuring the
    hand around the draw and the discard."""
    before = places(page)
    page.tap("[data-stock]")
    wait_idle(page)
    after = places(page)
    record["draws"] += 1
    record["moved_on_draw"] += [f"draw {record['draws']}: {m}" for m in moved(before, after)]
    while True:
        v = view(page)
        if v["phase"] != "play" or v["turn"] != v["you"]:
            return
        if hint(page)["lay_down"] and v["legal"]["may_lay_down"]:
            page.tap("[data-action=laydown]")
            page.wait_for_selector("[data-laydown-confirm]:not([disabled])")
            page.tap("[data-laydown-confirm]")
            record["laid_down"] += 1
            wait_idle(page)
            page.wait_for_selector(".celebration", state="detached")  # it takes the next tap
            continue
        if v["legal"]["lay_off"]:
            option = v["legal"]["lay_off"][0]
            # A crowded table: the melds start below the table's view.
            page.evaluate(PUSH_MELDS, "480px")
            card(page, option["card"]).tap()
            selector = f'[data-layoff="{option["meld"]}"][data-end="{option["end"]}"]'
            if not page.locator(selector).count():
                selector = f'[data-layoff="{option["meld"]}"]'
            # The target and its button are brought into the table's view, not left below.
            page.wait_for_function(IN_TABLE, arg=selector)
            record["outside"] += [f"lay-off: {s}" for s in outside_viewport(page)]
            assert page.evaluate("() => scrollY") == 0  # the table scrolled, not the page
            page.evaluate(PUSH_MELDS, "")
            page.tap(selector)
            record["laid_off"] += 1
            wait_idle(page)
            continue
        chosen = discard_choice_json(v)
        before = places(page)
        double_tap(page, chosen, record)
        wait_idle(page)
        assert chosen not in [c["id"] for c in view(page)["hand"]], f"{chosen} not discarded"
        after = places(page)
        # The gap closes: the cards before the discarded one do not move, none moves down.
        order = list(before)
        for cid in order[:order.index(chosen)]:
            if cid in after and moved({cid: before[cid]}, after):
                record["moved_on_discard"].append(f"{cid} before the gap")
        for cid, a in before.items():
            if cid in after and after[cid]["y"] > a["y"] + a["h"] / 4:
                record["moved_on_discard"].append(f"{cid} down a row")
        # At most one card goes up a row: the second row keeps room for the next draw.
        up = sum(1 for cid, a in before.items()
                 if cid in after and after[cid]["y"] < a["y"] - a["h"] / 2)
        if up > 1:
            record["moved_on_discard"].append(f"{up} cards up a row")
        record["up_a_row_on_discard"] += up
        return


# views/hand.js's rowBreak along a walk of draws, discards and sorts (the walk a helper's play
# found: four cards left in the first row, a draw at the end; then a seeded random one): each
# step's rows, and the rows of the same hand laid out again or reordered.
ROWS_WALK = """async ([perRow, steps]) => {
    const { rowBreak } = await import("/static/frontend/js/views/hand.js");
    let seed = 7;
    const random = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    let hand = Array.from({length: 10}, (_, i) => `c${i}`), last = null, next = 10;
    const out = [];
    const lay = (step) => {
        const first = rowBreak(last, hand, perRow);
        last = {ids: [...hand], first, perRow};
        const reordered = [...hand].reverse();
        out.push({step, n: hand.length, first, again: rowBreak(last, hand, perRow),
                  reordered: rowBreak(last, reordered, perRow)});
    };
    lay("dealt");
    for (let i = 0; i < 3; i++) {
        hand = [...hand, `c${next++}`]; lay("drew at the end");
        hand = hand.slice(1); lay("threw the first card away");
    }
    for (let i = 0; i < steps; i++) {
        const at = random(hand.length + 1);
        hand = [...hand.slice(0, at), `c${next++}`, ...hand.slice(at)]; lay(`drew to ${at}`);
        const away = random(hand.length);
        hand = hand.filter((_, k) => k !== away); lay(`threw ${away} away`);
        if (i % 10 === 9) { hand = [...hand].sort(); lay("sorted"); }
    }
    return out;
}"""


@pytest.mark.parametrize("per_row", [6, 7])
def test_a_hand_drawn_again_unchanged_or_reordered_keeps_its_rows(open_page, site, per_row):
    """A tap that selects a card draws the hand again: a second row that changed then would
    move the cards under the finger, and the second tap of a double tap would land on the card
    beside (a helper's play at 390 px: 4 + 7 cards after a draw became 5 + 6 on the tap)."""
    page, _ = open_page(PHONES["390x844"], touch=True)
    page.goto(site.url + "/rules/")
    walk = page.evaluate(ROWS_WALK, [per_row, 200])
    assert len(walk) == 1 + 3 * 2 + 200 * 2 + 20
    for s in walk:
        assert 0 < s["first"] <= per_row and s["n"] - s["first"] <= per_row, s
    assert [s for s in walk if s["again"] != s["first"]] == []
    assert [s for s in walk if s["reordered"] != s["first"]] == []


@pytest.mark.parametrize("size", list(PHONES))
def test_a_whole_deal_by_touch_on_a_phone_the_hand_holds_still_and_stays_in_view(
        open_page, site, long_deal, size):
    page, watch = open_page(PHONES[size], touch=True, speed="instant")
    start_practice(page, site.url)
    record = {"draws": 0, "laid_down": 0, "laid_off": 0, "moved_on_draw": [],
              "moved_on_select": [], "moved_on_discard": [], "outside": [], "with_melds": 0,
              "up_a_row_on_discard": 0}
    turns = 0
    while view(page)["deal"] == 1 and turns < MAX_TURNS:
        record["outside"] += [f"turn {turns}: {s}" for s in outside_viewport(page)]
        if view(page)["table"]:
            record["with_melds"] += 1
            if record["with_melds"] == 1:
                shoot(page, f"phone-{size}-melds")
        play_turn_by_touch(page, record)
        turns += 1
    assert view(page)["deal"] == 2, f"deal 1 did not end in {MAX_TURNS} turns"
    # A game played alone has no turn timer, so no countdown (test_table_timer.py: a table's).
    assert view(page)["turn_seconds"] is None and page.locator("[data-turn-clock]").is_hidden()
    assert record["laid_down"] == 1 and record["laid_off"] >= 1
    assert record["draws"] >= 10 and record["with_melds"] >= 5, record
    print(size, {k: record[k] for k in ("draws", "up_a_row_on_discard", "with_melds")})
    problems = {k: record[k]
                for k in ("moved_on_draw", "moved_on_select", "moved_on_discard", "outside")}
    assert problems == {k: [] for k in problems}, problems
    watch.check()


def test_on_a_laptop_a_drawn_card_moves_no_card_already_held(open_page, site, seeded):
    page, watch = open_page(LAPTOP, speed="instant")
    start_practice(page, site.url)
    for _ in range(3):
        before = places(page)
        page.click("[data-stock]")
        wait_idle(page)
        assert moved(before, places(page)) == []
        double_click(page, card(page, discard_choice_json(view(page))))
        wait_idle(page)
    watch.check()


# Every control a finger may aim at: buttons, links, form fields (by their label), the hand's
# cards and the piles. Those hidden, outside the window or inside a closed panel are not
# measured.
CONTROLS = """() => {
    const els = [...document.querySelectorAll(
        'a[href], button, select, input:not([type=hidden]), [role=option], summary')];
    return els.filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width && r.height && r.bottom > 0 && r.right > 0 && r.left < innerWidth
            && getComputedStyle(el).visibility !== 'hidden';
    }).map((el) => {
        const r = (el.closest('label') || el).getBoundingClientRect();  // a label is its target
        let w = r.width;
        if (el.matches('.hand .card')) {  // a card's tap target is the part not under the next
            const next = el.nextElementSibling?.matches('.card') ? el.nextElementSibling : null;
            const nr = next?.getBoundingClientRect();
            if (nr && Math.abs(nr.top - r.top) < r.height / 2) w = Math.min(w, nr.left - r.left);
        }
        const name = (el.getAttribute('aria-label') || el.textContent || el.name || el.tagName)
            .trim().slice(0, 30);
        return {name, w: Math.round(w * 10) / 10, h: Math.round(r.height * 10) / 10};
    });
}"""


AT_THE_BOTTOM = "() => innerHeight + scrollY >= document.body.scrollHeight - 1"


@pytest.mark.parametrize("language", ["en", "th"])
def test_every_control_of_the_play_page_is_at_least_44_px_on_a_phone(
        open_page, site, seeded, language):
    page, watch = open_page(PHONES["390x844"], touch=True, speed="instant")
    start_practice(page, site.url, language)
    page.tap("[data-stock]")  # eleven cards, the action buttons live
    wait_idle(page)
    measured = page.evaluate(CONTROLS)
    for _ in range(40):  # down the page: the footer's links are controls too
        if page.evaluate(AT_THE_BOTTOM):
            break
        page.evaluate("() => window.scrollBy(0, 400)")  # at once: no smooth scrolling to await
        measured += page.evaluate(CONTROLS)
    page.evaluate("() => window.scrollTo(0, 0)")
    for panel in ("settings", "scores"):  # the panels' controls, open
        page.tap(f"[data-{panel}-toggle]")
        measured += page.evaluate(CONTROLS)
        small = sorted({f"{c['name']}: {c['w']}x{c['h']}" for c in measured
                    if c["w"] < TAP_PX - 0.5 or c["h"] < TAP_PX - 0.5})
    assert len({c["name"] for c in measured}) > 20
    assert small == [], small
    watch.check()


def test_the_log_shows_four_lines_on_a_phone(open_page, site, seeded):
    page, watch = open_page(PHONES["360x740"], touch=True)
    start_practice(page, site.url)
    shown = page.evaluate("""() => {
        const log = document.querySelector('[data-log]');
        const li = log.querySelector('li');
        return log.clientHeight / li.getBoundingClientRect().height;
    }""")
    assert shown >= 4, shown
    watch.check()


def rank_order(ids: list[str]) -> list[int]:
    return [RANKS.index(i.split(".")[0][:-1]) for i in ids if not i.startswith("JK")]


@pytest.mark.parametrize("by", ["rank", "suit"])
def test_a_drawn_card_lands_where_the_chosen_sort_puts_it(open_page, site, seeded, by):
    page, watch = open_page(PHONES["390x844"], touch=True)
    start_practice(page, site.url)
    page.tap(f"[data-sort={by}]")
    ids = "els => els.map(e => e.dataset.id)"
    for _ in range(3):
        held = page.locator(".hand .card").evaluate_all(ids)
        page.tap("[data-stock]")
        wait_idle(page)
        now = page.locator(".hand .card").evaluate_all(ids)
        drawn = page.locator(".hand .card.fresh").get_attribute("data-id")
        assert [i for i in now if i != drawn] == held  # the others keep their order
        expected = page.evaluate(
            """async ([by, now]) => {
                const src = document.querySelector('script[src*="pages/table"]').src;
                const cards = await import(src.replace(/pages[/]table[.]js.*/, 'cards.js'));
                const hand = now.map((id) => {
                    const m = id.match(/^(JK|10|[A2-9JQK])([SHDC])?\\./);
                    return m[1] === 'JK' ? {id, joker: true} : {id, rank: m[1], suit: m[2]};
                });
                const sorted = by === 'rank' ? cards.sortByRank(hand) : cards.sortBySuit(hand);
                return sorted.map((c) => c.id);
            }""", [by, now])
        assert now == expected, (drawn, now)
        double_tap(page, discard_choice_json(view(page)))
        wait_idle(page)
    watch.check()


def test_screens_of_the_table_on_phones_and_a_laptop(open_page, site, seeded):
    for name, size in {**PHONES, "1280x800": LAPTOP}.items():
        for language in ("en", "th"):
            page, watch = open_page(size, touch=name in PHONES, speed="instant")
            start_practice(page, site.url, language)
            page.tap("[data-stock]") if name in PHONES else page.click("[data-stock]")
            wait_idle(page)
            shoot(page, f"phone-table-{name}-{language}")
            assert outside_viewport(page) == [], (name, language)
            watch.check()


# The tops of the hand, the action buttons, the message and your area's head (your contract
# and the turn), sampled every animation frame into window.__tops while the computer
# players move at normal speed. (The log may move: melds landing on the table grow it.)
SAMPLE_TOPS = """() => {
  window.__tops = [];
  const top = (s) => Math.round(document.querySelector(s).getBoundingClientRect().top);
  const sample = () => {
    window.__tops.push([[top('.hand'), top('.actions'), top('[data-message]'), top('.me-head')],
                        !document.querySelector('[data-playback]').hidden]);
    if (window.__tops.length < 2000) requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}"""


@pytest.mark.parametrize("size", ["390x844", "laptop"])
def test_the_hand_holds_still_while_the_computer_players_move(open_page, site, seeded, size):
    """The Skip button shows while the computer players move: it must not make the head of
    your area taller and push your hand down under your finger."""
    page, watch = open_page(PHONES.get(size, LAPTOP), speed="normal", touch=size != "laptop")
    start_practice(page, site.url, language=None, level=None)
    page.click("[data-stock]")
    wait_idle(page)
    page.evaluate(SAMPLE_TOPS)
    double_click(page, card(page, discard_choice_json(view(page))))
    wait_idle(page)
    tops = page.evaluate("() => window.__tops")
    assert any(playing for _, playing in tops), "the computer players' moves were shown"
    assert len({tuple(places) for places, _ in tops}) == 1, sorted({tuple(p) for p, _ in tops})
    watch.check()
