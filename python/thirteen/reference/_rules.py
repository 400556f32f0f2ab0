"""How the reference reads a rule set.

Every public function takes ``rules=None``; ``None`` means ``RuleSet.default()``, and
anything that is not a :class:`thirteen.RuleSet` is a ``TypeError`` naming ``rules``, as
in the core. ``thirteen.rules`` is imported lazily, so this package imports even where
the rule-set module is not available yet. Only the attributes listed in API.md's RuleSet
section are read.
"""

from __future__ import annotations

from typing import Any


def resolve(rules: Any) -> Any:
    """Return ``rules``, or ``RuleSet.default()`` when it is ``None``.

    Raises:
        TypeError: ``rules`` is neither a ``RuleSet`` nor ``None``.
    """
    from thirteen.rules import RuleSet  # lazy: see the module docstring

    if rules is None:
        return RuleSet.default()
    if not isinstance(rules, RuleSet):
        raise TypeError(
            f"rules must be a thirteen.RuleSet or None, got {type(rules).__name__}"
        )
    return rules
