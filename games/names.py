"""Display names: a friendly random one for every new player ("Brave Otter"), and the limits
on the names players choose (moderators may reset a name in the admin)."""

from __future__ import annotations

import secrets
import unicodedata

NAME_MIN_CHARS = 2
NAME_MAX_CHARS = 24
NAME_PUNCTUATION = frozenset(" -_.'")

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

    2-24 characters of letters (any script, with their combining marks), digits, spaces and
    ``- _ . '``; it must contain a letter."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not NAME_MIN_CHARS <= len(name) <= NAME_MAX_CHARS:
        raise InvalidName(f"A name has {NAME_MIN_CHARS} to {NAME_MAX_CHARS} characters.")
    for char in name:
        category = unicodedata.category(char)
        if char not in NAME_PUNCTUATION and category[0] not in "LMN":
            raise InvalidName("A name may hold letters, digits, spaces and - _ . ' only.")
    if not any(unicodedata.category(c)[0] == "L" for c in name):
        raise InvalidName("A name needs at least one letter.")
    return name
