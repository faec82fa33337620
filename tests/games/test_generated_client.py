"""A third-party client generated from the published document (docs/api.md, "Generate a
client"): openapi-python-client takes /api/v1/openapi.json with no error and no warning, and
the client it makes plays a whole practice game and reads its replay with its own models and
functions alone, through httpx's WSGI transport to the application. Every answer on the way,
and those of the daily, the boards and a league, holds to the document (jsonschema)."""

import importlib
import json
import sys
from collections import Counter

import httpx
import pytest
from django.core.wsgi import get_wsgi_application
from django.test import Client as DjangoClient
from jsonschema import Draft202012Validator

from ladder import settings as default_settings
from tests.clients import PACKAGE, generate_python_client
from tests.factories import DAY
from tests.leaderboards.factories import finished_daily, player

pytestmark = [pytest.mark.slow, pytest.mark.django_db,
              pytest.mark.usefixtures("wsgi_inside_the_test_transaction", "clock")]

RANKS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}


@pytest.fixture(scope="module")
def document() -> dict:
    response = DjangoClient().get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


@pytest.fixture(scope="module")
def generated(tmp_path_factory, document):
    """The generator's output and the client it made, in a temporary folder (never kept)."""
    folder = tmp_path_factory.mktemp("generated")
    run = generate_python_client(document, folder)
    sys.path.insert(0, str(folder))
    try:
        yield run, importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_the_generator_takes_the_document_without_an_error_or_a_warning(generated):
    run, _ = generated
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    assert "warning" not in said.lower() and "error" not in said.lower(), said


class Answers:
    """Holds every answer to the document: its status must be listed for the operation and its
    body must validate against that status's schema."""

    def __init__(self, document: dict):
        self.document = document
        self.checked = Counter()

    def __call__(self, method: str, path: str, response, status: int = 200):
        assert response.status_code == status, response.content[:500]
        operation = self.document["paths"][f"/api/v1{path}"][method]
        answer = operation["responses"][str(status)]
        if "content" in answer:
            schema = answer["content"]["application/json"]["schema"]
            Draft202012Validator(
                {**schema, "components": self.document["components"]},
                format_checker=Draft202012Validator.FORMAT_CHECKER,
            ).validate(json.loads(response.content))
        self.checked[f"{method.upper()} {path}"] += 1
        return response.parsed


def client_of(package, token: str | None = None):
    transport = httpx.WSGITransport(app=get_wsgi_application())
    if token is None:
        return package.Client(base_url="http://testserver", httpx_args={"transport": transport})
    return package.AuthenticatedClient(base_url="http://testserver", token=token,
                                       httpx_args={"transport": transport})


def new_player(package, answers: Answers):
    from ladder_client.api.players import create_player

    made = answers("post", "/players", create_player.sync_detailed(client=client_of(package)),
                   201)
    return client_of(package, made.token)


def turn(models, view, sent: Counter):
    """One action for the person: the view's first lay-down when it offers one, else a
    lay-off, else a discard of the rank sent least so far (so the game sends every rank)."""
    legal = view.legal
    if view.phase.value == "draw":
        return models.Draw(type_="draw", from_=models.DrawFrom.STOCK)
    if legal.lay_downs:
        return legal.lay_downs[0]
    if legal.lay_off:
        option = legal.lay_off[0]
        return models.LayOff(type_="lay_off", meld=option.meld, card=option.card,
                             end=models.LayOffEndType0(option.end.value))
    return models.Discard(type_="discard", card=min(legal.discard,
                                                    key=lambda c: sent[rank_of(c)]))


def rank_of(card: str) -> str:
    face = card.split(".")[0]  # "10S", "JK"
    return face if face == "JK" else face[:-1]


def cards_of(action) -> list[str]:
    melds = getattr(action, "melds", None)
    return [c for m in melds for c in m] if melds else [getattr(action, "card", None)]


