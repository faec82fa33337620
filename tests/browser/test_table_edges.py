"""The phone's edges at a table (issue 51, item 8), each at the size where it was seen: the
seats' badges, Skip beside your contract."""

from __future__ import annotations

import pytest

from tests.browser.conftest import shoot
from tests.browser.table_driver import start_practice, view
from tests.browser.test_phone_table import PHONES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The seats drawn again by views/seats.js from the page's own view, with every computer
# player laid down and the first of them the dealer: the badges' line at its fullest (but
# for "Away").
DEALER_LAID_DOWN = """async (v) => {
    const src = document.querySelector('script[src*="pages/table"]').src;
    const seats = await import(src.replace(/pages[/]table[.]js.*/, 'views/seats.js'));
    const others = v.players.filter((p) => p.seat !== v.you);
    for (const p of others) p.laid_down = true;
    v.dealer = others[0].seat;
    seats.renderSeats(document.querySelector('[data-seats]'), v);
}"""
# Each badge that reaches past its line's right edge (the line hides what overflows).
CLIPPED = """() => [...document.querySelectorAll('.seat .badges')].flatMap((line) => {
    const edge = line.getBoundingClientRect().right + 0.5;
    return [...line.children].filter((b) => b.getBoundingClientRect().right > edge)
        .map((b) => b.textContent);
})"""


@pytest.mark.parametrize("language", ["en", "es", "th"])
@pytest.mark.parametrize("size", list(PHONES))
def test_the_laid_down_mark_is_seen_whole_beside_the_dealers(open_page, site, seeded, size,
                                                              language):
    page, watch = open_page(PHONES[size], touch=True, speed="instant")
    start_practice(page, site.url, language)
    page.evaluate(DEALER_LAID_DOWN, view(page))
    assert page.locator(".seat .badge.down").count() == 3
    shoot(page, f"{language}-{size}-seat-badges")
    assert page.evaluate(CLIPPED) == []
    watch.check()


# Your title worded for each rung of the ladder (its items' labels, in the page's language),
# with Skip shown and hidden, as the computer players' moves show and hide it: where Skip's
# box meets the title's words, and the hand's top each time.
SKIP_BESIDE_TITLE = """async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const title = document.querySelector('[data-me-contract]');
    const playback = document.querySelector('[data-playback]');
    const skip = playback.querySelector('[data-skip]');
    const heading = document.getElementById('me-title');
    const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const out = [];
    const labels = [...document.querySelectorAll('.ladder .rung')].map(
        (li) => li.getAttribute('aria-label').split(' — ')[0]);  // not who stands on it
    for (const label of labels) {
        title.textContent = label;
        playback.hidden = true;
        await frame();
        const handTop = document.querySelector('.hand').getBoundingClientRect().top;
        playback.hidden = false;
        await frame();
        const s = skip.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(heading);
        const covered = [...range.getClientRects()].some((r) => r.width && meets(r, s));
        const moved = document.querySelector('.hand').getBoundingClientRect().top - handTop;
        if (covered || Math.abs(moved) > 0.5) out.push({label, covered, moved});
    }
    playback.hidden = true;
    return {rungs: labels.length, wrong: out};
}"""


@pytest.mark.parametrize("language", ["en", "es", "th"])
@pytest.mark.parametrize("size", list(PHONES))
def test_skip_covers_no_word_of_your_contract(open_page, site, seeded, size, language):
    page, watch = open_page(PHONES[size], touch=True, speed="instant")
    start_practice(page, site.url, language)
    seen = page.evaluate(SKIP_BESIDE_TITLE)
    assert seen == {"rungs": 10, "wrong": []}
    page.evaluate("() => { document.querySelector('[data-me-contract]').textContent ="
                  " document.querySelector('.ladder .rung').getAttribute('aria-label')"
                  ".split(' — ')[0]; document.querySelector('[data-playback]').hidden = false; }")
    shoot(page, f"{language}-{size}-skip")
    watch.check()


