"""The documents say what is true: every repository path that README.md, frontend/README.md
and docs/*.md name exists, and every section they or the code cite ("README, "How to play"",
"docs/performance.md, "The serving shape"") is a heading of that document.

A path is a word with a ``/`` whose first part is a top-level entry of the repository
(``games/engine/rng.py``, ``docs/``), in frontend/README.md also one relative to frontend/ or
its static folder (``js/api.js``, ``locale/``), or a bare file name with an extension
(``rng.py``, ``ladder.css``), which must be some file's name. Addresses (``/api/v1/…``),
patterns (``{es,th}``, ``*``) and what lives outside the repository are not paths.

The code's prose (comments and docstrings, ``./dev`` and ``.ci/run``) is held to the same rule
for paths with a file's extension, and every prose, documents included, to one more: a dotted
name that starts with one of the project's packages (``games.web.groups.group_send``,
``ladder.serving.ThreadedDjango.executor``) names a module, and after it a name defined at the
top of that module, then perhaps one defined in that class. Names of parts that are gone,
kept in the history of docs/performance.md, are marked as such: followed by "(deleted)".
"""

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", ROOT / "frontend" / "README.md",
             *sorted((ROOT / "docs").glob("*.md"))]
SKIP = {".git", ".venv", "node_modules", "__pycache__", "artifacts", "ladder_rummy.egg-info"}
TOP = {p.name for p in ROOT.iterdir() if p.name not in SKIP}
EXTENSIONS = ("py", "md", "js", "css", "json", "html", "toml", "txt", "woff2", "svg", "po", "mo")
FRONTEND_RELATIVE = ("frontend", "frontend/static/frontend")

# Named as they were: parts measured and dropped or moved (docs/performance.md's tables), and
# what the tools make (screenshots, the browser tests' output).
NOT_IN_THE_TREE = {
    "ladder/postgresql/", "ladder/channel_layer.py", "ladder/cache.py", "ladder/serving.py",
    "games/rows.py", "games/fastjson.py", "games/engine/frozen.py", "ladder/edge.py",
    "artifacts/screenshots/",
    "artifacts/screenshots/{es,th}/",
}

WORD = re.compile(r"[\w.@/+\-{},…]+")
SECTION = re.compile(
    r"(README\.md|README|(?:frontend/)?README\.md|docs/\w+\.md)(?:'s)?,? \"([^\"\n]+)\"")


def _files() -> tuple[set[str], set[str]]:
    paths, names = set(), set()
    for top in TOP:
        entry = ROOT / top
        for path in [entry, *(entry.rglob("*") if entry.is_dir() else [])]:
            if SKIP.isdisjoint(path.relative_to(ROOT).parts):
                relative = path.relative_to(ROOT).as_posix()
                paths.add(relative + ("/" if path.is_dir() else ""))
                names.add(path.name)
    return paths, names


PATHS, NAMES = _files()


def _exists(word: str, document: Path) -> bool:
    bases = [""] + ([f"{base}/" for base in FRONTEND_RELATIVE]
                    if document == ROOT / "frontend" / "README.md" else [])
    return any(base + word in PATHS or (base + word).rstrip("/") + "/" in PATHS
               for base in bases)


def named_paths(document: Path) -> list[str]:
    """Every word of ``document`` that names a repository path, and is missing from it."""
    missing = []
    for word in WORD.findall(document.read_text()):
        word = word.rstrip(".,:;…")
        if not word or word.startswith(("/", ".venv")) or "://" in word or word in NOT_IN_THE_TREE:
            continue
        if any(c in word for c in "{}*…"):
            continue
        first = word.split("/")[0]
        if "/" in word:
            relative_first = document == ROOT / "frontend" / "README.md" and _exists(
                first + "/", document)
            if (first in TOP or relative_first) and not _exists(word, document):
                missing.append(word)
        elif re.fullmatch(rf"[\w.\-]+\.(?:{'|'.join(EXTENSIONS)})", word) and word not in NAMES:
            if not re.fullmatch(r"\d+(\.\d+)*", word):  # a version or a figure
                missing.append(word)
    return missing


def headings(document: Path) -> set[str]:
    return {line.lstrip("#").strip() for line in document.read_text().splitlines()
            if line.startswith("#")}


def cited_sections() -> list[tuple[str, str, str]]:
    """(where, document, section) for every ``DOCUMENT "Section"`` in the documents and code."""
    sources = list(DOCUMENTS) + [ROOT / ".ci" / "run", ROOT / "dev"]
    for top in ("ladder", "games", "leaderboards", "frontend", "bench", "tests"):
        sources += [p for p in (ROOT / top).rglob("*") if p.suffix in (".py", ".js", ".css",
                                                                          ".html")
                    and SKIP.isdisjoint(p.parts) and "vendor" not in p.parts]
    found = []
    for source in sources:
        text = " ".join(source.read_text().split())  # a citation may wrap
        for document, section in SECTION.findall(text):
            if source == Path(__file__):
                continue
            found.append((source.relative_to(ROOT).as_posix(), document, section))
    return found


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_path_a_document_names_exists(document):
    assert named_paths(document) == []


