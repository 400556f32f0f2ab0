"""Plain data from outside (parsed JSON or TOML, dicts from a caller), looked at safely:
its size measured without recursion, so that input nested 10^5 deep is refused before
recursive code (``copy``, ``repr``, comparisons) meets it, and a short description of any
value for error messages."""

from __future__ import annotations

import re
import reprlib
from collections.abc import Mapping
from typing import Any, Optional, Tuple

_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = 60
_REPR.maxother = 60

#: The most items looked at before plain data counts as too large.
MAX_ITEMS = 100_000


def too_nested(value: Any, depth: int, items: int = MAX_ITEMS) -> Optional[str]:
    """Why ``value`` cannot be taken as plain data of at most ``depth`` levels (a bare
    value is level 0, a list of them level 1) and ``items`` items in all, or ``None``
    when it can. Strings and bytes are single items; self-containing data counts as too
    deep."""
    stack = [(value, 0)]
    seen = 0
    while stack:
        item, level = stack.pop()
        seen += 1
        if seen > items:
            return f"more than {items} items"
        if isinstance(item, (str, bytes, bytearray)):
            continue
        if isinstance(item, Mapping):
            children: Any = [*item.keys(), *item.values()]
        elif isinstance(item, (list, tuple, set, frozenset)):
            children = item
        else:
            continue
        if level + 1 > depth:
            return f"nested deeper than {depth} levels"
        stack.extend((child, level + 1) for child in children)
    return None


def short(value: Any) -> str:
    """A shortened ``repr`` of ``value`` (nested containers cut at 3 levels, text over 60
    characters abbreviated, integers over 192 bits given by size) for error messages;
    never raises."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 192:
        return f"<an integer of {value.bit_length()} bits>"
    try:
        return _REPR.repr(value)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # a failing __repr__ (even a Rust panic): name the type only
        return f"<{type(value).__name__}>"


def is_unicode(text: str) -> bool:
    """Whether ``text`` is valid Unicode: no lone surrogate (``"\\ud800"``), which UTF-8,
    JSON files and the compiled core cannot hold."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def describe(value: Any) -> str:
    """``value``'s type and :func:`short` text (``null``, ``bool true`` for JSON's
    words), for error messages; never raises."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"bool {str(value).lower()}"
    return f"{type(value).__name__} {short(value)}"


_AT = re.compile(r" - at `\$\.?(.*)`$")
_FIELD = re.compile(r"field `([^`]*)`")
_EXPECTED = re.compile(r"Expected `([^`]*)`, got `([^`]*)`")
_WORDS = {
    "int": "an integer", "str": "text", "array": "a list", "object": "an object",
    "null": "null", "float": "a number", "bool": "true or false",
}  # fmt: skip


def explain(error: Exception) -> Tuple[Optional[str], str]:
    """A msgspec validation error as ``(key, problem)``: the path of the field
    (``"players[1].front"``, or the missing or unknown field's name) and the problem in
    words ("must be an integer or null, got text")."""
    text = str(error)
    at = _AT.search(text)
    problem = _AT.sub("", text)
    key = at.group(1) if at else None
    if key is None:
        field = _FIELD.search(problem)
        key = field.group(1) if field else None
    expected = _EXPECTED.fullmatch(problem)
    if expected is not None:
        wanted = " or ".join(_WORDS.get(t.strip(), t.strip()) for t in expected.group(1).split("|"))
        problem = f"must be {wanted}, got {_WORDS.get(expected.group(2), expected.group(2))}"
    return key or None, problem
