"""A simple person who plays a whole game through games.services (no HTTP, no hints): draw
from the stock, lay the contract down when the hand holds it, lay off what fits, discard the
costliest card allowed. Daily games allow no hints, so it asks the engine directly."""

from __future__ import annotations

from games import services
from games.engine import PLAY, best_lay_down, player_view
from games.engine.cards import card_id, penalty_of
from games.models import SOLO_SEAT, Game


def next_action(game: Game) -> dict:
    view = player_view(game.load_state(), SOLO_SEAT)
    legal = view.legal
    if view.phase != PLAY:
        return {"type": "draw", "from": "stock"}
    if legal.lay_down:
        found = best_lay_down(view.hand, view.me.contract, view.situation.forbidden_face)
        if found is not None:
            melds, _rest = found
            return {"type": "lay_down",
                    "melds": [[card_id(c) for c in meld.cards] for meld in melds]}
    if legal.lay_offs:
        meld, card, end = legal.lay_offs[0]
        return {"type": "lay_off", "meld": meld, "card": card_id(card), "end": end}
    card = max(legal.discards, key=lambda c: (penalty_of(c), c))
    return {"type": "discard", "card": card_id(card)}


def play_to_the_end(game: Game, max_actions: int = 3000) -> Game:
    """Plays the person's side of ``game`` until it is finished; returns the game."""
    for _ in range(max_actions):
        if game.status != Game.ACTIVE:
            return game
        game = services.act(game.public_id, game.owner, game.version, next_action(game)).game
    raise AssertionError(f"{game} not finished after {max_actions} actions")
