"""Griffe extension of the docs build: docstrings for the compiled core, Markdown for roles.

The API pages read ``python/thirteen`` as source. The compiled core ``thirteen._core`` is
read from its stub ``_core.pyi`` (exact signatures, no docstrings), so this extension
copies each core object's docstring from the installed extension module, where the Rust
``///`` comments put them. It also turns Sphinx roles (``:class:`RuleSet```) into plain
inline code, which Markdown shows as it is meant.
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any, Optional

import griffe

ROLE = re.compile(r":(?:class|func|meth|attr|data|mod|exc|obj):`(~?)([^`]+)`")


def _runtime_doc(path: str) -> Optional[str]:
    """The docstring of the installed object at ``path`` (``thirteen._core.Card.rank``)."""
    parts = path.split(".")
    obj: Any = importlib.import_module("thirteen._core")
    for name in parts[2:]:
        obj = getattr(obj, name, None)
        if obj is None:
            return None
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    # Only an object's own docstring: not a type's inherited from ``object``, not a
    # constant's that is its class's (``Rank.ACE``), not ``object.__init__``'s.
    if isinstance(obj, type):
        inherited = getattr(obj.__mro__[1], "__doc__", None)
    elif hasattr(object, parts[-1]):
        inherited = getattr(object, parts[-1]).__doc__
    else:
        inherited = getattr(type(obj), "__doc__", None)
    if doc == inherited:
        return None
    return inspect.cleandoc(doc)


def _markdown(text: str) -> str:
    # ``~a.b.C`` shows as ``C``, as Sphinx does.
    return ROLE.sub(lambda m: f"``{m.group(2).split('.')[-1] if m.group(1) else m.group(2)}``", text)


class CoreDocstrings(griffe.Extension):
    """Fills the core's docstrings from the extension module; roles become code."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.name != "thirteen":
            return
        self._walk(pkg)

    def _walk(self, obj: griffe.Object) -> None:
        for member in list(obj.members.values()):
            if member.is_alias:
                continue
            target: griffe.Object = member  # type: ignore[assignment]
            if target.path.startswith("thirteen._core") and target.docstring is None:
                doc = _runtime_doc(target.path)
                if doc is not None:
                    target.docstring = griffe.Docstring(doc, parent=target)
            if target.docstring is not None:
                target.docstring.value = _markdown(target.docstring.value)
            if target.is_module or target.is_class:
                self._walk(target)
