"""Helpers shared by the tests: the two implementations and the handed test vectors."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, List

import thirteen
import thirteen.reference

IMPLEMENTATIONS = {"core": thirteen, "reference": thirteen.reference}


def cases_dir() -> Path:
    """The shared test vectors: ``$THIRTEEN_CASES`` or ``../shared/cases`` beside the repo."""
    env = os.environ.get("THIRTEEN_CASES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[1].parent / "shared" / "cases"


def load_cases() -> List[Dict[str, Any]]:
    """Every case of every ``*.json`` file in the cases folder (empty when it is absent)."""
    folder = cases_dir()
    out: List[Dict[str, Any]] = []
    for path in sorted(folder.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            case = dict(case)
            case["_file"] = path.name
            out.append(case)
    return out
