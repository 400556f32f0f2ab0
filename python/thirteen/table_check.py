"""Whether a table file is what training makes (``thirteen train --check FILE``, ``make
tables-check``): the file's tables are trained again and compared exactly, count by count and
log row by log row, and byte for byte when every table size is retrained.

The shipped tables are the fixed point of training with ``ev``'s search; a change of the search
or the scoring moves it, and the check then fails until ``make tables`` rebuilds the files.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from thirteen.rules import RuleSet
from thirteen.table_store import LANES, SizeTables, TableSet, size_groups

__all__ = ["check_sizes", "difference"]


def check_sizes(rules: RuleSet, players: Optional[Sequence[int]] = None) -> List[int]:
    """The table sizes to train to check ``players`` (default: every size the rules allow):
    each size with every size that shares its table (:func:`thirteen.table_store.size_groups`),
    since a shared table is trained at the group's largest size.

    Raises:
        PlayerCountError: a size the rules do not allow.
    """
    wanted = sorted(set(players)) if players is not None else sorted(rules.players)
    for p in wanted:
        rules.check_players(p)
    return sorted({p for g in size_groups(rules) if set(g) & set(wanted) for p in g})


def difference(blob: bytes, trained: TableSet) -> Optional[str]:
    """``None`` when the table file ``blob`` holds exactly ``trained`` for the sizes trained
    (and, when ``trained`` covers every table size of the file, is the bytes
    :meth:`TableSet.to_bytes` writes); else a sentence naming the first difference.

    Raises:
        ValueError: ``blob`` is not a table file (:meth:`TableSet.from_bytes`).
    """
    shipped = TableSet.from_bytes(blob)
    found = _first_difference(shipped, trained)
    if found is None and {s.players for s in shipped.sizes} == {s.players for s in trained.sizes}:
        if trained.to_bytes() != blob:
            found = "the same tables, in other bytes than TableSet.to_bytes writes"
    return found


def _first_difference(shipped: TableSet, trained: TableSet) -> Optional[str]:
    """The first field in which ``shipped`` differs from ``trained`` at the sizes trained."""
    for what in ("key", "settings", "name"):
        a, b = getattr(shipped, what), getattr(trained, what)
        if a != b:
            return f"its {what} {a!r} {'are' if what == 'settings' else 'is'} not training's {b!r}"
    for group in trained.sizes:
        mine = [s for s in shipped.sizes if s.players == group.players]
        if not mine:
            held = ", ".join(_sizes(s.players) for s in shipped.sizes)
            return f"it holds no table for {_sizes(group.players)} players (it holds {held})"
        found = _group_difference(mine[0], group)
        if found is not None:
            return f"at {_sizes(group.players)} players, {found}"
    return None


def _group_difference(shipped: SizeTables, trained: SizeTables) -> Optional[str]:
    """The first difference of one size group: the log's length, its rows, then the counts."""
    if len(shipped.log) != len(trained.log):
        return f"training ran {len(trained.log)} iterations, the file records {len(shipped.log)}"
    for a, b in zip(shipped.log, trained.log):
        if tuple(a) != tuple(b):
            return f"log row {list(a)} where training logs {list(b)}"
    parts: List[Tuple[str, Any, Any]] = [(lane, shipped.counts[lane], trained.counts[lane]) for lane in LANES]
    a_classes, b_classes = shipped.counts.get("classes"), trained.counts.get("classes")
    if (a_classes is None) != (b_classes is None) or len(a_classes or ()) != len(b_classes or ()):
        return f"{len(a_classes or ())} classes where training counts {len(b_classes or ())}"
    for k, (a_class, b_class) in enumerate(zip(a_classes or (), b_classes or ())):
        parts += [(f"class {k} {lane}", a_class[lane], b_class[lane]) for lane in LANES]
    for where, a_pairs, b_pairs in parts:
        if list(a_pairs) != list(b_pairs):
            return f"the {where} counts differ: {_first_pair(a_pairs, b_pairs)}"
    return None


def _first_pair(a: Sequence[Tuple[int, int]], b: Sequence[Tuple[int, int]]) -> str:
    """Where two ``(value, count)`` lists first differ."""
    for i, (x, y) in enumerate(zip(a, b)):
        if tuple(x) != tuple(y):
            return f"pair {i} is {tuple(x)} in the file, {tuple(y)} trained"
    return f"the file has {len(a)} values, training {len(b)}"


def _sizes(players: Tuple[int, ...]) -> str:
    return ",".join(map(str, players))
