"""Every list a client shows, defined once: the services check against these, the API's enums
are built from them (games.schemas, games.tables.api) and the pages word them
(frontend/lists.py renders them, translated, for the templates and the scripts).

The words are English and lazy (``gettext_lazy``): nothing here translates, the API stays in
English, and the pages put each word in their language when they render it. makemessages, run
in frontend/, reads this file through the link in frontend/i18n_sources/, as it reads the
hint's reasons in games/bots/advice.py.
Adding a reaction or a timer choice is a line here, its translations and a test.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy, pgettext_lazy

from games.bots import LEVELS, REASON_CODES, REASONS

__all__ = ["DEFAULT_LEVEL", "DEFAULT_TURN_SECONDS", "LEVELS", "LEVEL_WORDS", "REACTIONS",
           "REACTION_CODES", "REASONS", "REASON_CODES", "TURN_SECONDS"]

# Preset reactions at a table (nothing typed, so nothing to moderate) and their words, in the
# context "reaction": the reaction "Your turn" says "Te toca", a heading "Tu turno".
REACTIONS = {
    "nice": pgettext_lazy("reaction", "Nice!"),
    "oops": pgettext_lazy("reaction", "Oops"),
    "good_game": pgettext_lazy("reaction", "Good game"),
    "your_turn": pgettext_lazy("reaction", "Your turn"),
}
REACTION_CODES = tuple(REACTIONS)

# A person's time for a turn at a table, in seconds (None, not listed: no timer). The pages
# word each from its number ("30 s", "5 min"), so a new choice needs no new sentence.
TURN_SECONDS = (30, 60, 300)
DEFAULT_TURN_SECONDS = 60

# The computer players' levels are the bots' (games.bots.LEVELS); these are their words, as
# said inside a sentence ("Practice (easy)"); a form's label capitalises the word.
LEVEL_WORDS = {
    "easy": gettext_lazy("easy"),
    "normal": gettext_lazy("normal"),
    "hard": gettext_lazy("hard"),
}
DEFAULT_LEVEL = "normal"
