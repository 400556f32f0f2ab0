"""Type aliases of the public API, for annotating code that calls ``thirteen``.

``CardsLike``
    What every function that takes cards accepts: a string of card text
    (``"As Kd Tc"``, RULES.md 1) or an iterable of :class:`~thirteen.Card` or card text.
``Submission``
    What a seat submits for settlement (RULES.md 5): an :class:`~thirteen.Arrangement`
    or a :class:`~thirteen.Declaration` of a special hand (报到).
``PlayerId``
    How a server names a player at a :class:`~thirteen.Round` or
    :class:`~thirteen.Table`: a string or an integer.

For example, a table of submissions for :func:`thirteen.settle` is a
``list[Submission]``: ``table: list[Submission] = [Arrangement.parse(...),
Declaration(..., "dragon")]``.
"""

from __future__ import annotations

from typing import Iterable, Union

from thirteen._core import Arrangement, Card, Declaration

__all__ = ["CardsLike", "PlayerId", "Submission"]

CardsLike = Union[str, Iterable[Union[Card, str]]]
Submission = Union[Arrangement, Declaration]
PlayerId = Union[str, int]
