"""The pages stay live, served as the site is served (ASGI on uvicorn): a second tab follows
the first without a reload, a board shows a finished daily without a reload, a reload never
plays a finished deal again, and a tab that catches up has every move in its log."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest

from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.strategy import person_action
from tests.browser.table_driver import double_click, play_turn, start_practice, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.convergence, pytest.mark.django_db(transaction=True)]

LOG_LINES = ("() => [...document.querySelectorAll('[data-log-lines] li')]"
             ".map((li) => li.textContent)")
SERVER_LOG = """async () => {
  const id = document.getElementById('game').dataset.gameId;
  return (await fetch(`/api/v1/games/${id}/events`)).json();
}"""


def in_thread(function, *args):
    """Run ``function`` off Playwright's thread: the services publish with async_to_sync,
    which refuses a thread with a running event loop."""
    from django.db import connection

    def run():
        try:
            return function(*args)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


SAME_LAST_LINE = ("(lines) => { const now = [...document.querySelectorAll('[data-log-lines] li')]"
                  ".map((li) => li.textContent);"
                  " return now.length && now.at(-1) === lines.at(-1); }")


def this_deal(lines: list[str]) -> list[str]:
    """The log's lines from the current deal's first ("Deal 2 begins.") on."""
    starts = [i for i, line in enumerate(lines) if re.fullmatch(r"Deal \d+ begins\.", line)]
    return lines[starts[-1] if starts else 0:]


def game_version(page) -> int:
    return page.evaluate("""async () => {
      const id = document.getElementById('game').dataset.gameId;
      return (await (await fetch(`/api/v1/games/${id}`)).json()).version;
    }""")


OPEN_SOCKETS = """
window.__socketsOpen = 0;
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener('open', () => { window.__socketsOpen += 1; });
  }
};
"""


def test_a_second_tab_follows_each_move_of_the_first(open_page, site):
    """Only the game's socket can bring the first tab's moves to the second (the page does not
    poll): each is awaited as it shows, under Playwright's default ceiling."""
    first, watch = open_page(DESKTOP)
    first.context.add_init_script(OPEN_SOCKETS)
    start_practice(first, site.url, language=None)
    second = first.context.new_page()
    second.goto(first.url)
    wait_idle(second)
    second.wait_for_function("() => window.__socketsOpen > 0")

    for _ in range(3):  # three turns: a draw and a discard each, and the bots' turns after
        first.click("[data-stock]")
        wait_idle(first)
        second.wait_for_function(SAME_LAST_LINE, arg=first.evaluate(LOG_LINES))
        assert "another tab" in second.inner_text("[data-message]")
        double_click(first, first.locator(".hand .card").first)
        wait_idle(first)
        expected = first.evaluate(LOG_LINES)
        second.wait_for_function(SAME_LAST_LINE, arg=expected)
        wait_idle(second)
        # A bot may end the deal in these turns: the tab that played on through it still
        # shows the deal before, the one that caught up only the new deal's lines.
        assert this_deal(second.evaluate(LOG_LINES)) == this_deal(expected)
        assert second.locator(".hand .card").count() == first.locator(".hand .card").count()

    # The second tab plays on: its move is no silent 409, and the first follows it.
    second.click("[data-stock]")
    wait_idle(second)
    first.wait_for_function("(lines) => { const now = [...document.querySelectorAll("
                            "'[data-log-lines] li')].map((li) => li.textContent);"
                            " return now.at(-1) === lines.at(-1); }",
                            arg=second.evaluate(LOG_LINES))
    watch.check()


def test_a_tab_that_missed_moves_catches_up_with_every_move_in_its_log(open_page, site):
    """A move made while this tab was away (its socket down) is found when the player acts:
    the 409 is not silent, and the log is the server's, line for line."""
    page, watch = open_page(DESKTOP)
    # The page's game socket opens but hears nothing (Playwright answers it; no server behind
    # it): otherwise its frames may bring the moves before the click, and there is no 409.
    page.route_web_socket("**/ws/games/**", lambda socket: None)
    game_id = start_practice(page, site.url, language=None)
    before = game_version(page)
    in_thread(play_person_turns, game_id, 2)  # another device plays two turns
    page.click("[data-stock]")  # stale: answered 409, and the page catches up
    page.wait_for_function("(v) => document.querySelector('[data-message]').textContent"
                           ".includes('another tab')", arg=before)
    wait_idle(page)
    server = page.evaluate(SERVER_LOG)
    assert server["version"] > before
    shown = page.evaluate(LOG_LINES)
    assert len(shown) == len([e for e in server["events"] if e["t"] != "game_finished"])
    watch.check(allow=("status of 409",))


