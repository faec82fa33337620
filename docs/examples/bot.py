"""A bot to copy (docs/api.md, "A bot to copy"), on the client openapi-python-client makes
from the API's document, and websockets:

    openapi-python-client generate --url https://HOST/api/v1/openapi.json --meta none \\
        --output-path ladder_client
    python bot.py --server https://HOST                  # a practice game, alone
    python bot.py --server https://HOST --join CODE      # a friends' table's game

It plays naively: a draw from the stock, the first lay-down offered, each lay-off, a discard.
At a table it follows the game's socket frames and reads the game only when a frame says it
is its turn. ``--log FILE`` writes what it sent and every frame it heard, one JSON a line.
"""

import argparse
import json
import re
import time

import httpx
from ladder_client import AuthenticatedClient, Client
from ladder_client.api.games import get_game, post_action, start_game
from ladder_client.api.players import create_player, create_socket_ticket
from ladder_client.api.tables import get_table, join_table
from ladder_client.models import (
    ActionRequest,
    Discard,
    Draw,
    DrawFrom,
    Error,
    GameView,
    Joining,
    NewGame,
    Stale,
)
from websockets.sync.client import connect


class Paced(httpx.BaseTransport):
    """Paces the calls by the answers' ``RateLimit`` field ("Rate limits"): once a window's
    ``r`` is 0 it waits that window's ``t`` seconds; a 429 it waits out and sends again."""

    def __init__(self, inner: httpx.BaseTransport | None = None, sleep=time.sleep):
        self.inner, self.sleep, self.wait = inner or httpx.HTTPTransport(), sleep, 0.0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        while True:
            self.sleep(self.wait)
            answer = self.inner.handle_request(request)
            spent = re.findall(r"r=0;t=(\d+)", answer.headers.get("RateLimit", ""))
            self.wait = max(map(float, spent), default=0.0)
            if answer.status_code != 429:
                return answer
            answer.close()
            self.wait = float(answer.headers.get("Retry-After", 1))

    def close(self) -> None:
        self.inner.close()


class Bot:
    def __init__(self, server: str, log: str | None):
        self.server, self.log = server, open(log, "a") if log else None
        paced = {"transport": Paced()}  # one pace for all its calls
        me = create_player.sync(client=Client(base_url=server, httpx_args=paced))
        self.api = AuthenticatedClient(base_url=server, token=me.token, httpx_args=paced)

    def note(self, **what) -> None:
        if self.log:
            self.log.write(json.dumps({"at": time.time(), **what}) + "\n")
            self.log.flush()

    def socket(self, path: str):
        """A socket opened with a single-use ticket ("Websockets", "Who you are")."""
        ticket = create_socket_ticket.sync(client=self.api).ticket
        return connect(f"{self.server.replace('http', 'ws', 1)}{path}?ticket={ticket}")

    def frames(self, ws, channel: str):
        for message in ws:
            frame = json.loads(message)
            self.note(channel=channel, frame=frame)
            yield frame

    def practice(self) -> GameView:
        view = start_game.sync(client=self.api, body=NewGame())
        return self.move_while_my_turn(view)  # the computer players answer in each answer

    def join(self, code: str, name: str) -> GameView:
        table = join_table.sync(code, client=self.api, body=Joining(name=name))
        with self.socket(f"/ws/tables/{table.id}/") as ws:
            frames = self.frames(ws, "table")
            while True:  # read once the socket is open, then after each frame (news)
                table = get_table.sync(table.id, client=self.api)
                if table.game and table.game.status.value == "active":
                    break
                next(frames)
        with self.socket(f"/ws/games/{table.game.id}/") as ws:
            # Read once the socket is open (what came before is caught up), then only when
            # a frame is news and names this bot's seat as the next to move.
            view = self.move_while_my_turn(get_game.sync(table.game.id, client=self.api))
            for frame in self.frames(ws, "game"):
                if frame["t"] == "game_finished":
                    return get_game.sync(view.id, client=self.api)
                data = frame["data"]
                turn = data.get("turn") if frame["t"] == "discarded" else data.get("first")
                if frame["v"] > view.version and turn == view.you:
                    view = self.move_while_my_turn(get_game.sync(view.id, client=self.api))
        raise RuntimeError("the game's socket closed before the game was over")

    def move_while_my_turn(self, view: GameView) -> GameView:
        self.note(read=view.version)
        while view.status.value == "active" and view.turn == view.you:
            action = next_action(view)
            self.note(sent=view.version, action=action.type_)
            answer = post_action.sync(view.id, client=self.api, body=ActionRequest(
                version=view.version, action=action))
            if isinstance(answer, Error):
                raise RuntimeError(f"refused: {answer.error.code} {answer.error.message}")
            if isinstance(answer, Stale):  # 409: someone moved first; its game is the news
                self.note(error=answer.error.code)
            view = answer.game
        return view


def next_action(view: GameView):
    """The view's ``legal`` offers lay-downs and lay-offs as actions, posted as they are."""
    legal = view.legal
    if legal.draw:
        return Draw(type_="draw",
                    from_=DrawFrom.STOCK if "stock" in legal.draw else DrawFrom.DISCARD)
    if legal.lay_downs:
        return legal.lay_downs[0]
    if legal.lay_off:
        return legal.lay_off[0]
    return Discard(type_="discard", card=legal.discard[0])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--join", metavar="CODE", help="a friends' table's code")
    parser.add_argument("--name", default="Copied Bot", help="its name at the table")
    parser.add_argument("--log", help="a file for what it sent and heard (JSON lines)")
    args = parser.parse_args()
    bot = Bot(args.server, args.log)
    view = bot.join(args.join, args.name) if args.join else bot.practice()
    place = next(seat.place for seat in view.result if seat.seat == view.you)
    print(f"game {view.id} over at version {view.version}: place {place}", flush=True)
