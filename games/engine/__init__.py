"""The rules of Ladder Rummy (docs/rules.md): pure Python, standard library only.

A game is (engine version, seed, actions). ``new_game`` deals it, ``apply`` plays one action,
``player_view`` is what one seat may see, ``replay`` rebuilds any state from the log.
"""

# The compiled build, when there is an up-to-date one (games/engine/compiled.py), is found first.
from .compiled import compiled_folder

__path__[:0] = compiled_folder(__name__)

from .actions import DISCARD_PILE, STOCK, Action, Discard, Draw, LayDown, LayOff, action_from_json
from .cards import card_id, card_json, cards_from_text, parse_card
from .contracts import LADDER, Contract, contract_for
from .errors import IllegalAction
from .events import Event
from .legal import Legal, Situation, legal
from .melds import Meld, best_lay_down, holds_contract, lay_off_options, read_meld
from .rules import apply, new_game, places, replay, result_json, situation
from .state import DRAW, ENGINE_VERSION, FINISHED, PLAY, SEATS, GameState, TableMeld
from .view import PlayerInfo, PlayerView, player_view

__all__ = [
    "DISCARD_PILE", "DRAW", "ENGINE_VERSION", "FINISHED", "LADDER", "PLAY", "SEATS", "STOCK",
    "Action", "Contract", "Discard", "Draw", "Event", "GameState", "IllegalAction", "LayDown",
    "LayOff", "Legal", "Meld", "PlayerInfo", "PlayerView", "Situation", "TableMeld",
    "action_from_json", "apply", "best_lay_down", "card_id", "card_json", "cards_from_text",
    "contract_for", "holds_contract", "lay_off_options", "legal", "new_game", "parse_card",
    "places", "player_view", "read_meld", "replay", "result_json", "situation",
]
