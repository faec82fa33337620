"""The replay viewer (/replay/<id>/) and My games (/games/), as a player meets them.

The viewer steps through a whole finished daily (its day over: anyone may watch) with the →
key, and at 20 versions spread over the game its cards (every hand, every meld, the discard
pile's top, the stock) are those of the engine's own replay of the log at that version; ← steps
back, ``?v=`` opens a given moment, the deal list jumps to a deal's start, and a swipe steps
on a phone.
"""

from __future__ import annotations

import pytest
from django.core import signing

from games.engine import action_from_json, apply, new_game
from games.engine.cards import card_id
from games.models import Game
from games.players.identity import COOKIE_NAME, COOKIE_SALT, cookie_value
from games.services.daily import start_daily
from tests.browser.conftest import DESKTOP, shoot
from tests.browser.table_driver import counted_melds, more_melds, tap_to_the_last_meld
from tests.factories import player_with_token
from tests.leaderboards.play import play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_TALL = {"width": 390, "height": 844}
SAMPLES = 20

ON_SCREEN = """() => {
  const ids = (sel) => [...document.querySelectorAll(sel)].map((c) => c.dataset.id);
  return {
    version: Number(document.getElementById("replay").dataset.version),
    hands: [0, 1, 2, 3].map((s) => s === 0 ? ids("[data-hand] .card")
                                           : ids(`.seat[data-seat="${s}"] .fan .card`)),
    melds: [...document.querySelectorAll("[data-melds] .meld")].map(
      (m) => [...m.querySelectorAll(".card")].map((c) => c.dataset.id)),
    discardTop: document.querySelector("[data-discard-top] .card:not(.under)")?.dataset.id ?? null,
    stock: document.querySelector("[data-stock-count]").textContent,
    search: location.search,
  };
}"""


def engine_states(game: Game) -> list:
    """The engine's state at every version of ``game``: replay(seed, actions[:v])."""
    state, _ = new_game(game.seed)
    states = [state]
    for seat, data in game.actions.order_by("index").values_list("seat", "action"):
        state, _ = apply(state, seat, action_from_json(data))
        states.append(state)
    return states


def expected(state) -> dict:
    return {
        "hands": [sorted(card_id(c) for c in hand) for hand in state.hands],
        "melds": [[card_id(c) for c in meld.meld.cards] for meld in state.table],
        "discardTop": card_id(state.discard_pile[-1]) if state.discard_pile else None,
        "stock": str(len(state.stock)),
    }


def shown(page) -> dict:
    screen = page.evaluate(ON_SCREEN)
    screen["hands"] = [sorted(hand) for hand in screen["hands"]]
    return screen


def at_version(page, v: int) -> dict:
    page.wait_for_function(
        "(v) => document.getElementById('replay').dataset.version === String(v)", arg=v)
    return shown(page)


def assert_matches(screen: dict, state) -> None:
    want = expected(state)
    got = {key: screen[key] for key in want}
    assert got == want, f"v{screen['version']}"


@pytest.fixture
def watched_daily(clock):
    """A daily played to its end by a scripted person, its day then over."""
    owner, _ = player_with_token()
    game = play_to_the_end(start_daily(owner).game)
    clock.advance(days=1)
    return game


LOG = "() => [...document.querySelectorAll('[data-log-lines] li')].map((li) => li.textContent)"


def open_replay(page, base_url: str, game: Game, query: str = "") -> None:
    page.goto(f"{base_url}/replay/{game.public_id}/{query}")
    page.wait_for_selector("#replay:not([data-loading])")


