"""Dependencies point one way (DESIGN §1).

ladder -> frontend, leaderboards -> games -> games.bots -> games.engine. The rules engine
(games/engine) imports only the standard library and itself; the bots (games/bots) only
the standard library, the engine and themselves; and nothing in games imports
leaderboards (a finished game tells the leaderboard through a signal). Imports are read
with ``ast`` from the source files, so nothing is executed; relative imports are
resolved, and dynamic imports (``__import__``, ``importlib.import_module``) are refused
in the engine and the bots.
"""

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = frozenset(sys.stdlib_module_names)

# Never allowed in the engine or the bots, whatever else is.
FORBIDDEN = (
    "django",
    "ninja",
    "channels",
    "celery",
    "games.models",
    "games.services",
    "games.api",
    "games.identity",
    "games.consumers",
    "games.tasks",
    "leaderboards",
    "frontend",
    "ladder",
)


@dataclass(frozen=True)
class Rule:
    """Which modules the files of ``package`` may import."""

    package: str
    stdlib: bool  # whether the standard library is allowed
    allowed: tuple[str, ...]  # project packages allowed (with their submodules)
    forbidden: tuple[str, ...] = FORBIDDEN

    def violation(self, target: str) -> str | None:
        if _within(target, self.forbidden):
            return "forbidden import"
        if _within(target, self.allowed):
            return None
        if self.stdlib and target.split(".")[0] in STDLIB:
            return None
        return f"{self.package} may import only " + ", ".join(
            (["the standard library"] if self.stdlib else []) + list(self.allowed)
        )


ENGINE = Rule("games.engine", stdlib=True, allowed=("games.engine",))
BOTS = Rule("games.bots", stdlib=True, allowed=("games.engine", "games.bots"))


@dataclass(frozen=True)
class GamesRule:
    """games (any part) never imports leaderboards; everything else is allowed."""

    package: str = "games"

    def violation(self, target: str) -> str | None:
        if _within(target, ("leaderboards",)):
            return "games must not import leaderboards (send games.signals.game_finished)"
        return None


GAMES = GamesRule()


def _within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def _resolve_relative(module: str | None, level: int, current: str, is_package: bool) -> str:
    """The absolute name of ``from <level dots><module> import ...`` inside ``current``."""
    parts = current.split(".")
    if not is_package:
        parts = parts[:-1]  # a module's relative imports start from its package
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    base = ".".join(parts)
    return f"{base}.{module}" if module else base


def _targets(node: ast.AST, current: str, is_package: bool) -> list[str]:
    """The modules an import statement loads.

    ``from M import n`` is judged as ``M.n``: ``n`` may be a submodule (``from games
    import services``) or a name inside ``M``, and in both cases ``M.n`` lies where it
    comes from. Only ``from M import *`` is judged as ``M``.
    """
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            module = _resolve_relative(node.module, node.level, current, is_package)
        else:
            module = node.module or ""
        return [module if alias.name == "*" else f"{module}.{alias.name}" for alias in node.names]
    return []


def _is_dynamic_import(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in ("__import__", "import_module")
    if isinstance(func, ast.Attribute):
        return func.attr in ("import_module", "__import__")
    return False


def check_source(source: str, module: str, rule, *, is_package: bool = False) -> list[str]:
    """Violations of ``rule`` in ``source``, the text of module ``module``."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(rule, Rule) and _is_dynamic_import(node):
            problems.append(f"{module}:{node.lineno}: dynamic import")
        for target in _targets(node, module, is_package):
            reason = rule.violation(target)
            if reason:
                problems.append(f"{module}:{node.lineno}: imports {target}: {reason}")
    return problems


def _module_name(path: Path, root: Path) -> tuple[str, bool]:
    relative = path.relative_to(root).with_suffix("")
    parts = list(relative.parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


def check_tree(folder: Path, rule, root: Path = ROOT) -> list[str]:
    """Violations of ``rule`` in every .py file under ``folder`` (modules named from ``root``)."""
    problems = []
    for path in sorted(folder.rglob("*.py")):
        module, is_package = _module_name(path, root)
        problems += check_source(path.read_text(), module, rule, is_package=is_package)
    return problems


# --- The project's own code ------------------------------------------------------------


@pytest.mark.parametrize("rule", [ENGINE, BOTS], ids=lambda r: r.package)
def test_the_engine_and_the_bots_import_only_what_they_may(rule):
    folder = ROOT / rule.package.replace(".", "/")
    if not folder.is_dir():
        pytest.skip(f"{rule.package} does not exist yet")
    assert list(folder.rglob("*.py")), f"no Python files found under {folder}"

    assert check_tree(folder, rule) == []


def test_games_never_imports_leaderboards():
    assert check_tree(ROOT / "games", GAMES) == []


# --- The checker itself can fail ---------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "from django.db import models",
        "import ninja",
        "from channels.layers import get_channel_layer",
        "import celery",
        "from games.models import Game",
        "from games import services",
        "from ..api import router",
        "from .. import consumers",
        "import leaderboards.models",
        "import ladder.settings",
        "from frontend import views",
        "from games.bots import easy",
        "import numpy",
        "import importlib\nimportlib.import_module('django')",
        "def f():\n    import games.tasks",
    ],
)
def test_the_checker_finds_a_forbidden_import_in_the_engine(source):
    assert check_source(source, "games.engine.melds", ENGINE)


@pytest.mark.parametrize(
    "source",
    [
        "import random, hashlib\nfrom dataclasses import dataclass",
        "from __future__ import annotations",
        "from games.engine import cards",
        "from games.engine.cards import Card",
        "from . import cards",
        "from .cards import Card",
        "from .rules.melds import is_run",
    ],
)
def test_the_checker_allows_the_standard_library_and_the_engine(source):
    assert check_source(source, "games.engine.melds", ENGINE) == []


def test_a_relative_import_from_the_engine_package_init_stays_inside():
    assert check_source("from .cards import Card", "games.engine", ENGINE, is_package=True) == []
    assert check_source("from ..models import Game", "games.engine", ENGINE, is_package=True)


def test_the_bots_may_use_the_engine_but_not_django():
    allowed = "from games.engine import apply\nfrom . import common"
    assert check_source(allowed, "games.bots.easy", BOTS) == []
    assert check_source("from django.conf import settings", "games.bots.easy", BOTS)
    assert check_source("from ..services import act", "games.bots.easy", BOTS)


def test_the_checker_finds_games_importing_leaderboards():
    assert check_source("from leaderboards.services import record_score", "games.services", GAMES)
    assert check_source("from django.db import transaction", "games.services", GAMES) == []


def test_the_tree_walk_finds_a_violation_in_a_nested_file(tmp_path):
    engine = tmp_path / "games" / "engine"
    (engine / "search").mkdir(parents=True)
    (engine / "__init__.py").write_text("from .cards import Card\n")
    (engine / "cards.py").write_text("import dataclasses\n")
    (engine / "search" / "__init__.py").write_text("")
    (engine / "search" / "deep.py").write_text("from ...models import Game\n")

    problems = check_tree(engine, ENGINE, root=tmp_path)

    assert problems == [
        "games.engine.search.deep:1: imports games.models.Game: forbidden import",
    ]
