"""The documentation runs as written: the README's and the docs site's Python blocks run,
the README's examples pass ``mypy --strict``, ``house.toml`` loads, and the generated
presets table says what the preset files say."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

import thirteen
from thirteen import RuleSet

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
PAGES = ["README.md"] + sorted(str(p.relative_to(ROOT)) for p in DOCS.glob("*.md"))


def python_blocks(page: str) -> List[str]:
    return BLOCK.findall((ROOT / page).read_text(encoding="utf-8"))


def test_pages_with_examples_are_found() -> None:
    for page in ("README.md", "docs/tutorial.md", "docs/cards.md", "docs/rule-files.md"):
        assert python_blocks(page), page


@pytest.mark.parametrize("page", [p for p in PAGES if python_blocks(p)])
def test_python_blocks_run(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each page's blocks run in order in one namespace, as a reader would type them, in a
    # directory holding the house.toml the examples load.
    shutil.copy(DOCS / "house.toml", tmp_path / "house.toml")
    monkeypatch.chdir(tmp_path)
    namespace: Dict[str, Any] = {"__name__": "__docs__"}
    for number, block in enumerate(python_blocks(page), 1):
        code = compile(block, f"{page}, python block {number}", "exec")
        exec(code, namespace)


def test_readme_examples_pass_mypy_strict(tmp_path: Path) -> None:
    source = "\n\n".join(python_blocks("README.md"))
    path = tmp_path / "readme_examples.py"
    path.write_text(source, encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", str(ROOT / "pyproject.toml"),
         str(path)],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_house_toml_has_every_key_and_loads() -> None:
    rules = RuleSet.load(DOCS / "house.toml")
    assert rules.name == "house" and rules.horse_card == "Ah"
    raw = tomllib.loads((DOCS / "house.toml").read_text(encoding="utf-8"))
    # Every key of a rule set is written out (RULES.md 6), plus `base`.
    assert set(raw) - {"base"} == set(rules.to_dict())


# ---------------------------------------------------------------- the presets table


def _load_hook() -> Any:
    spec = importlib.util.spec_from_file_location("presets_table", DOCS / "hooks" / "presets_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _raw_preset(name: str) -> Dict[str, Any]:
    """A preset file with its base's keys under it (the tables named in RULES.md 6 are
    replaced whole, so a shallow merge of the top level and of lane_values is enough)."""
    path = ROOT / "python" / "thirteen" / "presets" / f"{name}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    base = data.pop("base", None)
    if base is None:
        return data
    merged = _raw_preset(base)
    lanes = {**merged.get("lane_values", {}), **data.pop("lane_values", {})}
    merged.update(data)
    merged["lane_values"] = lanes
    return merged


def _cells(table: str) -> Dict[str, Dict[str, str]]:
    lines = [line for line in table.splitlines() if line.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = {}
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = dict(zip(header, cells))
    return rows


def test_presets_table_lists_every_preset_file() -> None:
    hook = _load_hook()
    rows = _cells(hook.presets_table())
    files = {p.stem for p in (ROOT / "python" / "thirteen" / "presets").glob("*.toml")}
    assert set(rows) == files


@pytest.mark.parametrize("name", thirteen.RuleSet.presets())
def test_presets_table_matches_the_files(name: str) -> None:
    row = _cells(_load_hook().presets_table())[name]
    raw = _raw_preset(name)
    assert row["wheel A-5"] == raw.get("wheel", "low")
    assert row["ties"].startswith("suit") == (raw.get("tie_break") == "suit")
    assert row["compared"].startswith("banker") == (raw.get("mode") == "banker")
    for lane in ("front", "middle", "back"):
        table = dict(raw["lane_values"][lane])
        cell = row[lane]
        assert cell.split(" ")[0] == str(table.pop("base"))
        for category, units in table.items():
            assert f"{category.replace('_', ' ')} {units}" in cell, (lane, category)
        assert cell.count(",") == max(len(table) - 1, 0)
    specials = raw.get("specials", {})
    if specials:
        for key, units in specials.items():
            assert f"{key.replace('_', ' ')} {units}" in row["specials (units)"]
        assert row["specials (units)"].count(",") == len(specials) - 1
    else:
        assert row["specials (units)"] == "–"
    scoop = raw.get("scoop", {"kind": "none"})
    expected = {"none": "–", "double": "×2"}.get(scoop["kind"], f"+{scoop.get('units')}")
    assert row["scoop"] == expected
    assert row["foul"].startswith("rejected") == (raw.get("foul", "reject") == "reject")
    assert ("cut" in row["other"]) == bool(raw.get("cut", False))
    assert ("swap" in row["other"]) == ("swap" in raw)
    assert ("surrender" in row["other"]) == raw.get("surrender", {}).get("allowed", False)
    assert row["deck, dealt"] == f"{raw.get('deck', 'standard').replace('_', ' ')}, {raw.get('dealt', 13)}"
