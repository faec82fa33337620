"""Dependencies point one way (DESIGN §1), and every database write goes through a service.

ladder -> frontend, leaderboards -> games -> games.bots -> games.engine. The rules engine
(games/engine) imports only the standard library and itself; the bots (games/bots) only
the standard library, the engine and themselves; and nothing in games imports
leaderboards (a finished game tells the leaderboard through a signal). Imports are read
with ``ast`` from the source files, so nothing is executed; relative imports are
resolved, and dynamic imports (``__import__``, ``importlib.import_module``) are refused
in the engine and the bots.

The whole project is also checked as one graph of modules (every module under ladder,
frontend, leaderboards and games; an import inside a function counts like one at the top):
each module sits in a layer of :data:`LAYERS` and imports only its own layer and the ones
below; no two modules import each other, directly or round a longer circle; routers
(modules with a django-ninja ``router``) are imported only by ladder's wiring; the services
use only the bots' public interface (games.bots itself); and outside the services (and
migrations) no code calls the ORM's writing methods.
"""

import ast
import sys
from collections.abc import Iterable
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


# --- The whole project as one graph -------------------------------------------------------

PROJECT = ("ladder", "frontend", "leagues", "leaderboards", "games")

# Top to bottom. A module belongs to the layer of the longest name in it that it equals or
# lies inside, and imports only its own layer and the layers below.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("ladder",),  # wiring: settings, urls, asgi, the NinjaAPI root, serving
    ("frontend",),  # pages (may show a leaderboard; the leaderboards never import pages)
    # friend leagues: private boards built on the public ones (leaderboards never import them)
    ("leagues.api", "leagues.consumers", "leagues.routing", "leagues.admin", "leagues.apps",
     "leagues.receivers"),
    ("leagues.services",),  # the only writer of leagues
    ("leagues",),  # models, boards: reads
    # leaderboards' entry points: routers, websocket, admin, signal receivers, commands
    ("leaderboards.api", "leaderboards.consumers", "leaderboards.routing",
     "leaderboards.admin", "leaderboards.apps", "leaderboards.receivers",
     "leaderboards.management", "leaderboards.tasks"),
    ("leaderboards.services",),  # the only writer of scores and moderation
    ("leaderboards",),  # models, boards, flags, history: reads
    # games' entry points
    ("games.api", "games.api_accounts", "games.api_daily", "games.consumers",
     "games.routing", "games.admin", "games.apps", "games.tasks", "games.management"),
    ("games.api_common", "games.identity", "games.throttles", "games.schemas"),  # for routers
    ("games.services",),  # the only writer of players, games and deals
    ("games",),  # models, the day's clock, realtime groups, names, errors, signals
    # A measured replacement of the ORM's statements (docs/performance.md): it lives with the
    # other kept replacements in ladder/fast/ and imports nothing of the project's.
    ("ladder.fast.rows",),
    ("games.bots",),
    ("games.engine",),
)
SERVICES = ("games.services", "leaderboards.services", "leagues.services")
# What may call the ORM's writing methods: the services (and migrations, below).
WRITERS = SERVICES
WRITES = frozenset({"save", "create", "get_or_create", "update_or_create", "bulk_create",
                    "bulk_update", "update", "delete"})


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    type_checking: bool = False  # only under ``if TYPE_CHECKING:``: never runs

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: imports {self.target}"


@dataclass
class Module:
    name: str
    is_package: bool
    tree: ast.Module


