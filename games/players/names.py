"""Display names: a friendly random one for every new player ("Brave Otter"), and the limits
on the names players choose (moderators may reset a name in the admin).

A chosen name must be one people can see and tell apart (issue 29): it is normalised (NFKC:
full-width and mathematical letters become plain ones), holds at least two visible letters or
digits, no filler or invisible character (the Hangul fillers render as nothing), no
enclosing mark, and its confusable skeleton (:func:`skeleton`) must not be a reserved word's:
"Ａｄｍｉｎ", "𝐀dmin", a Cyrillic "аdmin" or "Adm1n" cannot pose as staff or as a computer
player. Real names in any script pass (Thai, Vietnamese, Cyrillic, CJK...).

The skeleton is a small hand-made map in the spirit of Unicode's UTS #39, not its full table:
no small pure-Python package computes skeletons (confusable_homoglyphs, the one checked, only
says whether single characters are confusable), and the names it guards are a handful.
"""

from __future__ import annotations

import re
import secrets
import unicodedata

from games.web.errors import Refusal

NAME_MIN_CHARS = 2
NAME_MAX_CHARS = 24
NAME_PUNCTUATION = frozenset(" -_.'")
# Combining marks (Unicode categories M*) after one base character: Thai writes a vowel and a
# tone mark over one consonant, and Vietnamese two accents on one vowel; more only stacks
# marks over the neighbouring lines of a leaderboard.
MARKS_PER_BASE_MAX = 2
VISIBLE_MIN = 2  # letters or digits a name shows at least

# Letters and marks that render as nothing, which the category check lets through: the Hangul
# fillers (U+3164 and U+FFA0 become U+1160 under NFKC), the combining grapheme joiner,
# Khmer's inherent vowels, Mongolian and other variation selectors, the Braille blank.
INVISIBLE = frozenset(
    [0x115F, 0x1160, 0x3164, 0xFFA0, 0x034F, 0x17B4, 0x17B5, 0x2800, 0x180B, 0x180C, 0x180D,
     0x180F, 0x1D159, 0x1D165, 0x1D166, 0x1D167, 0x1D168, 0x1D169, 0x1D16D, 0x1D16E,
     *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
# NFKC would split Thai and Lao "am" (U+0E33, U+0EB3) into a nikhahit and "aa", changing how
# a Thai name renders: they are kept as written (both are plain letters, nothing to unmask).
KEPT_AS_WRITTEN = re.compile("([\u0e33\u0eb3])")

# The computer players' names by seat: seat 0's bot only plays where people share a game.
COMPUTER_PLAYER_NAMES = ("Dora", "Ada", "Bruno", "Chiara")
RESERVED_NAMES = ("admin", "administrator", "moderator", "mod", "staff", "support", "system",
                  "official", "root", "Ladder Rummy", "Ladder", *COMPUTER_PLAYER_NAMES)

# Look-alikes to one Latin letter, after casefolding and dropping accents: Cyrillic, Greek,
# Armenian and Latin variants, digits and symbols read as letters. "i", "l", "1" and "|" all
# become "l", as they do to the eye in many fonts.
CONFUSABLE = str.maketrans({
    **dict.fromkeys("аɑα", "a"), **dict.fromkeys("вьβЬ8", "b"), **dict.fromkeys("сϲⅽ", "c"),
    **dict.fromkeys("ԁⅾ", "d"), **dict.fromkeys("еёєεэ3", "e"), **dict.fromkeys("ɡ9", "g"),
    **dict.fromkeys("һнհ", "h"), **dict.fromkeys("іїιıɩӏi1|!ǀ", "l"), "ј": "j", "ϳ": "j",
    **dict.fromkeys("кκ", "k"), **dict.fromkeys("мϻ", "m"), **dict.fromkeys("ոηп", "n"),
    **dict.fromkeys("оοօσ0", "o"), **dict.fromkeys("рρ", "p"), "ԛ": "q",
    **dict.fromkeys("ѕ5$", "s"), **dict.fromkeys("тτ7", "t"), **dict.fromkeys("υսμ", "u"),
    **dict.fromkeys("νѵ", "v"), **dict.fromkeys("ԝωш", "w"), **dict.fromkeys("хχ", "x"),
    **dict.fromkeys("уүγ", "y"), "4": "a", "@": "a", "ſ": "f",
})
# Pairs that read as one letter: "rn" as "m", "vv" as "w", "cl" as "d".
CONFUSABLE_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))

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


class InvalidName(Refusal, ValueError):
    """A name refused (422); ``code`` is the API's error code (``invalid_name``, or
    ``reserved_name`` for one that looks like staff's or a computer player's)."""

    def __init__(self, message: str, code: str = "invalid_name"):
        super().__init__(422, code, message)


def normalise(raw: str) -> str:
    """NFKC (Thai and Lao "am" kept as written), spaces collapsed."""
    parts = KEPT_AS_WRITTEN.split(raw)
    text = "".join(part if KEPT_AS_WRITTEN.fullmatch(part) else
                   unicodedata.normalize("NFKC", part) for part in parts)
    return " ".join(text.split())


def skeleton(text: str) -> str:
    """What a name looks like, reduced: casefolded, accents and marks dropped, look-alikes
    mapped to one Latin letter, and everything but letters and digits left out."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    bare = "".join(c for c in folded if unicodedata.category(c)[0] != "M")
    mapped = "".join(c for c in bare.translate(CONFUSABLE) if c.isalnum())
    for pair, letter in CONFUSABLE_PAIRS:
        mapped = mapped.replace(pair, letter)
    return mapped


RESERVED_SKELETONS = frozenset(skeleton(word) for word in RESERVED_NAMES)


def clean_name(raw: str, max_chars: int = NAME_MAX_CHARS) -> str:
    """The name as stored (normalised: :func:`normalise`), or InvalidName with a message for
    players. ``max_chars``: a league's name (leaderboards.leagues.models) may be longer than
    a player's.

    2-24 characters (2-``max_chars``) of letters (any script, with at most two combining
    marks each), digits, spaces and ``- _ . '``; at least one letter and two visible letters
    or digits; no invisible or filler character, no enclosing mark; not posing as a reserved
    name."""
    name = normalise(raw)
    if not NAME_MIN_CHARS <= len(name) <= max_chars:
        raise InvalidName(f"A name has {NAME_MIN_CHARS} to {max_chars} characters.")
    for char in name:
        category = unicodedata.category(char)
        if ord(char) in INVISIBLE or category == "Me" or (
                char not in NAME_PUNCTUATION and category[0] not in "LMN"):
            raise InvalidName("A name may hold letters, digits, spaces and - _ . ' only.")
    if not any(unicodedata.category(c)[0] == "L" for c in name):
        raise InvalidName("A name needs at least one letter.")
    if sum(unicodedata.category(c)[0] in "LN" for c in name) < VISIBLE_MIN:
        raise InvalidName(f"A name shows at least {VISIBLE_MIN} letters or digits.")
    if _most_marks_on_one_base(name) > MARKS_PER_BASE_MAX:
        raise InvalidName(f"A letter carries at most {MARKS_PER_BASE_MAX} accents or marks.")
    if skeleton(name) in RESERVED_SKELETONS:
        raise InvalidName("That name is reserved: choose another.", code="reserved_name")
    return name


def _most_marks_on_one_base(name: str) -> int:
    """Counted decomposed (NFD): an "é" written as one code point still carries its accent."""
    most = run = 0
    for char in unicodedata.normalize("NFD", name):
        run = run + 1 if unicodedata.category(char)[0] == "M" else 0
        most = max(most, run)
    return most
