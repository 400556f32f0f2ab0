"""Rounds and tables as a server drives them (RULES.md 5, 7 and 8), and their saves.

``round`` (:class:`~thirteen.Round`), ``result`` (:class:`~thirteen.RoundResult`),
``table`` (:class:`~thirteen.Table` and its :class:`~thirteen.TableRound` view),
``saves`` (the save format and its signature), ``replay`` (a save loaded by replaying
it through the public methods) and ``decisions`` (what the engine decides for a seat: its
swap-three gift, its play or its surrender). The names are exported by :mod:`thirteen`.
"""
