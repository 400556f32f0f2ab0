"""The table's names at their former home: :mod:`thirteen.game.table` holds them."""

from thirteen.game.table import *  # noqa: F403
from thirteen.game.table import __all__ as __all__
