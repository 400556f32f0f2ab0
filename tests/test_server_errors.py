"""The room's refusal (``GameError``): every one carries the ``code`` the client's
``error`` frame names, so a refusal without one cannot be raised."""

from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy", reason="the server extra is not installed")
pytest.importorskip("msgspec")

from thirteen import ThirteenError  # noqa: E402
from thirteen.server.room import GameError  # noqa: E402


def test_a_refusal_carries_its_code():
    err = GameError("the table is full", code="table_full")
    assert isinstance(err, ThirteenError) and isinstance(err, ValueError)
    assert err.code == "table_full"
    assert err.message == "the table is full"
    assert err.details() == {"kind": "game", "code": "table_full"}


def test_a_refusal_without_a_code_is_a_type_error():
    with pytest.raises(TypeError):
        GameError("the table is full")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        GameError("the table is full", code="table_full", seat=2)  # type: ignore[call-arg]
