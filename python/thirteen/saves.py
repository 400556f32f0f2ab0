"""The save format's names at their former home: :mod:`thirteen.game.saves` holds them."""

from thirteen.game.saves import (
    ROUND_FORMAT,
    TABLE_FORMAT,
    DealSave,
    LadderSave,
    LevelSave,
    ResultSave,
    RoundSave,
    SubmissionSave,
    TablePlayerSave,
    TableSave,
    decode,
    encode,
    result,
    shape,
)

__all__ = [
    "ROUND_FORMAT",
    "TABLE_FORMAT",
    "RoundSave",
    "TableSave",
    "decode",
    "encode",
    "result",
    "shape",
]
_shapes = (DealSave, LadderSave, LevelSave, ResultSave, SubmissionSave, TablePlayerSave)
