"""Dependencies point one way (DESIGN §1): games never imports leaderboards; the leaderboard
hears about finished games through games.signals.game_finished."""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"


def imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    return modules


def test_games_never_imports_leaderboards():
    offenders = {
        str(path.relative_to(GAMES.parent)): sorted(m for m in imported_modules(path)
                                                    if m.split(".")[0] == "leaderboards")
        for path in GAMES.rglob("*.py")
    }
    assert {path: mods for path, mods in offenders.items() if mods} == {}