def test_every_cited_section_is_a_heading_of_its_document():
    citations = cited_sections()
    assert len(citations) > 5
    wrong = []
    for where, document, section in citations:
        path = ROOT / ("README.md" if document == "README" else document)
        if not path.exists() or section not in headings(path):
            wrong.append(f"{where}: {document} \"{section}\"")
    assert wrong == []


def test_the_checks_find_a_missing_path_and_a_missing_section(tmp_path):
    document = tmp_path / "x.md"
    document.write_text("See `games/engine/gone.py`, gone.js, games/engine/rng.py and "
                        "`/api/v1/games`.\n## Real\n")
    assert named_paths(document) == ["games/engine/gone.py", "gone.js"]
    assert headings(document) == {"Real"}
    assert SECTION.findall('(README, "How to play") and docs/api.md "Bounds"') == [
        ("README", "How to play"), ("docs/api.md", "Bounds")]


# --- Code's prose, and the modules and functions prose names ---------------------------------

PACKAGES = ("ladder", "games", "leaderboards", "frontend", "bench", "tests")
DOTTED = re.compile(rf"(?<![\w./-])((?:{'|'.join(PACKAGES)})(?:\.\w+)+)(`? \(deleted\))?")
NOT_CODE = {"ladder.example", "bench.NAME"}  # a host name in examples; "any bench module"
SCRIPTS = [ROOT / "dev", ROOT / ".ci" / "run"]


def code_files() -> list[Path]:
    return sorted(p for top in PACKAGES for p in (ROOT / top).rglob("*.py")
                  if SKIP.isdisjoint(p.parts) and "migrations" not in p.parts)


def prose(path: Path) -> str:
    """A document or script whole; of Python, its comments and docstrings."""
    text = path.read_text()
    if path.suffix != ".py":
        return text
    parts = [token.string for token in tokenize.generate_tokens(io.StringIO(text).readline)
             if token.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            parts.append(ast.get_docstring(node, clean=False) or "")
    return "\n".join(parts)


def _module(parts: list[str]) -> Path | None:
    path = ROOT.joinpath(*parts)
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _defined(module: Path) -> dict[str, set[str] | None]:
    """The names a module defines at its top (for a class, those its body defines)."""
    found: dict[str, set[str] | None] = {}
    for node in ast.parse(module.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found[node.name] = ({n.name for n in ast.walk(node) if isinstance(
                n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
                | {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
                   and isinstance(n.ctx, ast.Store)}
                | {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
                   and isinstance(n.ctx, ast.Store)}
                if isinstance(node, ast.ClassDef) else set())
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update({(a.asname or a.name).split(".")[0]: None for a in node.names})
        else:
            found.update({n.id: None for n in ast.walk(node)
                          if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)})
    return found


def names_that_resolve(dotted: str) -> bool:
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        module = _module(parts[:end])
        if module is None or (module.name == "__init__.py" and end < len(parts)
                              and _module(parts[:end + 1])):
            continue
        rest = parts[end:]
        if not rest:
            return True
        defined = _defined(module)
        if rest[0] not in defined:
            return False
        members = defined[rest[0]]
        return len(rest) == 1 or members is None or rest[1] in members
    return False


def missing_names(text: str) -> list[str]:
    file_name = re.compile(rf"\.(?:{'|'.join(EXTENSIONS)})$")  # ladder.css: a path's rule
    return [name for name, deleted in DOTTED.findall(text)
            if not deleted and name not in NOT_CODE and not file_name.search(name)
            and not names_that_resolve(name)]


@pytest.mark.parametrize("source", [*code_files(), *SCRIPTS],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_path_the_codes_prose_names_exists(source, tmp_path):
    text = tmp_path / "prose.md"
    text.write_text(prose(source))
    extension = re.compile(rf"\.(?:{'|'.join(EXTENSIONS)})/?$")
    assert [word for word in named_paths(text) if "/" in word and extension.search(word)] == []


def test_every_module_and_function_that_prose_names_exists():
    missing = [f"{source.relative_to(ROOT).as_posix()}: {name}"
               for source in [*DOCUMENTS, *code_files(), *SCRIPTS]
               for name in missing_names(prose(source))]
    assert missing == []


def test_the_name_check_finds_what_is_gone():
    assert missing_names("games.web.groups.group_send, ladder.serving.ThreadedDjango.executor, "
                         "games.engine.rules") == []
    assert missing_names("games.api._replay_answer, games.web.gone, "
                         "ladder.serving.ThreadedDjango.nothing") == [
        "games.api._replay_answer", "games.web.gone", "ladder.serving.ThreadedDjango.nothing"]
    assert missing_names("`games.fastjson` (deleted) once") == []
