"""Loading a save at its former home: :mod:`thirteen.game.replay` holds it."""

from thirteen.game.replay import round_from, table_from

__all__ = ["round_from", "table_from"]