def play_practice_game(package, client, answers: Answers,
                       paced: bool = False) -> tuple[str, Counter, int]:
    from ladder_client import models
    from ladder_client.api.games import get_deal_log, get_game, post_action, start_game

    view = answers("post", "/games", start_game.sync_detailed(
        client=client, body=models.NewGame(mode=models.NewGameMode.PRACTICE,
                                           level=models.NewGameLevel.EASY)), 201)
    sent, lay_downs, acted = Counter(), 0, 0
    while view.status.value == "active":
        action = turn(models, view, sent)
        if isinstance(action, models.LayDown):
            lay_downs += 1
        for card in cards_of(action):
            if card is not None:
                sent[rank_of(card)] += 1
        path = "/games/{game_id}/actions"
        response = post_action.sync_detailed(
            view.id, client=client, body=models.ActionRequest(version=view.version,
                                                              action=action))
        result = answers("post", path, response)
        acted += 1
        if paced:  # the limit's state, as the draft's fields say it (docs/api.md)
            assert response.headers["RateLimit-Policy"] == '"actions";q=600;w=60'
            assert response.headers["RateLimit"] == f'"actions";r={600 - acted};t=59'
        # Each event parsed into its own named model (DrewEvent, DiscardedEvent...).
        assert result.events and all(type(e).__name__ == f"{type(e.data).__name__[:-4]}Event"
                                     for e in result.events)
        view = result.game
        if view.version % 40 == 0:  # the reads a page makes, now and then
            answers("get", "/games/{game_id}", get_game.sync_detailed(view.id, client=client))
            answers("get", "/games/{game_id}/events",
                    get_deal_log.sync_detailed(view.id, client=client))
    assert view.status.value == "finished"
    return view.id, sent, lay_downs


def test_a_generated_client_plays_a_whole_game_and_reads_its_replay(
        generated, document, settings, throttle_clock):
    """Under the default limits, as fast as the server answers: every action falls in one
    window (the throttles' clock stands 1 s into a minute), and none meets a 429."""
    _, package = generated
    from ladder_client.api.games import get_own_replay
    from ladder_client.api.replays import get_open_replay

    settings.THROTTLE_RATES = dict(default_settings.THROTTLE_RATES)
    answers = Answers(document)
    client = new_player(package, answers)
    game_id, sent, lay_downs = play_practice_game(package, client, answers, paced=True)
    assert lay_downs >= 1  # from the view's own arrangements
    assert set(sent) >= RANKS  # every rank, tens included

    response = get_own_replay.sync_detailed(game_id, client=client)
    replay = answers("get", "/games/{game_id}/replay", response)
    sent_back, raw = replay.to_dict(), json.loads(response.content)
    for part in ("events", "actions", "deals", "players", "result"):  # they round-trip
        assert sent_back[part] == raw[part], part
    typed_replay_events(package, replay)
    dealt = [e for e in replay.events if e.t == "deal_started"]
    assert len(dealt) == len(replay.deals) and all(len(e.private) == 4 for e in dealt)
    assert replay.actions[-1].index == replay.version - 1
    opened = answers("get", "/replays/{game_id}",
                     get_open_replay.sync_detailed(game_id, client=client))
    assert opened.to_dict() == replay.to_dict()


def typed_replay_events(package, replay) -> Counter:
    """Each event of ``replay`` parsed into its own named model (OpenDrewEvent, its ``data`` a
    DrewData, its private part a DrewPrivatePart holding the card): the count by model."""
    models = package.models
    by_model = Counter()
    for event in replay.events:
        assert type(event).__name__ == f"Open{type(event.data).__name__[:-4]}Event", event
        by_model[type(event).__name__] += 1
        for part in getattr(event, "private", None) or []:  # UNSET is false
            assert type(part).__name__ == f"{type(event.data).__name__[:-4]}PrivatePart"
            if isinstance(part, models.DealStartedPrivatePart):
                assert all(isinstance(card, models.Card) for card in part.data.hand)
            else:
                assert isinstance(part.data.card, models.Card)
        by_model["bot"] += getattr(event, "bot", None) is True  # on a seat's own moves
    return by_model


