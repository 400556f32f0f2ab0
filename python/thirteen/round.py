"""The round's names at their former home: :mod:`thirteen.game.round` and
:mod:`thirteen.game.result` hold them."""

from thirteen.game._args import CardsLike, PlayerId, Submission  # noqa: F401  (importable, as before)
from thirteen.game.round import *  # noqa: F403
from thirteen.game.round import __all__ as __all__
