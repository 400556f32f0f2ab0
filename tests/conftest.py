"""Fixtures: each implementation in turn."""

from __future__ import annotations

from typing import Any

import pytest

from support import IMPLEMENTATIONS


@pytest.fixture(params=sorted(IMPLEMENTATIONS), ids=sorted(IMPLEMENTATIONS))
def impl(request: pytest.FixtureRequest) -> Any:
    """Each implementation in turn: the Rust core (``thirteen``) and ``thirteen.reference``."""
    return IMPLEMENTATIONS[request.param]
