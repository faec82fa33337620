"""The one client of the Ladder Rummy API the bench scripts use: players, games, actions, and
a websocket listener.

``Player`` sends its requests with httpx (the smoke and fault scripts, one request at a time);
the load generator (bench/loadgen.py) sends the same requests through Locust's client by
overriding ``Player.request``. Every request has a kind (``setup``, ``start``, ``draw``,
``discard``, ``get``), its name in the figures.
"""

from __future__ import annotations

import json
import queue
import threading
import time

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

API = "/api/v1"


class Player:
    """A third-party client: a bearer token from ``POST /players``. ``base_url`` is the server
    its requests go to; ``at=`` sends one to another process of the same deployment."""

    def __init__(self, base_url: str = "", timeout_s: float = 10.0, http=None):
        self.base_url = base_url
        self.http = httpx.Client(timeout=timeout_s) if http is None else http
        self.id: str | None = None
        self.token: str | None = None

    def request(self, kind: str, method: str, path: str, body: dict | None = None,
                at: str | None = None):
        """One request to ``/api/v1{path}``: an answer with ``status_code``, ``json()``."""
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return self.http.request(method, f"{at or self.base_url}{API}{path}", json=body,
                                 headers=headers)

    def join(self) -> Player:
        """Become a player (``POST /players``); raises if the server refuses."""
        response = self.request("setup", "POST", "/players")
        if response.status_code != 201:
            raise RuntimeError(f"POST /players: {response.status_code} {response.text[:300]}")
        body = response.json()
        self.id, self.token = body["id"], body["token"]
        return self

    def new_game(self, mode: str = "practice", level: str = "easy", at: str | None = None) -> dict:
        response = self.request("start", "POST", "/games", {"mode": mode, "level": level}, at)
        if response.status_code not in (200, 201):
            raise RuntimeError(f"POST /games: {response.status_code} {response.text[:300]}")
        return response.json()

    def act(self, game: dict, action: dict, at: str | None = None):
        return self.request(action["type"], "POST", f"/games/{game['id']}/actions",
                            {"version": game["version"], "action": action}, at)

    def game(self, game_id: str, at: str | None = None):
        return self.request("get", "GET", f"/games/{game_id}", at=at)


def simple_move(game: dict) -> dict:
    """A plain legal move from the view's hints: draw from the stock, discard the first card
    the hints allow. (It never lays down: the game still ends, deal by deal, as the bots go
    out.)"""
    legal = game["legal"]
    if game["phase"] == "draw":
        return {"type": "draw", "from": "stock" if "stock" in legal["draw"] else legal["draw"][0]}
    return {"type": "discard", "card": legal["discard"][0]}


def plain_move(game: dict) -> dict:
    """Lay down or lay off when the view offers it, else ``simple_move``: a game whose deals
    end by a person going out too, played from the view alone."""
    legal = game["legal"]
    if game["phase"] == "play" and legal["lay_downs"]:
        return legal["lay_downs"][0]
    if game["phase"] == "play" and legal["lay_off"]:
        return legal["lay_off"][0]  # an option is the action itself
    return simple_move(game)


class Listener:
    """A websocket read by a background thread; frames land in ``frames`` as they come, or
    go to ``on_frame(frame)`` when given."""

    def __init__(self, url: str, token: str | None = None, open_timeout_s: float = 10.0,
                 on_frame=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.socket = connect(url, additional_headers=headers, open_timeout=open_timeout_s)
        self.frames: queue.Queue = queue.Queue()
        self.on_frame = on_frame or self.frames.put
        self.closed = threading.Event()
        self.close_code: int | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for message in self.socket:
                self.on_frame(json.loads(message))
        except ConnectionClosed as exc:
            self.close_code = exc.rcvd.code if exc.rcvd else None
        except Exception:  # noqa: BLE001 - the listener only records that it stopped
            pass
        finally:
            self.closed.set()

    def wait_for(self, predicate, timeout_s: float = 10.0) -> tuple[list[dict], bool]:
        """Frames received until one satisfies ``predicate`` (True) or the time is up."""
        seen = []
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return seen, False
            try:
                frame = self.frames.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                if self.closed.is_set() and self.frames.empty():
                    return seen, False
                continue
            seen.append(frame)
            if predicate(frame):
                return seen, True

    def close(self) -> None:
        try:
            self.socket.close()
        except Exception:  # noqa: BLE001
            pass
