"""The memory a bot rebuilds from its view, and the worlds hard imagines from it, agree with
the real game at every decision of seeded games (R25: using only what the seat could know)."""

import pytest

from games.bots import STRATEGIES, Memory, clear_memo, rng_for
from games.bots.determinize import sample_world
from games.engine import FINISHED, Discard, Draw, apply, new_game, player_view
from games.engine.cards import PACK
from games.engine.rng import Stream

from .helpers import card, play, scene

# The second game's slow deals (two random players) rebuild the stock twice (R20).
LINEUPS = [(("normal", "easy", "random", "normal"), 0), (("random", "easy", "random", "normal"), 2)]


def decision_points(seed, lineup):
    """(state, view, memory) at every decision of a whole game played by ``lineup``."""
    state, _ = new_game(seed)
    while state.phase != FINISHED:
        seat = state.turn
        view = player_view(state, seat)
        memory = Memory.from_view(view)
        yield state, view, memory
        action = STRATEGIES[lineup[seat]](view, memory, rng_for(seed, seat, state.actions))
        state, _ = apply(state, seat, action)


@pytest.mark.parametrize(("lineup", "most_rebuilds"), LINEUPS)
def test_memory_matches_the_real_game_at_every_decision(lineup, most_rebuilds):
    rebuilds = 0
    for state, view, memory in decision_points(f"memory-{lineup[0]}", lineup):
        rebuilds = max(rebuilds, state.rebuilds)
        seat = view.seat
        assert memory.pile == state.discard_pile
        for other in range(4):
            assert memory.held[other] <= set(state.hands[other])
        seen = set(view.hand) | set(state.discard_pile)
        seen |= {c for t in state.table for c in t.meld.cards}
        assert set(memory.unseen) == set(PACK) - seen
        known_elsewhere = sum(len(memory.held[s]) for s in range(4) if s != seat)
        assert sum(memory.live) == len(memory.unseen) - known_elsewhere
    assert rebuilds == most_rebuilds


@pytest.mark.parametrize(("lineup", "most_rebuilds"), LINEUPS)
def test_a_memory_built_afresh_is_the_memory_built_on_the_memo(lineup, most_rebuilds):
    # A request's first decision replays the whole pile log at once (the server clears the
    # memo between requests); each later one extends the replay memoised a move before. Here
    # every decision's memory is built on the memo, then again afresh (which leaves the memo
    # holding this log, for the next decision to extend): both must be the same memory,
    # through the stock's rebuilds too (the second lineup's game has two).
    rebuilds = decisions = 0
    for state, view, memory in decision_points(f"memory-{lineup[0]}", lineup):
        rebuilds = max(rebuilds, state.rebuilds)
        decisions += 1
        assert memory.pile is not None  # replayed now, on the memo the decisions before left
        clear_memo()
        assert Memory.from_view(view) == memory
    assert decisions > 100
    assert rebuilds == most_rebuilds


def test_every_imagined_world_shows_the_seat_exactly_what_it_sees():
    checked = 0
    for index, (state, view, memory) in enumerate(
            decision_points("worlds", ("normal", "easy", "normal", "random"))):
        if index % 7:
            continue  # a sample of decisions keeps the test quick
        world = sample_world(view, memory, Stream.of("worlds", index))
        assert player_view(world, view.seat) == view
        assert len(world.stock) == len(state.stock)
        everywhere = [c for h in world.hands for c in h] + list(world.stock)
        everywhere += list(world.discard_pile) + [c for t in world.table for c in t.meld.cards]
        assert sorted(everywhere) == list(PACK)
        for other in range(4):
            assert memory.held[other] <= set(world.hands[other])
        checked += 1
    assert checked > 50


def test_it_remembers_who_took_what_from_the_pile_and_still_holds_it():
    state = scene(["2S 3S 9D 9H 4C 5C 6C 8D 10D QS", "7S 7D 2H 3H 4H KD KC 5S 6S JD",
                   "AS AD 2D 3D 4D 5D 6D 8H 9C 10C", "JH QH KH AH 2C.2 3C 4S 8S 9S 10S"],
                  stock="AC QC JC 10H 9H.2 8C 7C 6H 5H 4H.2", discard="KS", turn=3)
    # Seat 3 passes; seat 0 throws the 9H, which seat 1 takes, then throws the 2H.
    state = play(state, (3, Draw("stock")), (3, Discard(card("2C.2"))),
                 (0, Draw("stock")), (0, Discard(card("9H"))),
                 (1, Draw("discard")), (1, Discard(card("2H"))))
    memory = Memory.from_view(player_view(state, 2))
    assert memory.held[1] == {card("9H")}
    assert memory.took[1] == (card("9H"),)
    assert memory.discarded[1] == (card("2H"),)
    assert card("KS") in memory.passed[3]  # the upcard, left on the pile by seat 3
    assert memory.pile == (card("KS"), card("2C.2"), card("2H"))
    # Seat 2 has not seen either 9H in a hand of its own, but one is known to be seat 1's.
    assert card("9H") in memory.unseen and card("9H.2") in memory.unseen
    assert memory.live[card("9H") % 52] == 1
