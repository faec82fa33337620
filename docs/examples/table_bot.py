"""A bot to copy (docs/api.md, "A bot to copy"): it sits at a table for friends and plays a
whole game there on the game's socket frames alone, with httpx and websockets.

    python table_bot.py --server https://HOST                # open a table, print its code
    python table_bot.py --server https://HOST --join CODE    # sit down at it

The host starts the game once ``--people`` people sit at the table; both then play a naive
game (draw from the stock, lay down the first lay-down offered, lay off, discard) until the
game is over. ``--log FILE`` writes what it sent and every frame it heard, one JSON a line.
"""

import argparse
import asyncio
import json
import time

import httpx
from websockets.asyncio.client import connect


class Api:
    """The API, pacing itself by the answers' ``RateLimit`` fields, and waiting out a 429."""

    def __init__(self, server: str):
        self.http = httpx.AsyncClient(base_url=f"{server}/api/v1", timeout=30)
        self.wait = 0.0  # seconds to wait before the next call: a window that is used up
        self.throttled = lambda answer: None  # told of each 429

    async def call(self, method: str, path: str, body=None) -> httpx.Response:
        while True:
            await asyncio.sleep(self.wait)
            answer = await self.http.request(method, path, json=body)
            # RateLimit: "actions";r=597;t=42 -- once r is 0, wait t seconds.
            self.wait = 0.0
            for item in filter(None, answer.headers.get("RateLimit", "").split(",")):
                fields = dict(p.split("=") for p in item.split(";")[1:])
                if fields.get("r") == "0":
                    self.wait = max(self.wait, float(fields.get("t", 1)))
            if answer.status_code != 429:
                return answer
            self.throttled(answer)
            self.wait = float(answer.headers.get("Retry-After", 1))

    async def json(self, method: str, path: str, body=None, ok=(200, 201)) -> dict:
        answer = await self.call(method, path, body)
        if answer.status_code not in ok:
            raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.text}")
        return answer.json()


def next_action(legal: dict) -> dict:
    """A legal move from the view's ``legal``: its lay-downs and lay-offs are actions already."""
    if legal["draw"]:
        return {"type": "draw", "from": "stock" if "stock" in legal["draw"] else "discard"}
    if legal["lay_downs"]:
        return legal["lay_downs"][0]
    if legal["lay_off"]:
        return legal["lay_off"][0]
    return {"type": "discard", "card": legal["discard"][0]}


class Bot:
    def __init__(self, args):
        self.args, self.api = args, Api(args.server)
        self.ws_base = args.server.replace("http", "ws", 1)  # https:// -> wss://
        self.log = open(args.log, "a") if args.log else None
        self.api.throttled = lambda answer: self.note(throttled=str(answer.url))

    def note(self, **what) -> None:
        if self.log:
            self.log.write(json.dumps({"at": time.time(), **what}) + "\n")
            self.log.flush()

    async def socket(self, path: str):
        """A socket opened with the bearer token in a header, or with a single-use ticket
        (what a browser's page must use: it cannot set a header)."""
        if self.args.ticket:
            ticket = await self.api.json("POST", "/socket-tickets")
            return connect(f"{self.ws_base}{path}?ticket={ticket['ticket']}")
        header = {"Authorization": self.api.http.headers["Authorization"]}
        return connect(f"{self.ws_base}{path}", additional_headers=header)

    async def frames(self, ws, channel: str):
        async for message in ws:
            frame = json.loads(message)
            self.note(channel=channel, frame=frame)
            yield frame

    async def run(self) -> None:
        me = await self.api.json("POST", "/players")
        self.api.http.headers["Authorization"] = f"Bearer {me['token']}"
        if self.args.join:
            table = await self.api.json("POST", f"/tables/join/{self.args.join}",
                                        {"name": self.args.name})
        else:  # no timer: bots need no clock, and a timed game pauses 20 s between deals
            table = await self.api.json("POST", "/tables", {
                "name": self.args.table, "level": "easy", "turn_seconds": None})
        async with await self.socket(f"/ws/tables/{table['id']}/") as ws:
            if not self.args.join:
                print(table["code"], flush=True)  # for the friends who join
            game = await self.until_started(ws, table["id"])
        async with await self.socket(f"/ws/games/{game}/") as ws:
            await self.play(ws, game)

    async def until_started(self, ws, table_id: str) -> str:
        """The table's game, once it has started: a ``table`` frame means read it again."""
        frames = self.frames(ws, "table")
        while True:
            table = await self.api.json("GET", f"/tables/{table_id}")
            if table["game"] and table["game"]["status"] == "active":
                return table["game"]["id"]
            people = sum(not seat["bot"] for seat in table["seats"])
            if not self.args.join and people >= self.args.people:
                return (await self.api.json("POST", f"/tables/{table_id}/start"))["game"]["id"]
            await anext(frames)

    async def play(self, ws, game: str) -> None:
        # Read once after the socket opened (a frame sent before is caught up), then only
        # when a frame is news and says it is this bot's turn.
        view = await self.take_turn(game)
        async for frame in self.frames(ws, "game"):
            if frame["t"] == "game_finished":
                return
            data = frame["data"]
            turn = data.get("turn") if frame["t"] == "discarded" else data.get("first")
            if frame["v"] > view["version"] and turn == view["you"]:
                view = await self.take_turn(game)
        raise RuntimeError("the game's socket closed before the game finished")

    async def take_turn(self, game: str) -> dict:
        """Reads the game, moves until it is someone else's turn; the game as the last answer
        showed it."""
        view = await self.api.json("GET", f"/games/{game}")
        self.note(read=view["version"])
        while view["status"] == "active" and view["turn"] == view["you"]:
            action = next_action(view["legal"])
            self.note(sent=view["version"], action=action["type"])
            answer = await self.api.json("POST", f"/games/{game}/actions", {
                "version": view["version"], "action": action}, ok=(200, 409))
            view = answer["game"]  # a 409 (stale_version) carries the game as it is now
        return view


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--join", metavar="CODE", help="sit down at this table (else open one)")
    parser.add_argument("--table", default="Bots' table", help="the name of a table it opens")
    parser.add_argument("--name", default="Table Bot", help="its name at a table it joins")
    parser.add_argument("--people", type=int, default=2, help="start once this many sit down")
    parser.add_argument("--ticket", action="store_true", help="open sockets with tickets")
    parser.add_argument("--log", help="a file for what it sent and heard (JSON lines)")
    asyncio.run(Bot(parser.parse_args()).run())