def play_person_turns(game_id: str, turns: int) -> None:
    """``turns`` of the person's turns (each up to its discard) by the scripted strategy."""
    from games import services
    from games.engine import Discard, player_view
    from games.models import Game

    while turns:
        game = Game.objects.get(public_id=game_id)
        action = person_action(player_view(game.load_state(), 0))
        services.act(game_id, game.owner, game.version, action.to_json())
        turns -= isinstance(action, Discard)


def turns_to_end_deal_one() -> int:
    """How many turns the scripted person plays in deal 1 of the seeded game (the bots'
    choices follow from the seed, so a second game of it plays the same)."""
    from games import services
    from games.engine import Discard, player_view
    from games.models import Game
    from tests.leaderboards.factories import player

    owner, _token = player("Scout")
    game_id, turns = services.start_game(owner, Game.PRACTICE, "easy").game.public_id, 0
    while True:
        game = Game.objects.get(public_id=game_id)
        state = game.load_state()
        if state.deal > 1:
            return turns
        action = person_action(player_view(state, 0))
        services.act(game_id, owner, game.version, action.to_json())
        turns += isinstance(action, Discard)


# A seed whose first deal a computer player ends (the person's last move is not the last).
BOT_GOES_OUT = "live-0"
# One whose first deal the person ends, going out.
PERSON_GOES_OUT = "live-20"


def test_a_reload_after_next_deal_shows_the_new_deal_and_no_summary(open_page, site, monkeypatch):

    monkeypatch.setattr("games.services.actions.new_seed", lambda: BOT_GOES_OUT)
    summaries = []
    page, watch = open_page(PHONE, touch=True)
    turns = in_thread(turns_to_end_deal_one)
    game_id = start_practice(page, site.url, language=None)
    in_thread(play_person_turns, game_id, turns - 1)
    page.reload()
    wait_idle(page)
    # The deal's last turn, by touch.
    play_turn(page, {"laid_down": 0, "laid_off": 0, "discarded": 0},
              on_summary=lambda p: summaries.append(p.inner_text("dialog[open]")))
    summary = next(text for text in summaries if "Deal 1 is over" in text)
    # Each player's climb, cards left (under each name on a phone), the deal's penalty and
    # the standings.
    for heading in ("Place", "Rung", "Penalty", "Contracts", "Total"):
        assert heading in summary
    assert "1 → 2" in summary and re.search(r"\n\d+ cards?\n", summary)
    hand = sorted(page.locator(".hand .card").evaluate_all("(cs) => cs.map((c) => c.dataset.id)"))
    assert len(hand) == 10

    for path in ("", "?lang=es"):  # a reload, and a language switch (a reload in Spanish)
        page.goto(page.url.split("?")[0] + path)
        wait_idle(page)
        assert not page.locator("dialog[open]").count()
        assert "2" in page.inner_text("[data-deal-info]")
        after = sorted(page.locator(".hand .card").evaluate_all(
            "(cs) => cs.map((c) => c.dataset.id)"))
        assert after == hand
    watch.check()


# (viewport, touch, language, the summary's words: its title, who went out, "You", a card)
AWAY_CASES = {
    "phone-en": (PHONE, True, "en", ("Deal 1 is over", "You went out.", "You", "card")),
    "laptop-es": (DESKTOP, False, "es", ("Fin de la ronda 1", "Cerraste.", "Tú", "carta")),
}


