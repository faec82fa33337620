"""The site's languages as settings name them, for the tests that go through each: a new
language is a line in settings.LANGUAGES and its catalogues, not an edit of every such test."""

from django.conf import settings

LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)
# The languages with a catalogue of their own: every one but the language the code is written in.
TRANSLATED = tuple(code for code in LANGUAGES if code != settings.LANGUAGE_CODE)
