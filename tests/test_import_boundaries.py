"""Dependencies point one way (docs/design.md, "Dependencies"), and every database write goes
through a service.

The import rules are import-linter contracts in pyproject.toml (layers, the engine and the bots
without Django, games never importing leaderboards, no circles, routers imported only by
ladder's wiring, the bots' public interface); CI runs ``lint-imports``. This file runs them
too, shows that each contract catches a violation planted in a copy of the project, and keeps
by hand only what import-linter cannot say:

- the engine (games/engine) imports only the standard library and itself, the bots
  (games/bots) only the standard library, the engine and themselves, and neither imports
  dynamically (``__import__``, ``importlib.import_module``): import-linter forbids a list of
  packages, it cannot allow "the standard library and nothing else";
- outside the services (and migrations) no code calls the ORM's writing methods;
- every module that defines a django-ninja ``router`` is in the routers' contract.

Imports and calls are read with ``ast`` from the source files, so nothing is executed.
"""

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = frozenset(sys.stdlib_module_names)
PROJECT = ("ladder", "frontend", "leaderboards", "games")
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
CONTRACTS = {c["id"]: c for c in tomllib.loads((ROOT / "pyproject.toml").read_text())
             ["tool"]["importlinter"]["contracts"]}


# --- import-linter's contracts -------------------------------------------------------------


def lint_imports(root: Path, *contracts: str) -> subprocess.CompletedProcess:
    args = [str(LINT_IMPORTS), "--no-cache", "--no-logo"]
    for contract in contracts:
        args += ["--contract", contract]
    return subprocess.run(args, cwd=root, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(root)})


def test_the_project_keeps_every_import_contract():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


# (contract, file, what it gains): one planted violation per contract.
VIOLATIONS = [
    ("project-layers", "frontend/views.py", "import ladder.urls"),
    ("web-knows-no-game", "games/web/rows.py", "from games.engine import cards"),
    ("games-layers", "games/models.py", "from games.services import act"),
    ("games-layers", "games/players/services.py", "from games.models import Game"),
    ("players-layers", "games/players/models.py", "from games.players import services"),
    ("services-layers", "games/services/seating.py", "from games.services.moves import run_bots"),
    ("tables-layers", "games/tables/models.py", "from games.tables import services"),
    ("leaderboards-layers", "leaderboards/ranking.py", "from . import services"),
    ("leagues-layers", "leaderboards/leagues/models.py",
     "from leaderboards.leagues import services"),
    ("engine-and-bots-without-django", "games/engine/cards.py", "from django.conf import settings"),
    ("engine-and-bots-without-django", "games/bots/easy.py", "import celery"),
    ("games-never-imports-leaderboards", "games/daily.py", "import leaderboards.models"),
    ("no-circles", "games/models.py", "def later():\n    from games import daily"),
    ("routers-only-from-wiring", "games/api_daily.py", "from games import api"),
    ("bots-public-interface", "games/reads/hints.py", "from games.bots.outlook import Outlook"),
]


def test_every_contract_has_a_planted_violation():
    assert {contract for contract, _, _ in VIOLATIONS} == set(CONTRACTS)


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory):
    """The four packages' Python files and pyproject.toml, copied once."""
    root = tmp_path_factory.mktemp("project")
    for package in PROJECT:
        shutil.copytree(ROOT / package, root / package,
                        ignore=shutil.ignore_patterns("__pycache__", "locale", "static",
                                                      "templates", "*.json", "*.md"))
    shutil.copy(ROOT / "pyproject.toml", root)
    return root


@pytest.mark.parametrize(("contract", "path", "line"), VIOLATIONS,
                         ids=[f"{c}:{p}" for c, p, _ in VIOLATIONS])
def test_each_contract_catches_a_violation(project_copy, contract, path, line):
    target = project_copy / path
    original = target.read_text()
    target.write_text(original + "\n" + line + "\n")
    try:
        result = lint_imports(project_copy, contract)
    finally:
        target.write_text(original)

    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{CONTRACTS[contract]['name']} BROKEN" in " ".join(result.stdout.split())


# --- The engine and the bots: the standard library only ------------------------------------


@dataclass(frozen=True)
class Rule:
    """``package``'s files import only the standard library and ``allowed`` (with their
    submodules), and never dynamically."""

    package: str
    allowed: tuple[str, ...]

    def violation(self, target: str) -> str | None:
        if _within(target, self.allowed) or target.split(".")[0] in STDLIB:
            return None
        return f"{self.package} may import only the standard library, " + ", ".join(self.allowed)


ENGINE = Rule("games.engine", ("games.engine",))
BOTS = Rule("games.bots", ("games.engine", "games.bots"))


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
    """The modules an import statement loads (``from M import n`` is judged as ``M.n``)."""
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


def check_source(source: str, module: str, rule: Rule, *, is_package: bool = False) -> list[str]:
    """Violations of ``rule`` in ``source``, the text of module ``module``."""
    problems = []
    for node in ast.walk(ast.parse(source)):
        if _is_dynamic_import(node):
            problems.append(f"{module}:{node.lineno}: dynamic import")
        for target in _targets(node, module, is_package):
            reason = rule.violation(target)
            if reason:
                problems.append(f"{module}:{node.lineno}: imports {target}: {reason}")
    return problems


