"""The server's lists (games.lists) in the page's language, for the templates and the scripts.

base.html renders :func:`for_pages` as the page's ``lists`` JSON (``json_script``, which the
Content-Security-Policy allows: data, no code), and the pages that give the expert's reasons
(the table, the replay) render :func:`reasons` as ``reasons``; js/lists.js reads both. So the
codes, their order and their words come from one place; the catalogues translate the English
words of games.lists and games/bots/advice.py (frontend/i18n_sources/ links them here so
makemessages, run in this folder, finds them).
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.translation import get_language, gettext

from games.lists import (
    DEFAULT_LEVEL,
    DEFAULT_TURN_SECONDS,
    LEVEL_WORDS,
    LEVELS,
    REACTIONS,
    REASONS,
    TURN_SECONDS,
)


def turn_words(seconds: int) -> str:
    """"30 s", "60 s", "5 min": whole minutes over one in minutes. From the number, so a new
    choice of time needs no new sentence to translate."""
    if seconds > 60 and seconds % 60 == 0:
        return gettext("%(n)s min") % {"n": seconds // 60}
    return gettext("%(n)s s") % {"n": seconds}


def for_pages() -> dict:
    """The lists every page may show, in the active language (built once per language)."""
    return _for_pages(get_language())


def reasons() -> dict[str, str]:
    """Each reason code of the expert's (games.bots.advice) with its sentence, translated."""
    return _reasons(get_language())


@lru_cache(maxsize=8)
def _for_pages(_language: str | None) -> dict:
    return {
        "reactions": [{"code": code, "word": str(word)} for code, word in REACTIONS.items()],
        "levels": [{"code": code, "word": str(LEVEL_WORDS[code]), "default": code == DEFAULT_LEVEL}
                   for code in LEVELS],
        "turn_seconds": [{"seconds": seconds, "word": turn_words(seconds),
                          "default": seconds == DEFAULT_TURN_SECONDS}
                         for seconds in TURN_SECONDS],
    }


@lru_cache(maxsize=8)
def _reasons(_language: str | None) -> dict[str, str]:
    return {code: gettext(sentence) for code, sentence in REASONS.items()}
