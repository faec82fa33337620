"""The document's shapes fit together as a TypeScript client reads them: openapi-typescript 7
(its default options) makes types from /api/v1/openapi.json, and ``tsc --strict`` compiles a
client's plain uses of them: a body that leaves out what has a default (``POST /games {}``),
a lay-off option of the view posted as it is, a switch on an error's code and on an event's
``t`` (a replay's too, its private parts typed). What would not compile is a 422 of the
shapes (docs/api.md, "Changelog")."""

from __future__ import annotations

import subprocess

import pytest
from django.test import Client

from tests.clients import generate_typescript_types
from tests.npm import npm_folder

pytestmark = pytest.mark.slow

TOOLS = ("openapi-typescript@7.13.0", "typescript@5.9.3")
CLIENT = """
import type { components } from "./api";
type S = components["schemas"];

export const newGame: S["NewGame"] = {};  // POST /games {}: a practice game at normal
export const newTable: S["NewTable"] = { name: "Friday cards" };
export const lateOff: S["LayOff"] = { type: "lay_off", meld: 0, card: "7H.1" };

export function layOffFirst(view: S["GameView"]): S["ActionRequest"] | null {
  const option = view.legal.lay_off[0];  // an option is the action, posted as it is
  return option ? { version: view.version, action: option } : null;
}

export function tableIsFull(error: S["Error"]): boolean {
  switch (error.error.code) {
    case "table_full": case "table_started": return true;
    default: return false;
  }
}

export function drewFrom(event: S["Event"]): string | null {
  return event.t === "drew" ? event.data.from : null;
}

export function handsDealt(event: S["OpenEvent"]): string[][] {  // a replay's, face up
  if (event.t !== "deal_started") return [];
  return event.private.map((part) => part.data.hand.map((card) => card.id));
}

export function drawnFromStock(event: S["OpenEvent"]): string | null {
  return event.t === "drew" && event.private ? event.private[0].data.card.id : null;
}

export function botAt(table: S["TableOut"], seat: number): boolean {
  return table.seats[seat].bot;
}
"""


def test_a_typescript_client_compiles_against_the_generated_types(tmp_path):
    folder = npm_folder(*TOOLS)
    document = Client().get("/api/v1/openapi.json").json()
    generate = generate_typescript_types(document, tmp_path, folder)
    assert generate.returncode == 0, generate.stderr
    (tmp_path / "client.ts").write_text(CLIENT)
    compile_ = subprocess.run(
        [str(folder / "node_modules" / ".bin" / "tsc"), "--noEmit", "--strict", "--target",
         "es2022", "--module", "esnext", "--moduleResolution", "bundler", "client.ts"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert compile_.returncode == 0, compile_.stdout + compile_.stderr