def project_modules(root: Path = ROOT, packages: Iterable[str] = PROJECT) -> dict[str, Module]:
    modules = {}
    for package in packages:
        for path in sorted((root / package.replace(".", "/")).rglob("*.py")):
            name, is_package = _module_name(path, root)
            modules[name] = Module(name, is_package, ast.parse(path.read_text(), str(path)))
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(node: ast.AST, under_type_checking: bool = False):
    """Every import statement below ``node`` (in functions too), with whether it is guarded
    by ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, under_type_checking
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for inner in child.body:
                yield from _imports_of_statement(inner, True)
            for inner in child.orelse:
                yield from _imports_of_statement(inner, under_type_checking)
        else:
            yield from _imports(child, under_type_checking)


def _imports_of_statement(statement: ast.stmt, under_type_checking: bool):
    if isinstance(statement, ast.Import | ast.ImportFrom):
        yield statement, under_type_checking
    yield from _imports(statement, under_type_checking)


def _owner(target: str, modules: dict[str, Module]) -> str | None:
    """The project module ``target`` names or lies in (``games.engine.apply`` ->
    ``games.engine``), or None outside the project."""
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target or None


def import_graph(modules: dict[str, Module]) -> list[Edge]:
    edges = set()
    for module in modules.values():
        for node, type_checking in _imports(module.tree):
            for target in _targets(node, module.name, module.is_package):
                owner = _owner(target, modules)
                if owner is not None and owner != module.name:
                    edges.add(Edge(module.name, owner, node.lineno, type_checking))
    return sorted(edges, key=lambda e: (e.source, e.target, e.line))


def layer_of(module: str, layers=LAYERS) -> int:
    best, best_length = None, -1
    for index, prefixes in enumerate(layers):
        for prefix in prefixes:
            if _within(module, (prefix,)) and len(prefix) > best_length:
                best, best_length = index, len(prefix)
    if best is None:
        raise LookupError(f"{module} is in no layer")
    return best


def upward_imports(edges: Iterable[Edge], layers=LAYERS) -> list[str]:
    return [f"{edge}: layer {layer_of(edge.source, layers)} may not import layer "
            f"{layer_of(edge.target, layers)}"
            for edge in edges if layer_of(edge.target, layers) < layer_of(edge.source, layers)]


def find_cycle(edges: Iterable[Edge]) -> list[str] | None:
    """A circle of imports that run (``TYPE_CHECKING`` ones never do), as ``[a, b, ..., a]``,
    or None. Depth-first search: a module met again while it is still on the path closes
    a circle."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        if not edge.type_checking:
            graph.setdefault(edge.source, set()).add(edge.target)
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path, on_path = [start], {start}
        stack = [iter(sorted(graph.get(start, ())))]
        while stack:
            target = next(stack[-1], None)
            if target is None:
                stack.pop()
                finished = path.pop()
                on_path.discard(finished)
                done.add(finished)
                continue
            if target in on_path:
                return path[path.index(target):] + [target]
            if target not in done:
                path.append(target)
                on_path.add(target)
                stack.append(iter(sorted(graph.get(target, ()))))
    return None


def routers(modules: dict[str, Module]) -> set[str]:
    """Modules that define a django-ninja router (a module-level ``router = ...``)."""
    return {module.name for module in modules.values()
            if any(isinstance(node, ast.Assign)
                   and any(isinstance(t, ast.Name) and t.id == "router" for t in node.targets)
                   for node in module.tree.body)}


def router_imports(edges: Iterable[Edge], router_names: set[str]) -> list[str]:
    return [f"{edge}: only ladder's wiring imports a router"
            for edge in edges if edge.target in router_names and not _within(edge.source,
                                                                              ("ladder",))]


def bot_internals_used_by_services(edges: Iterable[Edge]) -> list[str]:
    return [f"{edge}: the services use the bots' public interface, games.bots"
            for edge in edges
            if _within(edge.source, SERVICES) and edge.target.startswith("games.bots.")]


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


def writes_outside_services(modules: dict[str, Module]) -> list[str]:
    return [f"{module.name}:{node.lineno}: {ast.unparse(node.func)}(...) outside a service"
            for module in modules.values()
            if not _within(module.name, WRITERS) and ".migrations" not in module.name
            and not _within(module.name, ("games.engine", "games.bots"))
            for node in ast.walk(module.tree) if _is_orm_write(node)]


@pytest.fixture(scope="module")
def project():
    modules = project_modules()
    return modules, import_graph(modules)


def test_the_project_graph_covers_every_module_of_the_five_packages(project):
    modules, edges = project
    files = [path for package in PROJECT for path in (ROOT / package).rglob("*.py")]
    assert len(modules) == len(files) > 90
    assert len(edges) > 200
    assert {layer_of(name) for name in modules} == set(range(len(LAYERS)))


def test_no_module_imports_a_layer_above_its_own(project):
    _, edges = project
    assert upward_imports(edges) == []


