"""The pages. Each renders a shell; the game data comes from the API (frontend/README.md).

Pages set the CSRF cookie (``ensure_csrf_cookie``) so that the scripts' first write to the
API carries ``X-CSRFToken``. The rules page is rendered here, on the server, from the same
contract table the engine uses (``games.engine.contracts.LADDER``).
"""

import json
from datetime import date, timedelta
from pathlib import Path

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie

from frontend.not_found import GAME, PLAYER, not_found
from frontend.review import GLYPHS, summary_lines
from frontend.table_pages import BOUNDS as TABLE_BOUNDS
from frontend.table_pages import table_of_browser
from games import daily as daily_clock
from games.bots import LEVELS
from games.engine import card_json, cards_from_text, contract_for, read_meld
from games.engine.cards import RANKS
from games.engine.contracts import LADDER, Contract, Requirement
from games.engine.state import DEALS, HAND_SIZE
from games.models import Game
from games.players.identity import COOKIE_NAME, player_from_cookie
from games.players.models import Player
from games.players.names import NAME_MAX_CHARS, NAME_MIN_CHARS
from games.players.schemas import CODE_TEXT_MAX_CHARS
from games.players.services import PASSWORD_MAX_CHARS, USERNAME_MAX_CHARS, USERNAME_MIN_CHARS
from games.reads import replays

# What a deal is like, measured: bot-only games at the daily's level, written by hand from the
# output of the command the file names (rerun it after a change to the rules or the bots).
PLAY_FIGURES = json.loads((Path(__file__).parent / "play_figures.json").read_text())


def describe_requirement(requirement: Requirement) -> str:
    """'a group of 3' / 'a run of 4', translated."""
    if requirement.kind == "group":
        return _("a group of %(n)d") % {"n": requirement.min_cards}
    return _("a run of %(n)d") % {"n": requirement.min_cards}


def describe_contract(contract: Contract) -> str:
    """'two groups of 3 and one run of 4', translated (the engine's describe() is English)."""
    counts: dict[Requirement, int] = {}
    for r in contract.requirements:
        counts[r] = counts.get(r, 0) + 1
    words = {
        ("group", 1): _("one group of %(size)d"), ("group", 2): _("two groups of %(size)d"),
        ("group", 3): _("three groups of %(size)d"), ("run", 1): _("one run of %(size)d"),
        ("run", 2): _("two runs of %(size)d"), ("run", 3): _("three runs of %(size)d"),
    }
    parts = [words[r.kind, n] % {"size": r.min_cards} for r, n in counts.items()]
    return _(" and ").join(parts)


def card_label(rank: str, suit: str | None) -> str:
    """'seven of hearts', translated (the same words the table's scripts use)."""
    ranks = {"A": _("ace"), "2": _("two"), "3": _("three"), "4": _("four"), "5": _("five"),
             "6": _("six"), "7": _("seven"), "8": _("eight"), "9": _("nine"), "10": _("ten"),
             "J": _("jack"), "Q": _("queen"), "K": _("king")}
    if suit is None:
        return ranks[rank]
    suits = {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}
    return _("%(rank)s of %(suit)s") % {"rank": ranks[rank], "suit": suits[suit]}


def _example(text: str) -> dict:
    """An example meld for the rules page: its cards as the table shows them."""
    meld = read_meld(cards_from_text(text))
    shown = []
    for i, card in enumerate(meld.cards):
        data = card_json(card)
        if data.get("joker"):
            rank, suit = meld.stands_for(i)
            as_rank = RANKS[(rank - 1) % 13]
            as_suit = "SHDC"[suit] if suit >= 0 else None
            data["as_rank"] = as_rank + (GLYPHS[as_suit] if as_suit else "")
            data["label"] = _("joker as %(card)s") % {"card": card_label(as_rank, as_suit)}
        else:
            data["glyph"] = GLYPHS[data["suit"]]
            data["label"] = card_label(data["rank"], data["suit"])
        shown.append(data)
    return {"kind": meld.kind, "cards": shown}


def api_has(path: str) -> bool:
    """Whether the API serves ``path`` yet (the daily and the leaderboards land separately):
    pages show those parts only when their endpoints exist."""
    try:
        resolve(path)
    except Resolver404:
        return False
    return True


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/home.html", {
        "levels": LEVELS, "page": "home", "daily_api": api_has("/api/v1/daily"),
        "table_bounds": TABLE_BOUNDS,
        # A returning browser: the line that will name its player is kept while it loads.
        "player_cookie": COOKIE_NAME in request.COOKIES})


def is_players_game(request: HttpRequest, game_id: str) -> bool:
    """Whether this browser's player sits at the game ``game_id`` (and has not left it): the
    API shows a game only to the people at it, and says nothing of anyone else's (404 either
    way)."""
    player = player_from_cookie(request.COOKIES.get(COOKIE_NAME))
    return player is not None and Game.objects.filter(
        public_id=game_id, seats__player=player, seats__left_at__isnull=True).exists()


