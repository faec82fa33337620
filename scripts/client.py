"""A small synchronous client of the Ladder Rummy API and websockets, for the scripts."""

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
    """A third-party client: a bearer token from ``POST /players``, any process's URL."""

    def __init__(self, base_url: str, timeout_s: float = 10.0):
        self.http = httpx.Client(timeout=timeout_s)
        response = self.http.post(f"{base_url}{API}/players")
        response.raise_for_status()
        body = response.json()
        self.id, self.token = body["id"], body["token"]
        self.http.headers["Authorization"] = f"Bearer {self.token}"

    def get(self, base_url: str, path: str) -> httpx.Response:
        return self.http.get(f"{base_url}{API}{path}")

    def post(self, base_url: str, path: str, body: dict) -> httpx.Response:
        return self.http.post(f"{base_url}{API}{path}", json=body)

    def new_game(self, base_url: str, mode: str = "practice", level: str = "easy") -> dict:
        response = self.post(base_url, "/games", {"mode": mode, "level": level})
        if response.status_code not in (200, 201):
            raise RuntimeError(f"POST /games: {response.status_code} {response.text[:300]}")
        return response.json()

    def act(self, base_url: str, game: dict, action: dict) -> httpx.Response:
        return self.post(base_url, f"/games/{game['id']}/actions",
                         {"version": game["version"], "action": action})


def simple_move(game: dict) -> dict:
    """A plain legal move from the view's hints: draw from the stock, discard the first card
    the hints allow. (It never lays down: the game still ends, deal by deal, as the bots go
    out.)"""
    legal = game["legal"]
    if game["phase"] == "draw":
        return {"type": "draw", "from": "stock" if "stock" in legal["draw"] else legal["draw"][0]}
    return {"type": "discard", "card": legal["discard"][0]}


class Listener:
    """A websocket read by a background thread; frames land in ``frames`` as they come."""

    def __init__(self, url: str, token: str | None = None, open_timeout_s: float = 10.0):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.socket = connect(url, additional_headers=headers, open_timeout=open_timeout_s)
        self.frames: queue.Queue = queue.Queue()
        self.closed = threading.Event()
        self.close_code: int | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for message in self.socket:
                self.frames.put(json.loads(message))
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