def test_a_generated_client_reads_a_tables_replay_a_person_left(generated, document):
    """Ben left Ana's table's game at once; Ana played it to its end (the computer playing
    his seat). His replay, read with the generated client, is typed event by event, the
    computer's moves for him marked."""
    _, package = generated
    from ladder_client import models
    from ladder_client.api.games import get_game, get_own_replay, post_action
    from ladder_client.api.tables import join_table, leave_table, open_table, start_table_game

    answers = Answers(document)
    ana, ben = new_player(package, answers), new_player(package, answers)
    table = answers("post", "/tables", open_table.sync_detailed(client=ana, body=models.NewTable(
        name="Friday cards", level=models.NewTableLevel.EASY, turn_seconds=None)), 201)
    answers("post", "/tables/join/{code}", join_table.sync_detailed(table.code, client=ben),
            201)
    view = answers("post", "/tables/{table_id}/start",
                   start_table_game.sync_detailed(table.id, client=ana), 201).game
    answers("post", "/tables/{table_id}/leave", leave_table.sync_detailed(table.id, client=ben),
            204)
    # If Ben was to move, the computer has played his turn (and the bots after it): read again.
    view = answers("get", "/games/{game_id}", get_game.sync_detailed(view.id, client=ana))
    sent = Counter()
    while view.status.value == "active":  # Ana's turns; the computer plays the others'
        view = answers("post", "/games/{game_id}/actions", post_action.sync_detailed(
            view.id, client=ana, body=models.ActionRequest(
                version=view.version, action=turn(models, view, sent)))).game

    response = get_own_replay.sync_detailed(view.id, client=ben)
    replay = answers("get", "/games/{game_id}/replay", response)
    assert replay.to_dict()["events"] == json.loads(response.content)["events"]
    assert replay.seat == 1 and replay.players[1].left is not None
    by_model = typed_replay_events(package, replay)
    assert by_model["bot"] > 0 and by_model["OpenGameFinishedEvent"] == 1


def test_the_daily_the_boards_and_a_league_hold_to_the_document(generated, document):
    _, package = generated
    from ladder_client import models
    from ladder_client.api.daily import get_daily, get_daily_of
    from ladder_client.api.games import post_action, start_game
    from ladder_client.api.leaderboards import todays_board, week_board_of
    from ladder_client.api.leagues import (
        create_league,
        get_league,
        join_league,
        list_leagues,
        preview_league,
        todays_standings,
    )

    answers = Answers(document)
    finished_daily(player("Ann")[0], DAY, 6, 120)
    ana, ben = new_player(package, answers), new_player(package, answers)

    daily = answers("post", "/games", start_game.sync_detailed(
        client=ana, body=models.NewGame(mode=models.NewGameMode.DAILY)), 201)
    view, sent = daily, Counter()
    for _ in range(12):  # a few turns of the daily: the same view, lay-downs and all
        result = answers("post", "/games/{game_id}/actions", post_action.sync_detailed(
            view.id, client=ana, body=models.ActionRequest(
                version=view.version, action=turn(models, view, sent))))
        view = result.game
    answers("get", "/daily", get_daily.sync_detailed(client=ana))
    answers("get", "/daily/{day}", get_daily_of.sync_detailed(DAY, client=ben))

    board = answers("get", "/leaderboards/daily", todays_board.sync_detailed(client=ana))
    assert board.count == 1
    answers("get", "/leaderboards/week/{week}",
            week_board_of.sync_detailed("2030-W10", client=ana))

    league = answers("post", "/leagues", create_league.sync_detailed(
        client=ana, body=models.NewLeague(name="Thursday club")), 201)
    answers("get", "/leagues/join/{code}", preview_league.sync_detailed(league.code, client=ben))
    answers("post", "/leagues/join/{code}", join_league.sync_detailed(league.code, client=ben),
            201)
    page = answers("get", "/leagues/{league_id}", get_league.sync_detailed(league.id, client=ben))
    assert len(page.members) == 2
    answers("get", "/leagues", list_leagues.sync_detailed(client=ben))
    answers("get", "/leagues/today", todays_standings.sync_detailed(client=ben))
