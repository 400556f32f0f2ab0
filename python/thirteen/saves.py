"""The save format's names at their former home: :mod:`thirteen.game.saves` holds them."""

from thirteen.game.saves import *  # noqa: F403
from thirteen.game.saves import __all__ as __all__
from thirteen.game.saves import (  # noqa: F401  (importable, as before)
    DealSave, LadderSave, LevelSave, ResultSave, SubmissionSave, TablePlayerSave,
)  # fmt: skip