def test_the_viewer_steps_through_a_whole_game_with_every_card_as_the_engine_has_it(
        open_page, site, watched_daily):
    states = engine_states(watched_daily)
    last = len(states) - 1
    samples = {round(i * last / (SAMPLES - 1)) for i in range(SAMPLES)}
    assert len(samples) == SAMPLES and watched_daily.version == last
    page, watch = open_page(DESKTOP)
    open_replay(page, site.url, watched_daily)
    assert_matches(at_version(page, 0), states[0])
    page.locator("[data-play]").focus()  # the keys work wherever focus is but a field
    checked = {0}
    # Moments whose log the steps forward wrote, to compare with the log each opens with:
    # one a few moves into a deal (its lines added a step at a time) and a deal's first.
    moment = last // 3
    while states[moment - 2].deal != states[moment].deal:
        moment += 1
    start_of_five = next(v for v, s in enumerate(states) if s.deal == 5)
    stepped_logs = {}
    for v in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        if v in (moment, start_of_five):
            at_version(page, v)
            stepped_logs[v] = page.evaluate(LOG)
        if v in samples:
            screen = at_version(page, v)
            assert_matches(screen, states[v])
            assert screen["search"] == f"?v={v}"  # the address holds the moment
            checked.add(v)
    assert checked == samples
    assert page.locator("[data-go='forward']").is_disabled()
    page.keyboard.press("ArrowRight")  # the end: nothing further
    assert at_version(page, last)["version"] == last
    assert "over" in page.inner_text("[data-message]")

    for v in (last - 1, last - 2):
        page.keyboard.press("ArrowLeft")
        assert_matches(at_version(page, v), states[v])

    # A shared moment opens where it was left, its log as the steps forward wrote it.
    open_replay(page, site.url, watched_daily, f"?v={moment}")
    assert_matches(at_version(page, moment), states[moment])
    assert page.evaluate(LOG) == stepped_logs[moment] and len(stepped_logs[moment]) > 2

    # A deal's start, from the list of deals: the deal before's moves still in its log.
    page.select_option("[data-deal]", "5")
    screen = at_version(page, start_of_five)
    assert_matches(screen, states[start_of_five])
    assert page.evaluate(LOG) == stepped_logs[start_of_five]
    assert "Deal 4 begins." in stepped_logs[start_of_five]
    assert page.inner_text("[data-deal-info]").startswith("Deal 5 of 10")
    shoot(page, "replay-laptop")
    watch.check()


@pytest.mark.parametrize("language", ["en", "th"])
def test_on_a_phone_a_swipe_steps_and_the_controls_stay_in_reach(
        open_page, site, watched_daily, language):
    states = engine_states(watched_daily)
    page, watch = open_page(PHONE_TALL, touch=True)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": site.url}])
    open_replay(page, site.url, watched_daily, "?v=40")
    assert_matches(at_version(page, 40), states[40])
    for dx, v in ((-120, 41), (-120, 42), (120, 41)):
        page.evaluate("""(dx) => {
          const table = document.querySelector(".centre"), box = table.getBoundingClientRect();
          const at = (x) => ({pointerId: 7, pointerType: "touch", bubbles: true,
                              clientX: box.left + box.width / 2 + x, clientY: box.top + 20});
          table.dispatchEvent(new PointerEvent("pointerdown", at(0)));
          table.dispatchEvent(new PointerEvent("pointerup", at(dx)));
        }""", dx)
        assert_matches(at_version(page, v), states[v])
    shoot(page, f"replay-phone-{language}")
    shoot(page, f"replay-phone-window-{language}", full_page=False)
    for control in ("[data-go='back']", "[data-play]", "[data-go='forward']"):
        box = page.locator(control).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, control
        assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE_TALL["height"], control
    page.click("[data-go='forward']")
    assert_matches(at_version(page, 42), states[42])
    watch.check()


def signed_cookie(player) -> str:
    return signing.get_cookie_signer(salt=COOKIE_NAME + COOKIE_SALT).sign(cookie_value(player))


