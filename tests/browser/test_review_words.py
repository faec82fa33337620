"""The review's words are written in two places: the replay's summary on the server
(frontend/review.py, so that it is in the page's first paint) and each mark's note in the
browser (js/views/marks.js, as the replay steps). This holds the two to the same phrase for
every kind of difference, in every language, so neither can drift from the other."""

from __future__ import annotations

import pytest
from django.templatetags.static import static
from django.utils import translation

from frontend import review
from tests.languages import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# One mark of each branch of difference() (docs/api.md, the replay's analysis), a joker and a
# ten among their cards.
MARKS = [
    {"kind": "draw", "played": {"type": "draw", "from": "stock"},
     "expert": {"type": "draw", "from": "discard"}},
    {"kind": "draw", "played": {"type": "draw", "from": "discard"},
     "expert": {"type": "draw", "from": "stock"}},
    {"kind": "lay_down", "played": {"type": "discard", "card": "7C.1"},
     "expert": {"type": "lay_down", "melds": [["7C.1", "7D.1", "7H.2"]]}},
    {"kind": "lay_off", "played": {"type": "discard", "card": "9S.2"},
     "expert": {"type": "lay_off", "card": "KS.1", "meld": 0}},
    {"kind": "discard", "played": {"type": "discard", "card": "5D.2"},
     "expert": {"type": "discard", "card": "10H.1"}},
    {"kind": "discard", "played": {"type": "lay_off", "card": "JK.1", "meld": 1},
     "expert": {"type": "discard", "card": "AC.1"}},
    {"kind": "discard", "played": {"type": "lay_down", "melds": []},
     "expert": {"type": "discard", "card": "QD.2"}},
]
DIFFERENCES = """async ([module, marks]) => {
  const { difference } = await import(module);
  return marks.map(difference);
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_server_and_the_page_word_each_difference_alike(open_page, site, lang):
    page, _watch = open_page()
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": site.url}])
    page.goto(f"{site.url}/rules/")
    page.wait_for_function("() => typeof window.gettext === 'function'")
    in_the_page = page.evaluate(DIFFERENCES, [static("frontend/js/views/marks.js"), MARKS])
    with translation.override(lang):
        on_the_server = [review.difference(mark) for mark in MARKS]
    assert in_the_page == on_the_server
    assert len(set(on_the_server)) == len(MARKS)
