"""GET /games/{id}/hint: in a practice game, the move the server's expert player (the hard
level, seeing only the person's view) would make now, with a reason code; ranked games refuse.

Scenes are built card by card (tests.bots.helpers) and stored as a practice game's snapshot,
so the hint is asked through the API about exactly that situation, and compared with what the
hard bot chooses for the person's view with the chance a bot in that seat would have there.
"""


import pytest

from games import bots
from games.bots import REASON_CODES, REASONS, STRATEGIES, Memory, rng_for
from games.engine import FINISHED, Discard, Draw, GameState, player_view
from games.engine.cards import card_id
from games.engine.state import evolve
from games.models import Game
from games.reads import hints
from games.services import Seated, Seating
from tests.bots.helpers import card, play, scene, turns
from tests.bots.test_hidden_information import hidden_cards_dealt_afresh
from tests.games.helpers import error_of
from tests.games.test_no_leaks import cards_in, known

pytestmark = pytest.mark.django_db

PERSON = 0
EXPERT = STRATEGIES["hard"]
OTHERS = ["2S 3S 4S 5S 6S 8H 8D 10C QC AH", "3H 4H 6H 10H QH 2H 3C 5C 6C 8C",
          "AD 3D 5D 6D 8S 10S JS QS KD KC"]
DIAMOND_RUN = {"8D.1", "9D.1", "10D.1"}


HINTED_GAME_SEED = "hinted-0"


def practice_at(alice, state: GameState) -> Game:
    """A practice game of ``alice`` whose snapshot is ``state``."""
    view = alice.new_game("easy")
    game = Game.objects.get(public_id=view["id"])
    game.state = state.to_json()
    game.save(update_fields=["state"])
    return game


def hint_for(alice, game: Game) -> dict:
    response = alice.get(f"/games/{game.public_id}/hint")
    assert response.status_code == 200, response.content
    return response.json()


def expert_choice(game: Game, state: GameState) -> dict:
    """What the hard bot does in the person's seat: the view, its memory, a seat's rng."""
    view = player_view(state, PERSON)
    return EXPERT(view, Memory.from_view(view), rng_for(game.seed, PERSON, state.actions)).to_json()


def assert_hint_is_the_experts(alice, state: GameState) -> dict:
    game = practice_at(alice, state)
    hint = hint_for(alice, game)
    assert hint["action"] == expert_choice(game, state)
    assert hint["reason"]["message"] == REASONS[hint["reason"]["code"]]
    return hint


def rung_two_with_a_diamond_run_started():
    """Rung 2 (a group of 3 and a run of 4): 8D 9D 10D want a fourth diamond, beside pairs of
    twos and threes and a few loose cards, every one with a neighbour. The old browser guess
    kept cards with neighbours and threw the highest: the 10D, then the 9D, then the 8D."""
    return scene(["8D 9D 10D 2C 2S 3C 3H 4H 5S 6S", *OTHERS], discard="KH",
                 stock="4C JC 9S 7S KS 7H QD 9H JH 2D 4D 7D", climbed=(1, 0, 0, 0))


def completing_scene():
    """Rung 1 (two groups of three): the 9H on the pile makes the second group."""
    return scene(["7H 7S 7D 9C 9S 2D 4C 5H JD KS", *OTHERS], stock="AC AS 4D",
                 discard="6D.2 9H")


def laid_down_scene(discard: str):
    """Seat 0 laid its groups down on an earlier turn; its 7C and 9H fit them."""
    return scene(["7C 9H 3D", *OTHERS], table=[(0, "7H 7S 7D"), (0, "9C 9S 9D")],
                 stock="AC KH", discard=discard, climbed=(1, 0, 0, 0),
                 laid_down_turn=(2, None, None, None))