def test_my_games_lists_each_game_with_resume_or_watch(open_page, site, clock):
    me, _ = player_with_token()
    finished = play_to_the_end(start_daily(me).game)
    from games import services

    running = services.start_game(me, Game.PRACTICE, "hard").game
    for viewport, name in ((DESKTOP, "laptop"), (PHONE_TALL, "phone")):
        page, watch = open_page(viewport)
        page.context.add_cookies([{"name": COOKIE_NAME, "value": signed_cookie(me),
                                   "url": site.url}])
        page.goto(site.url + "/games/")
        page.wait_for_selector(f"[data-game='{running.public_id}']")
        rows = page.locator(".game-row")
        assert rows.count() == 2
        assert rows.nth(0).get_attribute("data-game") == running.public_id  # newest first
        resume = rows.nth(0).get_by_role("link", name="Resume")
        assert resume.get_attribute("href") == f"/play/{running.public_id}/"
        # The daily's replay waits for the end of its day.
        assert "Replay when the day has ended" in rows.nth(1).inner_text()
        assert f"Place {finished.place}" in rows.nth(1).inner_text()
        shoot(page, f"my-games-{name}")
        watch.check()

    clock.advance(days=1)
    page.reload()
    watch_link = page.get_by_role("link", name="Watch")
    assert watch_link.get_attribute("href") == f"/replay/{finished.public_id}/"
    page.select_option("select[name='mode']", "practice")
    page.wait_for_function("() => document.querySelectorAll('.game-row').length === 1")
    assert "mode=practice" in page.url
    page.go_back()
    page.wait_for_function("() => document.querySelectorAll('.game-row').length === 2")
    watch.check()


def test_a_replay_not_open_to_you_is_not_found_and_your_own_says_when_it_opens(
        open_page, site, clock):
    me, _ = player_with_token()
    mine = play_to_the_end(start_daily(me).game)
    stranger, _ = player_with_token()
    from games import services

    theirs = play_to_the_end(services.start_game(stranger, Game.PRACTICE, "easy").game)
    page, watch = open_page(DESKTOP)
    page.context.add_cookies([{"name": COOKIE_NAME, "value": signed_cookie(me), "url": site.url}])
    for game in (mine, theirs):
        response = page.goto(f"{site.url}/replay/{game.public_id}/")
        assert response.status == 404
        assert mine.seed not in page.content()
    page.goto(f"{site.url}/replay/{mine.public_id}/")
    assert "opens for everyone when its day has ended" in page.inner_text("main")
    page.goto(f"{site.url}/replay/{theirs.public_id}/")
    assert "Game not found" in page.inner_text("main")
    watch.check(allow=("status of 404",))


def test_on_a_phone_your_own_hand_is_above_the_controls(open_page, site, watched_daily):
    """The controls are fixed at the foot of a phone's window: the replay's own hand (seat 0)
    is seen above them as the page opens, the others' face-up hands above it."""
    # A moment when your hand is at its largest (a card drawn to ten): two rows of cards.
    v = next(v for v, state in enumerate(engine_states(watched_daily)) if len(state.hands[0]) == 11)
    page, watch = open_page(PHONE_TALL, touch=True)
    open_replay(page, site.url, watched_daily, f"?v={v}")
    at_version(page, v)
    page.wait_for_function("() => document.fonts.status === 'loaded'")
    controls = page.locator("[data-controls]").bounding_box()
    cards = page.locator("[data-hand] .card")
    assert cards.count() == 11
    bottoms = cards.evaluate_all("(cs) => cs.map((c) => c.getBoundingClientRect().bottom)")
    assert max(bottoms) <= controls["y"] + 0.5, (bottoms, controls)
    assert page.evaluate("() => scrollY") == 0
    watch.check()


def test_on_a_phone_the_melds_out_of_view_are_counted_and_a_tap_brings_them(
        open_page, site, watched_daily):
    """The table's view scrolls inside itself, as at the game's page: a full table's melds
    beyond it are counted at its foot ("3 more melds ↓"), and the count scrolls to them."""
    states = engine_states(watched_daily)
    v = max(range(len(states)), key=lambda v: (len(states[v].table), -v))
    page, watch = open_page(PHONE_TALL, touch=True)
    open_replay(page, site.url, watched_daily, f"?v={v}")
    at_version(page, v)
    seen = counted_melds(page)
    assert seen["below"] > 0 and seen["more"] == more_melds(seen), seen
    tap_to_the_last_meld(page, seen)
    assert_matches(shown(page), states[v])  # the tap scrolled; it did not step
    watch.check()
