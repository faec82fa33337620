"""The pages show the server's lists (games.lists, the bots' levels, the advice's reasons),
worded in the page's language by frontend/lists.py: the JSON every page carries for its
scripts (js/lists.js), the reasons on the table and the replay, and the forms' choices."""

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from frontend import lists
from games.lists import (
    DEFAULT_LEVEL,
    DEFAULT_TURN_SECONDS,
    LEVEL_WORDS,
    LEVELS,
    REACTION_CODES,
    REACTIONS,
    REASONS,
    TURN_SECONDS,
)
from tests.factories import player_with_token
from tests.frontend.test_pages import play_as, table_path  # noqa: F401 (a fixture)
from tests.frontend.test_translations import entries
from tests.languages import LANGUAGES, TRANSLATED

pytestmark = pytest.mark.django_db
LOCALE = Path(__file__).resolve().parents[2] / "frontend" / "locale"


def blob(html: str, element_id: str):
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html)
    assert found, element_id
    return json.loads(found.group(1))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_carries_the_servers_lists_in_its_language(lang):
    client = Client()
    client.cookies["django_language"] = lang
    carried = blob(client.get("/").content.decode(), "lists")
    assert [r["code"] for r in carried["reactions"]] == list(REACTION_CODES)
    assert [level["code"] for level in carried["levels"]] == list(LEVELS)
    assert [t["seconds"] for t in carried["turn_seconds"]] == list(TURN_SECONDS)
    with translation.override(lang):
        assert carried == lists.for_pages()
    words = [item["word"] for key in ("reactions", "levels", "turn_seconds")
             for item in carried[key]]
    assert all(words) and len(set(words)) == len(words)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_word_of_the_lists_has_its_translation(lang):
    """A word missing from a catalogue would show in English: each reaction (in the context
    "reaction"), level, timer pattern and reason sentence is in the pages' catalogue."""
    catalogue = LOCALE / lang / "LC_MESSAGES" / "django.po"
    reactions = dict(re.findall(r'^msgctxt "reaction"\nmsgid "(.*)"\nmsgstr "(.+)"$',
                                catalogue.read_text(encoding="utf-8"), re.M))
    translated = {msgid for msgid, strs, fuzzy in entries(catalogue) if all(strs) and not fuzzy}
    with translation.override("en"):
        assert [str(w) for w in REACTIONS.values() if str(w) not in reactions] == []
        wanted = [*map(str, LEVEL_WORDS.values()), "%(n)s s", "%(n)s min", *REASONS.values()]
        assert [w for w in wanted if w not in translated] == []


def test_a_timer_choice_is_worded_from_its_number():
    with translation.override("en"):
        assert [lists.turn_words(s) for s in (30, 60, 120, 300, 90)] == [
            "30 s", "60 s", "2 min", "5 min", "90 s"]
    with translation.override("th"):
        assert lists.turn_words(120) == "2 นาที"


def test_the_home_pages_choices_are_the_lists():
    html = Client().get("/").content.decode()
    levels = re.findall(r'name="level" value="(\w+)"( checked)?', html)
    assert levels[:len(LEVELS)] == [(level, " checked" if level == DEFAULT_LEVEL else "")
                                    for level in LEVELS]
    timers = re.findall(r'name="turn_seconds" value="(\d*)"( checked)?', html)
    assert timers == [("", ""), *((str(s), " checked" if s == DEFAULT_TURN_SECONDS else "")
                                  for s in TURN_SECONDS)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_page_carries_every_reason_in_its_language(client, table_path, lang):  # noqa: F811
    client.cookies["django_language"] = lang
    reasons = blob(client.get(table_path).content.decode(), "reasons")
    assert list(reasons) == list(REASONS)
    with translation.override(lang):
        assert reasons == lists.reasons()
    if lang == "en":
        assert reasons == REASONS


def test_only_the_pages_that_give_reasons_carry_them():
    player_with_token("Ada")
    assert 'id="reasons"' not in Client().get("/").content.decode()