def test_link_copied_is_said_for_a_moment_on_the_lobby(open_page, site):
    from tests.browser.test_together import RENAME

    page, watch = open_page(PHONES["390x844"], speed="instant")
    page.goto(site.url + "/#friends")
    assert page.evaluate(RENAME, "Ana") == 200
    page.fill("#table-name", "Friday cards")
    page.click("#table-form button[type=submit]")
    page.wait_for_selector("[data-code]:not(:empty)")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url)
    page.click("[data-copy]")
    page.wait_for_selector("[data-status]:has-text('Link copied.')")
    shoot(page, "en-390x844-lobby-copied")
    # Said, then gone: it was true a moment, not for as long as the lobby is open.
    page.wait_for_function("() => !document.querySelector('[data-status]').textContent",
                           timeout=8000)
    watch.check()


# The home page's timer choices, row by row (their tops): how many each row holds.
TIMER_ROWS = """() => {
    const rows = new Map();
    for (const label of document.querySelectorAll('.timer-choice label')) {
        const top = Math.round(label.getBoundingClientRect().top);
        rows.set(top, (rows.get(top) || 0) + 1);
    }
    return [...rows.values()];
}"""


@pytest.mark.parametrize("language", ["en", "es", "th"])
@pytest.mark.parametrize("size", list(PHONES))
def test_no_timer_choice_is_left_alone_on_its_line(open_page, site, size, language):
    page, watch = open_page(PHONES[size], touch=True)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site.url}])
    page.goto(site.url + "/#friends")
    rows = page.evaluate(TIMER_ROWS)
    page.locator(".timer-choice").scroll_into_view_if_needed()
    shoot(page, f"{language}-{size}-timer", full_page=False)
    assert sum(rows) == 4 and (len(rows) == 1 or min(rows) > 1), rows
    watch.check()


# Your turn's clock (views/timer.js puts it in your section at your turn) and Skip, both shown
# as when the computer players' moves still play while your time runs: the two boxes and the
# title's words.
CLOCK_AND_SKIP = """() => {
    const clock = document.querySelector('[data-turn-clock]');
    document.querySelector('section.me').append(clock);
    clock.querySelector('[data-clock-time]').textContent = '5:00';
    clock.hidden = false;
    document.querySelector('[data-playback]').hidden = false;
    const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const c = clock.getBoundingClientRect();
    const s = document.querySelector('[data-skip]').getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('me-title'));
    const words = [...range.getClientRects()].filter((r) => r.width);
    return {clockOnSkip: meets(c, s), skipOnTitle: words.some((r) => meets(r, s)),
            clockOnTitle: words.some((r) => meets(r, c))};
}"""


@pytest.mark.parametrize("language", ["en", "es", "th"])
def test_on_a_laptop_your_clock_and_skip_stand_apart(open_page, site, seeded, language):
    page, watch = open_page({"width": 1280, "height": 800}, speed="instant")
    start_practice(page, site.url, language)
    seen = page.evaluate(CLOCK_AND_SKIP)
    shoot(page, f"{language}-1280x800-clock-skip")
    assert seen == {"clockOnSkip": False, "skipOnTitle": False, "clockOnTitle": False}
    watch.check()


# A computer player's turn clock (views/timer.js puts it in the seat to move), at its widest,
# in each seat in turn: the seat's words it meets.
SEAT_CLOCK = """() => {
    const clock = document.querySelector('[data-turn-clock]');
    clock.querySelector('[data-clock-time]').textContent = '5:00';
    clock.hidden = false;
    const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const out = [];
    for (const seat of document.querySelectorAll('.seat')) {
        seat.append(clock);
        const c = clock.getBoundingClientRect();
        const range = document.createRange();  // the name, the marks, the cards, the move
        for (const part of seat.querySelectorAll('h3, .badge, .stats, .last-move')) {
            range.selectNodeContents(part);
            // A badge as its box shows it (a phone's tick hides its words, still in the range).
            const words = part.classList.contains('badge') ? [part.getBoundingClientRect()]
                : [...range.getClientRects()].filter((r) => r.width);
            if (words.some((r) => meets(r, c))) out.push(part.textContent);
        }
    }
    return out;
}"""


@pytest.mark.parametrize("language", ["en", "es", "th"])
def test_on_its_side_a_seats_clock_covers_not_its_cards(open_page, site, seeded, language):
    page, watch = open_page({"width": 844, "height": 390}, touch=True, speed="instant")
    start_practice(page, site.url, language)
    covered = page.evaluate(SEAT_CLOCK)
    shoot(page, f"{language}-844x390-seat-clock")  # the clock in the last seat
    assert covered == []
    watch.check()


