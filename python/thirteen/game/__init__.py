"""Rounds and tables as a server drives them (RULES.md 5, 7 and 8), and their saves.

``round`` (:class:`~thirteen.Round`), ``result`` (:class:`~thirteen.RoundResult`),
``table`` (:class:`~thirteen.Table` and its :class:`~thirteen.TableRound` view),
``saves`` (the save format and its signature) and ``replay`` (a save loaded by replaying
it through the public methods). The names are exported by :mod:`thirteen`.
"""
