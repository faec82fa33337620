"""The expert's review on the replay page (issue 41), as a player meets it on a phone.

A practice game played to its end by a simple scripted person (draw blind, throw the dearest
card) is analysed as the game ends (the task runs at once without Redis, as under ``./dev
serve``); its replay at 390 x 844, by touch, says how often the person agreed with the expert,
and the mark buttons jump to the first mark, whose note says in words what the person did,
what the expert would have done and why, in reach above the controls.
"""

from __future__ import annotations

import math

import pytest

from games.bots import REASONS
from games.models import Analysis, Game
from games.players.identity import COOKIE_NAME
from tests.browser.conftest import AXE, shoot
from tests.browser.table_driver import wait_idle
from tests.browser.test_daily import finish_on_the_server
from tests.browser.test_replay import PHONE_TALL, open_replay, signed_cookie
from tests.factories import player_with_token, practice_game
from tests.leaderboards.play import play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VERSION_IS = "(v) => document.getElementById('replay').dataset.version === String(v)"
HINTED_ABOVE_THE_CONTROLS = """(id) => {
    const card = document.querySelector(`[data-hand] .card.hinted[data-id="${id}"]`);
    const r = card?.getBoundingClientRect();
    const controls = document.querySelector('[data-dock]').getBoundingClientRect();
    return r && r.top >= 0 && r.bottom <= controls.top;
}"""


@pytest.fixture(autouse=True)
def eager_tasks(monkeypatch):
    """The review is written by a Celery task as the game ends: here it runs at once, as under
    ``./dev serve``, also where REDIS_URL gives Celery a broker and no worker runs (CI)."""
    from celery import current_app

    monkeypatch.setitem(current_app.conf, "task_always_eager", True)


@pytest.fixture
def reviewed_game() -> tuple:
    # A game whose first mark comes after the replay's opening version (v=0), so that the
    # tests start before it: a mark at v=0 is already shown when the replay opens.
    for _ in range(5):
        owner, _ = player_with_token()
        game = play_to_the_end(practice_game(owner))
        assert game.status == Game.FINISHED
        row = Analysis.objects.get(game=game, seat=0)  # written when the game ended
        assert not row.failed and len(row.data["marks"]) >= 2
        if row.data["marks"][0]["v"] > 0:
            return owner, game, row.data
    raise AssertionError("five games in a row had a mark at their first decision")


def test_on_a_phone_the_first_mark_is_a_tap_away_and_says_why(open_page, site, reviewed_game):
    owner, game, found = reviewed_game
    first, second = found["marks"][:2]
    page, watch = open_page(PHONE_TALL, touch=True)
    page.context.add_cookies([{"name": COOKIE_NAME, "value": signed_cookie(owner),
                               "url": site.url}])
    open_replay(page, site.url, game)

    summary = page.inner_text("[data-analysis-summary]")
    percent = math.floor(100 * found["agreed"] / found["decisions"] + 0.5)  # JS Math.round
    assert f"You agreed with the expert on {percent}%" in summary
    assert f"({found['agreed']} of {found['decisions']})" in summary
    # Every mark on the strip (marks closer than a diamond's width share one).
    on_strip = page.locator("[data-mark-strip] i").evaluate_all(
        "(dots) => dots.flatMap((d) => d.dataset.vs.split(' ').map(Number))")
    assert on_strip == [m["v"] for m in found["marks"]]
    assert page.locator("[data-mark-note]").is_hidden()

    page.tap("[data-mark-go='forward']")
    page.wait_for_function(VERSION_IS, arg=first["v"])
    note = page.locator("[data-mark-note]")
    text = note.inner_text()
    assert text.startswith(f"The expert's mark 1 of {len(found['marks'])}")
    assert f"Deal {first['deal']}: you" in text
    assert REASONS[first["reason"]["code"]] in text
    assert ("of your chance to win, by the expert's estimate" in text) == (first["cost"] >= 0.001)
    box = note.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE_TALL["height"]  # in view
    for control in ("[data-mark-go='back']", "[data-mark-go='forward']"):
        button = page.locator(control).bounding_box()
        assert button["width"] >= 44 and button["height"] >= 44, control
    assert page.locator("[data-mark-go='back']").is_disabled()  # nothing before the first
    if first["expert"]["type"] in ("discard", "lay_off"):  # the expert's card, lit in the hand
        assert page.locator(f"[data-hand] .card.hinted[data-id='{first['expert']['card']}']"
                            ).count() == 1
    shoot(page, "replay-analysis-phone")
    shoot(page, "replay-analysis-phone-window", full_page=False)

    page.tap("[data-mark-go='forward']")
    page.wait_for_function(VERSION_IS, arg=second["v"])
    assert page.inner_text("[data-mark-note]").startswith("The expert's mark 2 of")
    page.tap("[data-mark-go='back']")
    page.wait_for_function(VERSION_IS, arg=first["v"])
    if found["costliest"] is not None:
        page.tap("[data-costliest]")
        page.wait_for_function(VERSION_IS, arg=found["marks"][found["costliest"]]["v"])

    # The note and the controls are fixed at the window's foot, over your hand: at a mark whose
    # expert move is a card of yours, the hand is scrolled up until the card is above them.
    k, mark = next((k, m) for k, m in enumerate(found["marks"]) if m["expert"].get("card"))
    open_replay(page, site.url, game)
    for _ in range(k + 1):
        page.tap("[data-mark-go='forward']")
    page.wait_for_function(VERSION_IS, arg=mark["v"])
    page.wait_for_function(HINTED_ABOVE_THE_CONTROLS, arg=mark["expert"]["card"])
    watch.check()