# --- At a friends' table --------------------------------------------------------------------
# Names as the site assigns them ("Keen Owl"): two words each, so the deal's line ("Deal 1 of
# 10 · Friday cards, with … and …") and the seats' names take two lines on a phone.
ASSIGNED_NAMES = ("Plucky Ocelot", "Mighty Marten", "Nimble Koala")


def friends_at_phones(open_page, site, language: str):
    """Three at a table (tests/browser/test_together.py), named as the site names people, in
    their game: Ana's laptop, Ben's phone at 390x844 and Chai's at 360x740."""
    from tests.browser.test_together import RENAME, seated_together, start_together

    people, _link = seated_together(open_page, site, language)
    for person, name in zip(people, ASSIGNED_NAMES, strict=True):
        assert person.page.evaluate(RENAME, name) == 200
    ana, ben, chai = people
    start_together(ana.page, ben.page, chai.page)
    chai.page.set_viewport_size(PHONES["360x740"])
    chai.page.reload()
    chai.page.wait_for_selector("#game:not([data-loading])")
    return people


# Each pile's caption, where it is not seen whole: beyond the table's view (the centre, which
# scrolls inside itself) or covered where it is.
CAPTIONS_CUT = """() => {
    const c = document.querySelector('.centre'), box = c.getBoundingClientRect();
    const top = box.top + c.clientTop, bottom = top + c.clientHeight;
    const left = box.left + c.clientLeft, right = left + c.clientWidth;
    return [...document.querySelectorAll('.pile-caption')].filter((cap) => {
        const r = cap.getBoundingClientRect();
        const inside = r.top >= top - 0.5 && r.bottom <= bottom + 0.5
            && r.left >= left - 0.5 && r.right <= right + 0.5;
        const corners = [[r.left + 2, r.bottom - 2], [r.right - 2, r.bottom - 2]];
        return !inside || !corners.every(([x, y]) => cap.contains(document.elementFromPoint(x, y)));
    }).map((cap) => cap.textContent);
}"""


@pytest.mark.parametrize("language", ["en", "es", "th"])
def test_the_piles_captions_are_seen_whole_at_a_friends_table(open_page, site, seeded,
                                                              language):
    ana, ben, chai = friends_at_phones(open_page, site, language)
    for person, size in ((ben, "390x844"), (chai, "360x740")):
        person.page.wait_for_selector("[data-discard-top] .card")
        shoot(person.page, f"{language}-{size}-friends-piles")
        assert person.page.evaluate(CAPTIONS_CUT) == [], size
    for person in (ana, ben, chai):
        person.watch.check()


# Where a reaction's bubble meets the words of your title and of the turn's line.
BUBBLE_ON_WORDS = """() => {
    const bubble = document.querySelector('.reaction-bubble').getBoundingClientRect();
    const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const range = document.createRange();
    const out = [];
    for (const el of document.querySelectorAll('#me-title, [data-turn]')) {
        range.selectNodeContents(el);
        if ([...range.getClientRects()].some((r) => r.width && meets(r, bubble)))
            out.push(el.textContent);
    }
    return out;
}"""


def test_your_own_reaction_leaves_your_turn_to_be_read(open_page, site, seeded):
    ana, ben, chai = friends_at_phones(open_page, site, "en")
    for person, size in ((ben, "390x844"), (chai, "360x740")):
        person.press("[data-react-toggle]")
        person.press('#reactions [data-reaction="good_game"]')
        person.page.wait_for_selector(".reaction-bubble:has-text('You: Good game')")
        # The window as it is (a whole-page shot grows it: the bubble stays where it was put).
        shoot(person.page, f"en-{size}-own-reaction", full_page=False)
        assert person.page.evaluate(BUBBLE_ON_WORDS) == [], size
    for person in (ana, ben, chai):
        person.watch.check()


# The open dialog's title: how far it lies above (or below) what the dialog shows.
TITLE_HIDDEN = """() => {
    const dialog = document.querySelector('dialog[open]');
    const d = dialog.getBoundingClientRect();
    const t = dialog.querySelector('h2').getBoundingClientRect();
    return {above: Math.max(0, d.top + dialog.clientTop - t.top),
            below: Math.max(0, t.bottom - (d.top + dialog.clientTop + dialog.clientHeight)),
            title: dialog.querySelector('h2').textContent};
}"""