@ensure_csrf_cookie
def table(request: HttpRequest, game_id: str) -> HttpResponse:
    if not is_players_game(request, game_id):
        return not_found(request, "table", GAME)
    ladder = {c.rung: describe_contract(c) for c in LADDER}
    # A table for friends' latest game: the page also hears the table (reactions, play again).
    at_table = table_of_browser(request, game__public_id=game_id)
    return render(request, "frontend/table.html",
                  {"game_id": game_id, "ladder": ladder, "page": "table",
                   "table_id": at_table.public_id if at_table else ""})


@ensure_csrf_cookie
def my_games(request: HttpRequest) -> HttpResponse:
    """Every game of this browser's player, newest first, read from GET /api/v1/games."""
    return render(request, "frontend/games.html", {"page": "games"})


def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    """A game that is over, move by move (games.reads.replays says who may watch it; the
    page asks for no more than the API would answer). Its owner, whose replay is not open
    yet, is told when it opens; anyone else finds no game here (404 either way)."""
    game = Game.objects.select_related("daily").defer("state").filter(public_id=game_id).first()
    viewer = player_from_cookie(request.COOKIES.get(COOKIE_NAME))
    if game is None or not replays.is_open_to(game, viewer):
        if game is not None and replays.sits_at(game, viewer):
            why = {Game.ACTIVE: "playing", Game.EXPIRED: "expired"}.get(game.status, "day")
            return render(request, "frontend/replay_closed.html",
                          {"page": "replay", "game_id": game_id, "why": why}, status=404)
        return not_found(request, "replay", GAME)
    review = replays.analysis_for(game, viewer)
    return render(request, "frontend/replay.html", {
        "game_id": game_id, "page": "replay", "review": review,
        "review_lines": review and summary_lines(review),
        "ladder": {c.rung: describe_contract(c) for c in LADDER},
        "contracts": {c.rung: c.to_json() for c in LADDER}})


@ensure_csrf_cookie
def daily(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/daily.html", {
        "page": "daily", "daily_api": api_has("/api/v1/daily"),
        "board_api": api_has("/api/v1/leaderboards/daily/2026-01-01")})


@ensure_csrf_cookie
def leaderboard(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/leaderboard.html", {
        "page": "leaderboard",
        "board_api": api_has("/api/v1/leaderboards/daily/2026-01-01")})


def daily_day(request: HttpRequest, day: str) -> HttpResponse:
    """A day's page: its commitment, and once the day is over its seed and the button that
    re-deals it in the browser (js/daily/verify.js). The data comes from the API, which says
    nothing of a running day but its commitment."""
    try:
        when = date.fromisoformat(day)
    except ValueError:
        raise Http404("no such day") from None
    return render(request, "frontend/daily_day.html", {"page": "daily", "day": when})


def player(request: HttpRequest, player_id: str) -> HttpResponse:
    """A player's public page: daily history, streaks and charts, from
    GET /api/v1/leaderboards/players/{id}. A banned or unknown player is a 404 here as there."""
    if not Player.objects.filter(public_id=player_id, banned_at__isnull=True).exists():
        return not_found(request, "leaderboard", PLAYER)
    return render(request, "frontend/player.html",
                  {"page": "leaderboard", "player_id": player_id})


# The profile's fields hold what the API accepts (games.schemas), no more.
PROFILE_BOUNDS = {"name": (NAME_MIN_CHARS, NAME_MAX_CHARS),
                  "username": (USERNAME_MIN_CHARS, USERNAME_MAX_CHARS),
                  "password": PASSWORD_MAX_CHARS, "code": CODE_TEXT_MAX_CHARS}


@ensure_csrf_cookie
def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/profile.html", {"page": "profile", "bounds": PROFILE_BOUNDS})


def rules(request: HttpRequest) -> HttpResponse:
    ladder = [{"rung": c.rung, "description": describe_contract(c), "min_cards": c.min_cards,
               "requirements": [describe_requirement(r) for r in c.requirements]}
              for c in LADDER]
    examples = {
        "group": _example("7H 7S 7H 7D"),
        "group_joker": _example("QC QD JK"),
        "run": _example("4C 5C 6C 7C 8C"),
        "run_joker": _example("9H JK JH QH"),
        "run_ace": _example("JS QS KS AS"),
    }
    figures = PLAY_FIGURES
    laid_down = [{"rung": c.rung, "description": describe_contract(c),
                  "deals": figures["players_on_rung"][str(c.rung)],
                  "percent": figures["laid_down_by_rung"][str(c.rung)]} for c in LADDER]
    return render(request, "frontend/rules.html", {
        "ladder": ladder, "examples": examples, "deals": DEALS, "hand_size": HAND_SIZE,
        "figures": figures, "laid_down": laid_down,
        "own_turns_per_deal": round(figures["turns_per_deal"] / 4),
        "turns_per_deal": round(figures["turns_per_deal"]),
        "first_contract": describe_contract(contract_for(1)), "page": "rules"})


# The fairness page links the latest revealed days' pages, where the check runs.
FAIRNESS_DAYS_LINKED = 7


def about(request: HttpRequest) -> HttpResponse:
    today = daily_clock.today()
    revealed = [today - timedelta(days=n) for n in range(1, FAIRNESS_DAYS_LINKED + 1)]
    return render(request, "frontend/about.html", {"page": "about", "revealed_days": revealed})
