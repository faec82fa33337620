"""Cards of the 107-card pack (R2) as small integers.

A card is an ``int`` from 0 to 106. Naturals are ``(copy - 1) * 52 + suit * 13 + (rank - 1)``
with suits in the order S H D C and ranks 1 (ace) to 13 (king); 104, 105 and 106 are the
three jokers. ``card % 52`` is a natural's *face* (rank and suit without the deck copy): the
two copies of a card share a face and are interchangeable in play (R2).

On the wire (docs/api.md) a card is ``"7H.1"`` (rank, suit, deck copy) or ``"JK.1"``.
"""

from __future__ import annotations

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
HIGH_ACE = 14  # the position of an ace above the king in a run (R6)

FACES = 52
JOKERS = (104, 105, 106)
PACK = tuple(range(107))

RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def is_joker(card: int) -> bool:
    return card >= 104


def rank_of(card: int) -> int:
    """1 (ace) to 13 (king); undefined for jokers."""
    return card % 13 + 1


def suit_of(card: int) -> int:
    """0..3 for S H D C; undefined for jokers."""
    return card % 52 // 13


def face_of(card: int) -> int:
    """The card without its deck copy: equal for the two 7♥. Jokers all have face 104."""
    return 104 if card >= 104 else card % 52


def face(rank: int, suit: int) -> int:
    """The face of rank 1..14 (14 = high ace) in suit 0..3."""
    return suit * 13 + (rank - 1) % 13


def penalty_of(card: int) -> int:
    """R21: 2-10 face value; J, Q, K 10; A 15; joker 25."""
    if card >= 104:
        return 25
    rank = card % 13 + 1
    if rank == ACE:
        return 15
    return 10 if rank >= 10 else rank


def hand_penalty(cards) -> int:
    return sum(penalty_of(c) for c in cards)


def _wire_id(card: int) -> str:
    if card >= 104:
        return f"JK.{card - 103}"
    return f"{RANKS[card % 13]}{SUITS[card % 52 // 13]}.{card // 52 + 1}"


# Every card's wire id, spelt once: each view and event names its cards.
_IDS = tuple(_wire_id(c) for c in PACK)


def card_id(card: int) -> str:
    """The wire id of a card of the pack: ``"7H.1"``, ``"JK.3"``."""
    return _IDS[card]


def _card_json(card: int) -> dict:
    if card >= 104:
        return {"id": card_id(card), "joker": True}
    return {"id": card_id(card), "rank": RANKS[card % 13], "suit": SUITS[card % 52 // 13]}


# Every card's JSON made once, at import: each view and event names its cards.
_JSON = tuple(_card_json(c) for c in PACK)


def card_json(card: int) -> dict:
    """A card on the wire (docs/api.md): a new dict each time, the caller's to change."""
    return _JSON[card].copy()


_BY_ID = {card_id(c): c for c in PACK}


def parse_card(text: str) -> int:
    """``"7H.2"`` -> card. Raises ``KeyError`` for anything that is not a card of the pack."""
    return _BY_ID[text]


def rank_label(rank: int) -> str:
    return RANKS[(rank - 1) % 13]


def describe(card: int) -> str:
    """Plain English: 'seven of hearts', 'joker'."""
    if card >= 104:
        return "joker"
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[SUITS[card % 52 // 13]]}"


def short(card: int) -> str:
    """Readable without the deck copy: '7H', 'JK'."""
    return "JK" if card >= 104 else card_id(card).split(".")[0]


def cards_from_text(text: str) -> tuple[int, ...]:
    """Readable card strings for tests and tools: ``"7H 7S JK 4C"``.

    Each face takes copy 1 on first use and copy 2 on the second; jokers take JK.1, JK.2, JK.3
    in turn. ``"7H.2"`` names a copy explicitly.
    """
    used: set[int] = set()
    result = []
    for word in text.split():
        if "." in word:
            card = parse_card(word)
        else:
            candidates = [parse_card(f"JK.{n}") for n in (1, 2, 3)] if word == "JK" else [
                parse_card(f"{word}.1"), parse_card(f"{word}.2")]
            card = next(c for c in candidates if c not in used)
        if card in used:
            raise ValueError(f"{word} used twice")
        used.add(card)
        result.append(card)
    return tuple(result)