@pytest.mark.slow
def test_on_its_side_the_game_over_dialog_shows_its_title(open_page, site, seeded):
    from tests.browser.test_together import api_of
    from tests.games.scripted import play_together_to_the_end

    people = friends_at_phones(open_page, site, "en")
    game_id = people[0].page.locator("#game").get_attribute("data-game-id")
    apis = {view(p.page)["you"]: api_of(p, site) for p in people}
    for person in people:  # off the game page while the API plays it out
        person.page.goto(site.url + "/rules/")
    game = play_together_to_the_end(apis, apis[0].get(f"/games/{game_id}").json())
    assert game["status"] == "finished"
    for person in people[:2]:  # the host's dialog (Play again) and a guest's (waiting)
        person.page.set_viewport_size({"width": 844, "height": 390})
        person.page.goto(f"{site.url}/play/{game_id}/")
        person.page.wait_for_selector("dialog[open] .scores")
        person.page.wait_for_selector("dialog[open] [data-play-again], dialog[open] .waiting-next")
        shoot(person.page, f"en-844x390-game-over-{person.name}")
        seen = person.page.evaluate(TITLE_HIDDEN)
        assert seen == {"above": 0, "below": 0, "title": "The game is over"}, person.name
        # Its first action is still in the dialog's view, for the keyboard that is on it.
        focused = person.page.evaluate("""() => {
            const d = document.querySelector('dialog[open]'), f = document.activeElement;
            if (!d.contains(f) || f === d) return true;
            const a = d.getBoundingClientRect(), b = f.getBoundingClientRect();
            return b.top >= a.top - 0.5 && b.bottom <= a.bottom + 0.5;
        }""")
        assert focused, person.name
    for person in people:
        person.watch.check()


def test_the_replays_piles_captions_are_seen_whole_on_a_small_phone(open_page, site):
    """Seen on the table's screenshots (tests/browser/test_table_screens.py): the replay's
    table at 360×740, below its review's summary, cut the discard pile's caption."""
    from games.players.identity import COOKIE_NAME
    from tests.browser.test_replay import open_replay, signed_cookie
    from tests.factories import player_with_token, practice_game
    from tests.leaderboards.play import play_to_the_end

    owner, _ = player_with_token()
    game = play_to_the_end(practice_game(owner))
    page, watch = open_page(PHONES["360x740"], touch=True)
    page.context.add_cookies([{"name": COOKIE_NAME, "value": signed_cookie(owner),
                               "url": site.url}])
    open_replay(page, site.url, game, "?v=40")
    page.wait_for_selector("[data-discard-top] .card")
    shoot(page, "en-360x740-replay-piles", full_page=False)
    assert page.evaluate(CAPTIONS_CUT) == []
    watch.check()


# How far the top bar's tools reach into your section beside them (a phone on its side).
TOOLS_INTO_ME = """() => {
    const me = document.querySelector('section.me').getBoundingClientRect();
    return Math.max(0, ...[...document.querySelectorAll('.tools > *')]
        .filter((b) => b.offsetParent)
        .map((b) => { const r = b.getBoundingClientRect();
                      return r.top < me.bottom && r.bottom > me.top ? r.right - me.left : 0; }));
}"""


@pytest.mark.parametrize("language", ["en", "es", "th"])
def test_on_its_side_a_friends_tables_tools_stay_beside_your_section(open_page, site, seeded,
                                                                     language):
    """Seen on the table's screenshots (tests/browser/test_table_screens.py): at 844×390 in
    Spanish "React", "Scores", "Settings" and "?" are wider than the table's column, and "?"
    stood on your turn's words."""
    ana, ben, chai = friends_at_phones(open_page, site, language)
    ben.page.set_viewport_size({"width": 844, "height": 390})
    ben.page.evaluate("() => new Promise((r) => requestAnimationFrame("
                      "() => requestAnimationFrame(r)))")
    shoot(ben.page, f"{language}-844x390-friends-tools", full_page=False)
    assert ben.page.evaluate(TOOLS_INTO_ME) <= 0
    for person in (ana, ben, chai):
        person.watch.check()
