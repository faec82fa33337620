"""The pages' markup fits the site's Content-Security-Policy (ladder/middleware.py): no
inline executable scripts (JSON data in ``<script type="application/json">`` is fine), no
inline event handlers, no ``style`` attributes, no ``javascript:`` links."""

from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.languages import LANGUAGES

pytestmark = pytest.mark.django_db

PAGES = ["/", "/rules/", "/about/", "/profile/", "/leaderboard/", "/daily/", "/play/abc123/"]


class Offences(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self._inline_script = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
            if name == "style":
                self.found.append(f"<{tag} style=...>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith(
                    "javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")
        if tag == "script" and "src" not in names:
            if names.get("type") != "application/json":
                self.found.append(f"<script type={names.get('type')!r}> without src")
            self._inline_script = True

    def handle_endtag(self, tag):
        if tag == "script":
            self._inline_script = False


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", PAGES)
def test_pages_have_no_inline_scripts_handlers_or_styles(path, lang):
    client = Client()
    client.cookies["django_language"] = lang
    html = client.get(path).content.decode()
    parser = Offences()
    parser.feed(html)
    assert parser.found == []


def test_every_page_is_served_with_a_policy_that_forbids_inline_code():
    for path in PAGES:
        policy = Client().get(path)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy
