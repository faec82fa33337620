"""The engine's faster parts answer as the rules' plain definitions do (issue 33)."""

from __future__ import annotations

from games.engine import new_game, player_view, read_meld
from games.engine.cards import ACE, HIGH_ACE, is_joker, rank_of, suit_of
from games.engine.contracts import GROUP
from games.engine.melds import HIGH, LOW
from games.engine.rng import Stream, derive


def _fits(card: int, rank: int, suit: int) -> bool:
    return is_joker(card) or (suit_of(card) == suit and rank_of(card) == (rank - 1) % 13 + 1)


def _ends_by_definition(meld, card: int) -> tuple[str, ...]:
    """R15, as written: a group takes its rank or a joker; a run the place below or above."""
    if meld.kind == GROUP:
        return (HIGH,) if is_joker(card) or rank_of(card) == meld.rank else ()
    ends = []
    if meld.rank > ACE and _fits(card, meld.rank - 1, meld.suit):
        ends.append(LOW)
    if meld.high < HIGH_ACE and _fits(card, meld.high + 1, meld.suit):
        ends.append(HIGH)
    return tuple(ends)


def _every_meld():
    for suit in range(4):
        for low in range(1, 15):
            for length in range(4, 16 - low):
                yield read_meld([suit * 13 + (r - 1) % 13 for r in range(low, low + length)])
    for r in range(13):
        yield read_meld([r, r + 13, r + 26 + 52])
        yield read_meld([r, 104, r + 39])


def test_a_meld_s_kept_lay_off_ends_are_the_rule_s_for_every_card():
    for meld in _every_meld():
        for card in range(107):
            assert meld.ends_for(card) == _ends_by_definition(meld, card), (meld, card)


def test_a_meld_extended_forgets_the_ends_of_the_meld_it_came_from():
    run = read_meld([13 + 4, 13 + 5, 13 + 6, 13 + 7])  # 5H-8H
    assert run.ends_for(13 + 8) == (HIGH,)  # 9H, asked first: kept
    longer = run.extended(13 + 8, HIGH)
    assert longer.ends_for(13 + 8) == () and longer.ends_for(13 + 9) == (HIGH,)
    assert longer == read_meld([13 + 4, 13 + 5, 13 + 6, 13 + 7, 13 + 8])


def test_views_sharing_their_players_facts_are_still_each_state_s():
    state, _ = new_game("fast-parts")
    first = player_view(state, 0)
    again = player_view(state, 1)
    assert first.players == again.players
    assert [p.hand_size for p in first.players] == [len(h) for h in state.hands]


def test_a_stream_s_key_is_derived_when_first_drawn_and_the_same():
    lazy = Stream.of("seed", "bot", 1, 7)
    eager = Stream(derive("seed", "bot", 1, 7))
    assert [lazy.below(52) for _ in range(20)] == [eager.below(52) for _ in range(20)]


def test_held_bits_reads_a_row_of_counts_as_the_loop_over_it_would():
    from games.engine.melds import held_bits

    rng = Stream.of("held-bits")
    for _ in range(500):
        row = [rng.below(3) for _ in range(13)]
        assert held_bits(row) == sum(1 << i for i, count in enumerate(row) if count)
