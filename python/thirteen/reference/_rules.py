"""How the reference reads a rule set.

Every public function takes ``rules=None``; ``None`` means ``RuleSet.default()``.
``thirteen.rules`` is imported lazily, so this package imports even where the
rule-set module is not available yet. Only the attributes listed in API.md's
RuleSet section are read (duck typing): any object with those attributes works.
"""

from __future__ import annotations

from typing import Any


def resolve(rules: Any) -> Any:
    """Return ``rules``, or ``RuleSet.default()`` when it is ``None``."""
    if rules is not None:
        return rules
    from thirteen.rules import RuleSet  # lazy: see the module docstring

    return RuleSet.default()
