"""The engine's numeric bounds (README, "Numeric bounds"): within them no amount can overflow.

Every amount in a rule set is at most ``MAX_RULE_UNITS``; a banker-mode stake multiplier
is at most ``MAX_STAKE_MULTIPLIER``; so one seat's units in a round stay below
``96 × MAX_RULE_UNITS × MAX_STAKE_MULTIPLIER`` (three opponents, each pair at most 32 × the
largest amount) plus escape penalties, under ``MAX_UNITS``; and money, ``units × stake``
with ``stake <= MAX_STAKE``, stays within 10**18 < 2**63. The Rust core checks the same
numbers (``thirteen_core::limits``); a test keeps both in step. Plain Python, so that the
reference implementation can use it too.
"""

from __future__ import annotations

__all__ = ["MAX_RULE_UNITS", "MAX_STAKE_MULTIPLIER", "MAX_UNITS", "MAX_STAKE"]

#: Largest amount of any rule-set entry, in units.
MAX_RULE_UNITS = 10_000
#: Largest banker-mode stake multiplier of a seat.
MAX_STAKE_MULTIPLIER = 1_000
#: Largest units, positive or negative, of one seat that ``money`` takes.
MAX_UNITS = 1_000_000_000
#: Largest stake, in minor currency units per unit.
MAX_STAKE = 1_000_000_000