def test_the_review_reads_well_to_a_screen_reader_and_the_keys_jump(open_page, site,
                                                                    reviewed_game):
    """axe-core over the review's parts: the summary, the note and the controls. (The whole
    page also reports the seats' open fans, whose cards are list items with a label: not this
    feature's, left to the replay's own fixes.)"""
    owner, game, found = reviewed_game
    page, _ = open_page(PHONE_TALL, touch=True, csp=False)
    page.context.add_cookies([{"name": COOKIE_NAME, "value": signed_cookie(owner),
                               "url": site.url}])
    open_replay(page, site.url, game, f"?v={found['marks'][0]['v']}")
    page.wait_for_selector("[data-mark-note]:not([hidden])")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => (await axe.run(
        {include: [["[data-analysis]"], ["[data-dock]"]]},
        {resultTypes: ["violations"]})).violations.map((v) => [v.id, v.impact])""")
    assert [v for v in result if v[1] in ("serious", "critical")] == []

    # The keys: N the next mark, P the one before.
    page.keyboard.press("n")
    page.wait_for_function(VERSION_IS, arg=found["marks"][1]["v"])
    page.keyboard.press("p")
    page.wait_for_function(VERSION_IS, arg=found["marks"][0]["v"])


def test_the_end_of_game_dialog_leads_to_the_review(open_page, site):
    """A practice game over: its result dialog links to its replay, where the review waits."""
    owner, _ = player_with_token()
    game = practice_game(owner)
    page, watch = open_page(PHONE_TALL, touch=True)
    page.context.add_cookies([{"name": COOKIE_NAME, "value": signed_cookie(owner),
                               "url": site.url}])
    page.goto(f"{site.url}/play/{game.public_id}/")
    wait_idle(page)
    finish_on_the_server(game.public_id)
    page.reload()
    page.wait_for_selector("dialog[open]")
    page.get_by_role("link", name="Replay with the expert's review").tap()
    page.wait_for_url(f"**/replay/{game.public_id}/**")
    page.wait_for_selector("#replay:not([data-loading])")
    assert "You agreed with the expert on" in page.inner_text("[data-analysis-summary]")
    watch.check()


@pytest.mark.parametrize(("language", "agreed", "mark"), [
    ("es", "Coincidiste con el experto en el", "Marca 1 de"),
    ("th", "คุณเลือกตรงกับผู้เชี่ยวชาญ", "เครื่องหมายของผู้เชี่ยวชาญ 1 จาก"),
])
def test_the_review_speaks_the_players_language(open_page, site, reviewed_game, language,
                                                agreed, mark):
    owner, game, found = reviewed_game
    page, watch = open_page(PHONE_TALL, touch=True)
    page.context.add_cookies([{"name": COOKIE_NAME, "value": signed_cookie(owner),
                               "url": site.url},
                              {"name": "django_language", "value": language, "url": site.url}])
    open_replay(page, site.url, game)
    assert agreed in page.inner_text("[data-analysis-summary]")
    page.tap("[data-mark-go='forward']")
    page.wait_for_selector("[data-mark-note]", state="visible")
    note = page.inner_text("[data-mark-note]")
    # "Mark 1 of", or 2 where the replay opens at the first mark's version already
    assert note.startswith(mark.split(" 1 ")[0])
    assert "Deal " not in note and REASONS[found["marks"][0]["reason"]["code"]] not in note
    shoot(page, f"replay-analysis-phone-{language}")
    shoot(page, f"replay-analysis-phone-window-{language}", full_page=False)
    watch.check()