def opponent_down_scene():
    """Rung 2, a pair of kings beside a lone 9D; seat 3 has laid down, so hard searches."""
    state = scene(["7H 7S 7D 4C 5C 9D KH KS 3S 2D", "JH JS 9H 10D 6S 8S AS AC 2H 2S",
                   "AD 6D 8D 9C 10S JC QC KC 3C 4D", "2C 3H 4H 6H 8H 10H 5S 3D"],
                  table=[(3, "JD QD KD AD.2"), (3, "5D 5H.2 5S.2")], stock="8C 10C JH.2",
                  discard="8C.2", climbed=(1, 0, 0, 1), laid_down_turn=(None, None, None, 2))
    return play(state, (PERSON, Draw("stock")))


# -- the expert's move, and why ---------------------------------------------------------------

def test_on_rung_two_the_hint_never_throws_the_diamonds_of_a_run_in_the_making(alice):
    state = rung_two_with_a_diamond_run_started()
    for _ in range(3):  # three turns: draw, then discard as the hint says
        hint = assert_hint_is_the_experts(alice, state)
        assert hint["action"] == {"type": "draw", "from": "stock"}
        state = play(state, (PERSON, Draw("stock")))
        hint = assert_hint_is_the_experts(alice, state)
        assert hint["action"]["type"] == "discard"
        assert hint["action"]["card"] not in DIAMOND_RUN
        assert hint["reason"]["code"].startswith("discard_")
        state = play(state, (PERSON, Discard(card(hint["action"]["card"]))))
        state = turns(state, (1, "stock", None), (2, "stock", None), (3, "stock", None))
    assert DIAMOND_RUN <= {card_id(c) for c in state.hands[PERSON]}


def test_the_hint_takes_the_discard_that_completes_the_contract_then_lays_it_down(alice):
    state = completing_scene()
    hint = assert_hint_is_the_experts(alice, state)
    assert hint["action"] == {"type": "draw", "from": "discard"}
    assert hint["reason"]["code"] == "take_to_complete_contract"
    assert hint["lay_down"] is None

    state = play(state, (PERSON, Draw("discard")))
    hint = assert_hint_is_the_experts(alice, state)
    assert hint["action"]["type"] == "lay_down"
    assert hint["reason"]["code"] == "lay_down_contract"
    assert hint["lay_down"] == hint["action"]["melds"]
    assert sorted(map(sorted, hint["lay_down"])) == [["7D.1", "7H.1", "7S.1"],
                                                     ["9C.1", "9H.1", "9S.1"]]


def test_the_hint_draws_blind_rather_than_take_a_card_the_contract_cannot_use(alice):
    state = scene(["7H 7S 7D 9C 9S 2D 4C 5H JD KS", *OTHERS], stock="AC", discard="8C")
    hint = assert_hint_is_the_experts(alice, state)
    assert hint["action"] == {"type": "draw", "from": "stock"}
    assert hint["reason"]["code"] == "stock_discard_does_not_help"


def test_the_hint_draws_blind_when_the_discard_helps_less_than_a_stock_draw(alice):
    """The 4D pairs the lone 4C, a second way to the second group: worth less than a draw."""
    state = scene(["7H 7S 7D 9C 9S 2D 4C 5H JD KS", *OTHERS], stock="AC", discard="8C 4D")
    hint = assert_hint_is_the_experts(alice, state)
    assert hint["action"] == {"type": "draw", "from": "stock"}
    assert hint["reason"]["code"] == "stock_discard_helps_too_little"


def test_once_down_the_hint_takes_a_discard_that_fits_the_table_and_lays_it_off(alice):
    state = laid_down_scene(discard="9H.2")
    hint = assert_hint_is_the_experts(alice, state)
    assert hint["action"] == {"type": "draw", "from": "discard"}
    assert hint["reason"]["code"] == "take_to_lay_off"

    state = play(state, (PERSON, Draw("discard")))
    hint = assert_hint_is_the_experts(alice, state)
    assert hint["action"]["type"] == "lay_off"
    assert hint["reason"]["code"] == "lay_off_card"
    offered = {(o["meld"], o["card"], o["end"]) for o in hint["lay_off"]}
    action = hint["action"]
    assert (action["meld"], action["card"], action["end"]) in offered