@pytest.mark.parametrize("case", list(AWAY_CASES))
def test_a_deal_that_ended_while_the_page_was_away_shows_its_results_on_return(
        open_page, site, monkeypatch, case):
    """The person leaves the game's page and plays deal 1 to its end from another device,
    going out there. Back on the page, deal 2 is on the table (its log starts there) and deal
    1's results are shown, whole inside their dialog, once: a reload after they are closed
    does not show them again."""
    size, touch, language, (title, went_out, you, card) = AWAY_CASES[case]
    monkeypatch.setattr("games.services.actions.new_seed", lambda: PERSON_GOES_OUT)
    page, watch = open_page(size, touch=touch)
    turns = in_thread(turns_to_end_deal_one)
    game_id = start_practice(page, site.url, language=language)
    game_url = page.url
    page.goto(site.url + "/games/")
    in_thread(play_person_turns, game_id, turns)
    server = page.evaluate("async (id) => (await fetch(`/api/v1/games/${id}`)).json()", game_id)
    assert server["deal"] == 2

    page.goto(game_url)
    dialog = page.locator("dialog[open]")
    dialog.wait_for()
    summary = dialog.inner_text()
    assert title in summary
    deal_one = server["deals"][0]
    assert deal_one["went_out"] == server["you"] and went_out in summary
    penalties = {row.locator("th").inner_text(): row.locator("td").nth(3).inner_text()
                 for row in dialog.locator("tbody tr").all()}
    names = [p["name"] if p["seat"] != server["you"] else you for p in server["players"]]
    assert penalties == {name: str(deal_one["penalties"][seat])
                         for seat, name in enumerate(names)}, summary
    contracts = {row.locator("th").inner_text(): row.locator("td").nth(4).inner_text()
                 for row in dialog.locator("tbody tr").all()}
    assert contracts == {name: str(int(deal_one["climbed"][seat]))
                         for seat, name in enumerate(names)}, summary  # none of deal 2's
    assert "1 → 2" in summary  # a climb from the rung deal 1 was played at
    assert card not in summary  # the cards each held at the end are not in the next deal's view
    assert dialog.evaluate("(d) => d.scrollWidth <= d.clientWidth"), "the table overflows"
    shoot(page, f"away-summary-{case}")
    button = page.locator("dialog[open] [data-summary-continue]")
    button.tap() if touch else button.click()
    wait_idle(page)
    assert "2" in page.inner_text("[data-deal-info]")

    page.reload()
    wait_idle(page)
    assert not page.locator("dialog[open]").count()
    watch.check()


def test_an_open_page_that_missed_a_deals_end_shows_its_results_when_it_catches_up(
        open_page, site, monkeypatch):
    """The page stays open but its socket hears nothing (asleep, a network that dropped it)
    while the person ends deal 1 from another device. Their next click here is refused (409)
    and the page catches up: deal 2 on the table, and deal 1's results shown."""
    monkeypatch.setattr("games.services.actions.new_seed", lambda: PERSON_GOES_OUT)
    page, watch = open_page(DESKTOP)
    page.route_web_socket("**/ws/games/**", lambda socket: None)
    turns = in_thread(turns_to_end_deal_one)
    game_id = start_practice(page, site.url, language=None)
    in_thread(play_person_turns, game_id, turns)
    page.click("[data-stock]")
    page.locator("dialog[open]").wait_for()
    assert "Deal 1 is over" in page.locator("dialog[open]").inner_text()
    page.click("dialog[open] [data-summary-continue]")
    wait_idle(page)
    assert "2" in page.inner_text("[data-deal-info]")
    watch.check(allow=("status of 409",))


def test_the_daily_board_shows_a_newly_finished_daily_without_a_reload(open_page, site):
    from games import daily
    from tests.leaderboards.factories import finished_daily, player

    page, watch = open_page(DESKTOP)
    page.context.add_init_script(OPEN_SOCKETS)
    page.goto(site.url + "/leaderboard/")
    page.wait_for_function("() => window.__socketsOpen > 0")
    today = daily.today()
    now = datetime.now(UTC)

    def finish():
        finished_daily(player("Late Finisher")[0], today, contracts=4, penalty=120, finished_at=now)

    in_thread(finish)
    page.wait_for_selector("text=Late Finisher")
    watch.check()
