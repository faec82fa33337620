"""Readable cards and rigged tables for engine tests."""

from __future__ import annotations

from games.engine import GameState, TableMeld, cards_from_text, new_game, read_meld
from games.engine.state import DRAW, evolve

hand = cards_from_text


def c(text: str) -> int:
    """One card: ``c("7H")`` is 7H.1, ``c("7H.2")`` the second copy, ``c("JK")`` JK.1."""
    (card,) = cards_from_text(text)
    return card


def rigged(hands, *, stock="", discard="", table=(), turn=0, phase=DRAW, climbed=(0, 0, 0, 0),
           laid_down_turn=(None, None, None, None), turn_number=5, taken=None, deal=1,
           rebuilds=0, seed="rigged") -> GameState:
    """A deal in progress with exactly these cards. ``hands`` are four card strings; ``stock``
    is listed top first; ``discard`` bottom first; ``table`` holds (owner, "cards") pairs.
    A face named twice anywhere gets its two copies in the order: hands, table, discard, stock."""
    groups = list(hands) + [cards for _, cards in table] + [discard, stock]
    parsed = _split(groups)
    hands_cards, table_cards = parsed[:4], parsed[4:4 + len(table)]
    discard_cards, stock_cards = parsed[-2], parsed[-1]
    base, _ = new_game(seed)
    return evolve(
        base, deal=deal, dealer=(turn - 1) % 4, turn=turn, phase=phase,
        hands=tuple(hands_cards), stock=tuple(reversed(stock_cards)), discard_pile=discard_cards,
        table=tuple(TableMeld(owner, read_meld(cards))
                    for (owner, _), cards in zip(table, table_cards, strict=True)),
        climbed=tuple(climbed), laid_down_turn=tuple(laid_down_turn), turn_number=turn_number,
        taken_from_discard=None if taken is None else c(taken), rebuilds=rebuilds, pile_log=())


def _split(texts: list[str]) -> list[tuple[int, ...]]:
    """Parse several card strings as one, so that copies are shared out across them."""
    cards = cards_from_text(" ".join(texts))
    result, start = [], 0
    for text in texts:
        n = len(text.split())
        result.append(cards[start:start + n])
        start += n
    return result


def all_cards(state: GameState) -> list[int]:
    """Every card in every place: hands, stock, discard pile, table."""
    cards = [card for h in state.hands for card in h]
    cards += list(state.stock) + list(state.discard_pile)
    cards += [card for t in state.table for card in t.meld.cards]
    return cards