def test_once_down_the_hint_draws_blind_when_the_discard_fits_nowhere(alice):
    hint = assert_hint_is_the_experts(alice, laid_down_scene(discard="QD"))
    assert hint["action"] == {"type": "draw", "from": "stock"}
    assert hint["reason"]["code"] == "stock_discard_fits_nowhere"


def test_once_an_opponent_is_down_the_hint_is_the_searching_experts_choice(alice):
    hint = assert_hint_is_the_experts(alice, opponent_down_scene())
    assert hint["action"]["type"] == "discard"
    assert hint["reason"]["code"] in REASON_CODES


def test_the_hint_is_the_same_every_time_it_is_asked(alice):
    game = practice_at(alice, opponent_down_scene())
    assert hint_for(alice, game) == hint_for(alice, game)


def test_a_finished_game_has_no_move_to_hint(alice):
    game = practice_at(alice, evolve(completing_scene(), phase=FINISHED))
    hint = hint_for(alice, game)
    assert hint["action"] is None
    assert hint["reason"]["code"] == "game_over"


def test_there_are_no_hints_in_a_ranked_game(alice):
    response = alice.post("/games", {"mode": "daily"})
    assert response.status_code in (200, 201), response.content
    daily = response.json()

    response = alice.get(f"/games/{daily['id']}/hint")

    assert response.status_code == 403
    assert error_of(response)["code"] == "no_hints_in_ranked_games"


def test_an_expert_that_fails_gives_a_clear_503_and_changes_nothing(alice, monkeypatch, caplog):
    game = practice_at(alice, opponent_down_scene())
    before = alice.get(f"/games/{game.public_id}").json()

    def broken(view, rng):
        raise RuntimeError("a bug in the bots")

    monkeypatch.setattr(bots, "advise", broken)
    response = alice.get(f"/games/{game.public_id}/hint")

    assert response.status_code == 503
    assert error_of(response)["code"] == "hint_unavailable"
    assert alice.get(f"/games/{game.public_id}").json() == before
    assert "The expert failed" in caplog.text


# -- a game played by the hints: legal, and blind to hidden cards (R25) -----------------------

def test_a_person_following_the_hints_plays_legally_and_no_hint_depends_on_hidden_cards(
        alice, monkeypatch):
    """Four deals against easy bots, the person doing whatever the hint says: every hinted
    move is accepted; no hint holds a card the person has not seen (the leak test's witness,
    tests/games/test_no_leaks.py); and the hint is the same when every card the person cannot
    see is dealt afresh. A fixed seed: a random one sometimes made four short deals."""
    monkeypatch.setattr("games.services.actions.new_seed", lambda: HINTED_GAME_SEED)
    view = alice.new_game("easy")
    game = Game.objects.get(public_id=view["id"])
    hinted = searched = 0
    while view["status"] != "finished" and view["deal"] <= 4:
        hint = hint_for(alice, game)
        game.refresh_from_db()
        state = game.load_state()
        leaked = cards_in(hint) - known(state)
        assert not leaked, f"hint leaked {leaked} at v{game.version}"
        other = hidden_cards_dealt_afresh(state, PERSON, rng_for("redeal", 0, state.actions))
        blind = Game(mode=game.mode, seed=game.seed, version=game.version,
                     state=other.to_json())
        assert hints.hint(Seated(blind, Seating({}), PERSON)) == hint
        searched += any(p.laid_down for p in player_view(state, PERSON).players)
        response = alice.act(view, hint["action"])
        assert response.status_code == 200, (hint, response.content)
        view = response.json()["game"]
        hinted += 1
    assert hinted > 60
    assert searched > 0  # some hints came from hard's search, not only the expert's plan
