"""Display names: a friendly random one for every new player ("Brave Otter"), and the limits
on the names players choose (moderators may reset a name in the admin)."""

from __future__ import annotations

import secrets
import unicodedata

NAME_MIN_CHARS = 2
NAME_MAX_CHARS = 24
NAME_PUNCTUATION = frozenset(" -_.'")
# Combining marks (Unicode categories M*) after one base character: Thai writes a vowel and a
# tone mark over one consonant, and Vietnamese two accents on one vowel; more only stacks
# marks over the neighbouring lines of a leaderboard.
MARKS_PER_BASE_MAX = 2

ADJECTIVES = (
    "Brave", "Calm", "Clever", "Cosy", "Daring", "Eager", "Fancy", "Gentle", "Happy", "Jolly",
    "Keen", "Kind", "Lively", "Lucky", "Merry", "Mighty", "Nimble", "Plucky", "Proud", "Quick",
    "Quiet", "Rapid", "Sly", "Snappy", "Steady", "Sunny", "Swift", "Tidy", "Witty", "Zesty",
)
ANIMALS = (
    "Badger", "Beaver", "Bison", "Crane", "Dolphin", "Falcon", "Ferret", "Fox", "Gecko", "Heron",
    "Ibis", "Koala", "Lemur", "Lynx", "Marten", "Moose", "Newt", "Ocelot", "Otter", "Owl",
    "Panda", "Puffin", "Quail", "Raven", "Seal", "Stoat", "Tapir", "Toucan", "Walrus", "Wombat",
)


def random_name() -> str:
    return f"{secrets.choice(ADJECTIVES)} {secrets.choice(ANIMALS)}"


class InvalidName(ValueError):
    pass


def clean_name(raw: str) -> str:
    """The name as stored (NFC, spaces collapsed), or InvalidName with a message for players.

    2-24 characters of letters (any script, with at most two combining marks each), digits,
    spaces and ``- _ . '``; it must contain a letter."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not NAME_MIN_CHARS <= len(name) <= NAME_MAX_CHARS:
        raise InvalidName(f"A name has {NAME_MIN_CHARS} to {NAME_MAX_CHARS} characters.")
    for char in name:
        category = unicodedata.category(char)
        if char not in NAME_PUNCTUATION and category[0] not in "LMN":
            raise InvalidName("A name may hold letters, digits, spaces and - _ . ' only.")
    if not any(unicodedata.category(c)[0] == "L" for c in name):
        raise InvalidName("A name needs at least one letter.")
    if _most_marks_on_one_base(name) > MARKS_PER_BASE_MAX:
        raise InvalidName(f"A letter carries at most {MARKS_PER_BASE_MAX} accents or marks.")
    return name


def _most_marks_on_one_base(name: str) -> int:
    """Counted decomposed (NFD): an "é" written as one code point still carries its accent."""
    most = run = 0
    for char in unicodedata.normalize("NFD", name):
        run = run + 1 if unicodedata.category(char)[0] == "M" else 0
        most = max(most, run)
    return most