def test_there_is_no_circle_of_imports_anywhere_in_the_project(project):
    _, edges = project
    assert find_cycle(edges) is None


def test_routers_do_not_import_routers(project):
    modules, edges = project
    found = routers(modules)
    assert {"games.api", "games.api_daily", "games.api_accounts", "leaderboards.api"} <= found
    assert router_imports(edges, found) == []


def test_the_services_use_the_bots_only_through_their_public_interface(project):
    _, edges = project
    assert bot_internals_used_by_services(edges) == []


def test_only_the_services_write_to_the_database(project):
    modules, _ = project
    assert writes_outside_services(modules) == []


# --- The graph checks can fail -----------------------------------------------------------


def _package(root: Path, files: dict[str, str]) -> dict[str, Module]:
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return project_modules(root, ["shop"])


def test_the_graph_finds_a_circle_closed_by_an_import_inside_a_function(tmp_path):
    modules = _package(tmp_path, {
        "shop/__init__.py": "",
        "shop/orders.py": "from shop.stock import reserve\n",
        "shop/stock.py": "from . import prices\n",
        "shop/prices.py": "def price():\n    from .orders import total\n",
    })

    cycle = find_cycle(import_graph(modules))

    assert cycle == ["shop.orders", "shop.stock", "shop.prices", "shop.orders"]


def test_two_modules_importing_each_other_are_a_circle(tmp_path):
    modules = _package(tmp_path, {
        "shop/__init__.py": "",
        "shop/a.py": "import shop.b\n",
        "shop/b.py": "from shop.a import x\n",
    })
    assert find_cycle(import_graph(modules)) == ["shop.a", "shop.b", "shop.a"]


def test_a_type_checking_import_is_no_circle_but_still_faces_the_layers(tmp_path):
    modules = _package(tmp_path, {
        "shop/__init__.py": "",
        "shop/views.py": "from shop import models\n",
        "shop/models.py": ("from typing import TYPE_CHECKING\n"
                           "if TYPE_CHECKING:\n    from shop.views import View\n"),
    })
    edges = import_graph(modules)

    assert find_cycle(edges) is None
    layers = (("shop.views",), ("shop",))
    assert upward_imports(edges, layers) == [
        "shop.models:3: imports shop.views: layer 1 may not import layer 0"]


def test_a_graph_without_a_circle_has_none(tmp_path):
    modules = _package(tmp_path, {
        "shop/__init__.py": "from .orders import Order\n",
        "shop/orders.py": "from shop import stock\n",
        "shop/stock.py": "import json\n",
    })
    assert find_cycle(import_graph(modules)) is None


def test_the_layer_check_finds_a_service_importing_a_router_and_ladder():
    edges = [Edge("games.services", "ladder.groups", 1), Edge("games.services", "games.api", 2),
             Edge("games.api", "games.services", 3)]
    assert [p.split(": layer")[0] for p in upward_imports(edges)] == [
        "games.services:1: imports ladder.groups", "games.services:2: imports games.api"]


def test_the_router_check_finds_a_router_importing_a_router():
    edges = [Edge("games.api", "games.api_daily", 24), Edge("ladder.api", "games.api", 22)]
    assert router_imports(edges, {"games.api", "games.api_daily"}) == [
        "games.api:24: imports games.api_daily: only ladder's wiring imports a router"]


def test_the_bots_interface_check_finds_a_service_reaching_into_a_bot_module():
    edges = [Edge("games.services", "games.bots.outlook", 38),
             Edge("games.services", "games.bots", 37),
             Edge("games.management.yardstick", "games.bots.arena", 18)]
    assert bot_internals_used_by_services(edges) == [
        "games.services:38: imports games.bots.outlook: the services use the bots' public "
        "interface, games.bots"]


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
    module = Module("games.daily", False, ast.parse(source))
    assert writes_outside_services({"games.daily": module})
    service = Module("games.services.deals", False, ast.parse(source))
    assert writes_outside_services({"games.services.deals": service}) == []


def test_the_write_check_leaves_dict_updates_alone():
    source = "error.update(extra)\nconfig['OPTIONS'].update(server_side_binding=True)"
    module = Module("ladder.api", False, ast.parse(source))
    assert writes_outside_services({"ladder.api": module}) == []