def _module_name(path: Path, root: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


def check_tree(folder: Path, rule: Rule, root: Path = ROOT) -> list[str]:
    problems = []
    for path in sorted(folder.rglob("*.py")):
        module, is_package = _module_name(path, root)
        problems += check_source(path.read_text(), module, rule, is_package=is_package)
    return problems


@pytest.mark.parametrize("rule", [ENGINE, BOTS], ids=lambda r: r.package)
def test_the_engine_and_the_bots_import_only_the_standard_library_and_the_engine(rule):
    folder = ROOT / rule.package.replace(".", "/")
    assert list(folder.rglob("*.py")), f"no Python files found under {folder}"

    assert check_tree(folder, rule) == []


@pytest.mark.parametrize("source", [
    "import numpy",
    "from games.models import Game",
    "from ..api import router",
    "from games.bots import easy",
    "import importlib\nimportlib.import_module('json')",
    "def f():\n    import leaderboards",
])
def test_the_checker_finds_an_import_the_engine_may_not_make(source):
    assert check_source(source, "games.engine.melds", ENGINE)


@pytest.mark.parametrize("source", [
    "import random, hashlib\nfrom dataclasses import dataclass",
    "from __future__ import annotations",
    "from games.engine.cards import Card",
    "from . import cards",
    "from .rules.melds import is_run",
])
def test_the_checker_allows_the_standard_library_and_the_engine(source):
    assert check_source(source, "games.engine.melds", ENGINE) == []


def test_the_bots_may_use_the_engine_but_not_the_services():
    assert check_source("from games.engine import apply\nfrom . import memory",
                        "games.bots.easy", BOTS) == []
    assert check_source("from ..services import act", "games.bots.easy", BOTS)
    assert check_source("from .cards import Card", "games.engine", ENGINE, is_package=True) == []


# --- Only the services write to the database --------------------------------------------------

WRITERS = ("games.services", "games.players.services", "leaderboards.services",
           "leaderboards.leagues.services", "games.tables.services")
WRITES = frozenset({"save", "create", "get_or_create", "update_or_create", "bulk_create",
                    "bulk_update", "update", "delete"})


def _is_orm_write(node: ast.AST) -> bool:
    """A call of an ORM method that writes. ``dict.update`` is told apart as well as source
    allows: ``QuerySet.update`` takes keywords only, and nobody updates a subscripted
    queryset."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    if node.func.attr not in WRITES:
        return False
    if node.func.attr == "update" and (node.args or isinstance(node.func.value, ast.Subscript)):
        return False
    return True


def writes_outside_services(modules: dict[str, ast.Module]) -> list[str]:
    return [f"{name}:{node.lineno}: {ast.unparse(node.func)}(...) outside a service"
            for name, tree in modules.items()
            if not _within(name, WRITERS) and ".migrations" not in name
            and not _within(name, ("games.engine", "games.bots"))
            for node in ast.walk(tree) if _is_orm_write(node)]


def project_modules() -> dict[str, ast.Module]:
    modules = {}
    for package in PROJECT:
        for path in sorted((ROOT / package).rglob("*.py")):
            modules[_module_name(path, ROOT)[0]] = ast.parse(path.read_text(), str(path))
    return modules


def test_only_the_services_write_to_the_database():
    modules = project_modules()
    assert len(modules) > 90
    assert writes_outside_services(modules) == []


@pytest.mark.parametrize("source", [
    "Player.objects.create(name='x')",
    "game.save(update_fields=['state'])",
    "Game.objects.filter(pk=1).update(status='expired')",
    "row = Tally.objects.filter(board='x')\nrow.update(entries=F('entries') + 1)",
    "DailyDeal.objects.get_or_create(date=day)",
    "score.delete()",
    "Score.objects.bulk_create(scores)",
])
def test_the_write_check_finds_an_orm_write_outside_a_service(source):
    assert writes_outside_services({"games.daily": ast.parse(source)})
    assert writes_outside_services({"games.services.daily": ast.parse(source)}) == []


def test_the_write_check_leaves_dict_updates_alone():
    source = "error.update(extra)\nconfig['OPTIONS'].update(server_side_binding=True)"
    assert writes_outside_services({"ladder.api": ast.parse(source)}) == []


def _root_name(node: ast.AST) -> str:
    """``Player`` of ``Player.objects.filter(...).update``, ``user`` of ``user.save``."""
    while not isinstance(node, ast.Name):
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        else:
            return ""
    return node.id


def player_writes_outside_their_writer(modules: dict[str, ast.Module]) -> list[str]:
    """ORM writes on a player, a transfer code or a user (``Player.objects...``,
    ``player.save``, ``user.save``...) anywhere but games.players.services."""
    return [f"{name}:{node.lineno}: {ast.unparse(node.func)}(...)"
            for name, tree in modules.items()
            if name != "games.players.services" and ".migrations" not in name
            for node in ast.walk(tree) if _is_orm_write(node)
            and _root_name(node.func.value).lower() in {"player", "transfercode", "user",
                                                          "user_model"}]


def test_players_and_their_credentials_have_one_writer():
    assert player_writes_outside_their_writer(project_modules()) == []


@pytest.mark.parametrize("source", [
    "player.save(update_fields=['banned_at'])",
    "Player.objects.filter(pk=1).update(name='x')",
    "user.save()",
    "TransferCode.objects.create(player=p)",
])
def test_the_players_writer_check_finds_a_write_elsewhere(source):
    assert player_writes_outside_their_writer({"leaderboards.services": ast.parse(source)})
    assert player_writes_outside_their_writer(
        {"games.players.services": ast.parse(source)}) == []


# --- Routers ----------------------------------------------------------------------------------


def test_every_router_is_in_the_routers_contract():
    routers = {name for name, tree in project_modules().items()
               if any(isinstance(node, ast.Assign)
                      and any(isinstance(t, ast.Name) and t.id == "router" for t in node.targets)
                      for node in tree.body)}
    assert routers == set(CONTRACTS["routers-only-from-wiring"]["protected_modules"])
