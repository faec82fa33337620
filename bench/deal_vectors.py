"""Test vectors for the browser's re-deal (frontend/static/frontend/js/daily/verify.js): the
engine's ten deals of 200 seeds (games.engine.redeal), written to
``tests/browser/deal_vectors.json``, which tests/browser/test_deal_generator.py hands to the
JavaScript generator and tests/engine/test_deal_vectors.py holds to the engine.

    .venv/bin/python -m bench.deal_vectors            # rewrite the file
    .venv/bin/python -m bench.deal_vectors --check    # exit 1 if the file is out of date

Cards are the engine's integers 0-106 (``card_ids`` maps each to its API id) to keep the file
small; the seeds are daily-like (64 hex digits) plus a few that test the UTF-8 encoding of
``derive`` (empty, accented, Thai, emoji, with the separator ``|``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from games.engine.cards import PACK, card_id
from games.engine.redeal import first_dealer, ten_deals

PATH = Path(__file__).resolve().parents[1] / "tests" / "browser" / "deal_vectors.json"
SEEDS = 200
ODD_SEEDS = ["", "a", "a|deal|1", "señor-ñandú", "ไพ่รัมมี่", "🃏 joker", "x" * 200]


def seeds(count: int = SEEDS) -> list[str]:
    hexes = [hashlib.sha256(f"deal-vector-{i}".encode()).hexdigest()
             for i in range(count - len(ODD_SEEDS))]
    return ODD_SEEDS + hexes


def vectors(count: int = SEEDS) -> dict:
    return {
        "generated_by": "python -m bench.deal_vectors",
        "card_ids": [card_id(c) for c in PACK],
        "seeds": [{"seed": seed, "first_dealer": first_dealer(seed),
                   "deals": [{"dealer": d.dealer, "hands": [list(h) for h in d.hands],
                              "discard_top": d.discard_top} for d in ten_deals(seed)]}
                  for seed in seeds(count)],
    }


def render(data: dict) -> str:
    """One seed a line: compact, and a change shows as a readable diff."""
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    head = {k: v for k, v in data.items() if k != "seeds"}
    lines = [json.dumps(s, **compact) for s in data["seeds"]]
    return (json.dumps(head, **compact)[:-1] + ',"seeds":[\n' + ",\n".join(lines) + "\n]}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    text = render(vectors())
    if args.check:
        same = PATH.exists() and PATH.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{PATH} differs from the engine: rerun without --check")
        return 0 if same else 1
    PATH.write_text(text, encoding="utf-8")
    print(f"wrote {PATH} ({len(text.encode()) // 1024} KB, {SEEDS} seeds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
