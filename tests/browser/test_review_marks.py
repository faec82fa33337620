"""The review's marks on a phone (issue 51, item 8): at 390 a game's many marks (78 were seen)
ran together into one bar under the replay's slider."""

from __future__ import annotations

import pytest

from games.players.identity import COOKIE_NAME
from tests.browser.conftest import shoot
from tests.browser.test_analysis import eager_tasks, reviewed_game  # noqa: F401 (fixtures)
from tests.browser.test_replay import PHONE_TALL, open_replay, signed_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The strip's diamonds as drawn: how many, and the pairs of neighbours whose boxes meet (a
# diamond is a square turned by 45°: its box is the square's diagonal wide).
DIAMONDS = """() => {
    const boxes = [...document.querySelectorAll('[data-mark-strip] i')]
        .map((i) => i.getBoundingClientRect()).sort((a, b) => a.left - b.left);
    let meet = 0;
    for (let k = 1; k < boxes.length; k++) if (boxes[k].left < boxes[k - 1].right + 1) meet += 1;
    return {diamonds: boxes.length, meet,
            current: document.querySelectorAll('[data-mark-strip] i.current').length};
}"""
VERSION_IS = "(v) => document.getElementById('replay').dataset.version === String(v)"


def test_the_marks_diamonds_stand_apart_on_a_phone(open_page, site, reviewed_game):  # noqa: F811
    owner, game, found = reviewed_game
    assert len(found["marks"]) >= 40, len(found["marks"])  # many, as in the game seen
    page, watch = open_page(PHONE_TALL, touch=True)
    page.context.add_cookies([{"name": COOKIE_NAME, "value": signed_cookie(owner),
                               "url": site.url}])
    open_replay(page, site.url, game)
    page.wait_for_selector("[data-mark-strip] i")
    shoot(page, f"en-390x844-review-marks-{len(found['marks'])}")
    seen = page.evaluate(DIAMONDS)
    assert seen["meet"] == 0 and seen["diamonds"] > 1, seen
    # Every mark is still a stop of the mark buttons, and the one shown is marked on the strip.
    for mark in found["marks"][:3]:
        page.tap("[data-mark-go='forward']")
        page.wait_for_function(VERSION_IS, arg=mark["v"])
        assert page.evaluate(DIAMONDS)["current"] == 1
    watch.check()
