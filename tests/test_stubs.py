"""The ``_core.pyi`` stubs and ``py.typed`` stay in step with the compiled extension."""

from __future__ import annotations

import ast
from importlib.resources import files

import thirteen
import thirteen._core as core


def _stub_tree() -> ast.Module:
    text = (files("thirteen") / "_core.pyi").read_text(encoding="utf-8")
    return ast.parse(text)


def test_py_typed_is_shipped() -> None:
    assert (files("thirteen") / "py.typed").is_file()


def test_every_public_name_has_a_stub_and_back() -> None:
    tree = _stub_tree()
    stubbed = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    stubbed |= {
        t.id
        for n in tree.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
        for t in [n.target]
    }
    # Re-exports written ``from module import Name as Name`` (the enums of thirteen.enums).
    stubbed |= {
        alias.asname
        for n in tree.body
        if isinstance(n, ast.ImportFrom)
        for alias in n.names
        if alias.asname == alias.name
    }
    public = {name for name in dir(core) if not name.startswith("_")} | {"__version__"}
    assert public - stubbed == set(), "names missing from _core.pyi"
    exists = set(dir(core))
    assert {n for n in stubbed if not n.endswith("Like")} - exists == set(), "stubs of names that do not exist"


def test_class_members_have_stubs() -> None:
    tree = _stub_tree()
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(core, node.name)
        stubbed = {
            n.name if isinstance(n, ast.FunctionDef) else n.target.id  # type: ignore[union-attr]
            for n in node.body
            if isinstance(n, (ast.FunctionDef, ast.AnnAssign))
        }
        public = {m for m in dir(cls) if not m.startswith("_")}
        assert public - stubbed == set(), f"{node.name}: members missing from _core.pyi"


def test_package_exports_exist() -> None:
    for name in thirteen.__all__:
        assert hasattr(thirteen, name), name
