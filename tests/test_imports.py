"""The package has no import cycle (issue 53): a module never needs, even by a late import
inside a function, a module that needs it back. Read from the source with ``ast``, so
every ``import`` counts wherever it is written."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set

import thirteen

ROOT = Path(thirteen.__file__).resolve().parent


def modules() -> Dict[str, Path]:
    """Every module of the package by dotted name (``thirteen._core`` from its stub)."""
    out: Dict[str, Path] = {}
    for path in sorted(ROOT.rglob("*.py")) + sorted(ROOT.rglob("*.pyi")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.setdefault(".".join(parts), path)
    return out


def imports(name: str, path: Path, known: Dict[str, Path]) -> Set[str]:
    """The package's modules that ``name`` imports: ``from a import b`` is ``a.b`` when
    that is a module, else ``a``; a package's ``__init__`` counts only when imported
    for a name it defines."""

    def module_of(dotted: str) -> str:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted

    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: Set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: List[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        for target in targets:
            if target == "thirteen" or target.startswith("thirteen."):
                module = module_of(target)
                if module and module != name:
                    found.add(module)
    return found


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    out: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_package_has_no_import_cycle() -> None:
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    assert "thirteen.game.round" in graph["thirteen.game.table"]  # the graph is read
    assert cycles(graph) == []


def test_the_reader_sees_every_kind_of_import(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text(
        "from thirteen import _core, RuleSet\n"
        "from . import saves\n"
        "from .round import Round\n"
        "def late():\n"
        "    import thirteen.game.table\n",
        encoding="utf-8",
    )
    known = {
        name: ROOT / "x.py"
        for name in ("thirteen", "thirteen._core", "thirteen.game", "thirteen.game.saves",
                     "thirteen.game.round", "thirteen.game.table", "thirteen.game.x")
    }  # fmt: skip
    found = imports("thirteen.game.x", source, known)
    assert found == {
        "thirteen._core", "thirteen", "thirteen.game.saves", "thirteen.game.round",
        "thirteen.game.table",
    }  # fmt: skip
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_former_homes_of_rounds_tables_and_saves_still_import() -> None:
    import thirteen.restore
    import thirteen.round
    import thirteen.saves
    import thirteen.table
    from thirteen.game import replay, result, round as game_round, saves, table

    assert thirteen.round.Round is game_round.Round is thirteen.Round
    assert thirteen.round.RoundResult is result.RoundResult is thirteen.RoundResult
    assert thirteen.table.Table is table.Table is thirteen.Table
    assert thirteen.table.TableRound is table.TableRound
    assert thirteen.table.RoundStateError is thirteen.RoundStateError
    assert thirteen.saves.RoundSave is saves.RoundSave and thirteen.saves.encode is saves.encode
    assert thirteen.restore.round_from is replay.round_from
    for module in (thirteen.round, thirteen.table, thirteen.saves, thirteen.restore):
        for name in module.__all__:
            assert getattr(module, name) is not None
