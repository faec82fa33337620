"""Possible worlds: full game states consistent with everything one seat knows (R25).

The hard player cannot see the other hands or the stock, so it imagines them: it deals the
cards it has not seen at random among the other hands (each to its known size) and the stock,
after giving each opponent the cards it was seen taking from the pile and still holds. The
rest of the state (table, discard pile, rungs, penalties, whose turn) is public and copied.
"""

from __future__ import annotations

from games.engine.rng import Stream
from games.engine.state import GameState
from games.engine.view import PlayerView

from .memory import Memory
from .tactics import fits, table_melds


def sample_world(view: PlayerView, memory: Memory, rng: Stream) -> GameState:
    """One world drawn at random from those consistent with ``view`` and ``memory``.

    One more thing is known of a player who has laid down: it lays off whatever it can (R15),
    so the cards it still holds fit nowhere on the table. Such players are dealt first, from
    the unknown cards that fit nowhere; the other hands and the stock share the rest."""
    known = set().union(*(memory.held[s] for s in range(len(view.players)) if s != view.seat))
    unknown = rng.shuffle([c for c in memory.unseen if c not in known])
    table = table_melds(view)
    hands: list[tuple[int, ...]] = [()] * len(view.players)
    hands[view.seat] = view.hand
    for _, seat in sorted((not p.laid_down, p.seat) for p in view.players if p.seat != view.seat):
        info = view.players[seat]
        held = tuple(sorted(memory.held[seat]))
        dealt = info.hand_size - len(held)
        chosen = unknown[:dealt]
        if info.laid_down:
            stuck = [c for c in unknown if not fits(c, table)]
            if len(stuck) >= dealt:
                chosen = stuck[:dealt]
        hands[seat] = held + tuple(chosen)
        taken = set(chosen)
        unknown = [c for c in unknown if c not in taken]
    return GameState(
        # Reshuffles inside an imagined world (R20) draw from a seed of its own.
        seed=f"world-{rng.below(2**32)}", deal=view.deal, dealer=view.dealer, turn=view.turn,
        phase=view.phase, hands=tuple(hands), stock=tuple(unknown[:view.stock_size]),
        discard_pile=memory.pile, table=view.table,
        climbed=tuple(p.climbed for p in view.players),
        # Others laid down on an earlier turn, so they may lay off from their next one (R15).
        laid_down_turn=tuple(view.laid_down_turn if p.seat == view.seat else
                             (0 if p.laid_down else None) for p in view.players),
        penalties=tuple(p.penalty for p in view.players), turn_number=view.turn_number,
        taken_from_discard=view.taken_from_discard, rebuilds=view.rebuilds,
        pile_log=view.pile_log, history=view.history)
