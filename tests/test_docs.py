"""The documentation runs as written: the README's Python blocks run, every example of every
docs page runs in order (Python, commands, the files they read), the README's examples pass
``mypy --strict``, ``house.toml`` loads, and the generated presets table says what the preset
files say."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import pytest

from ray_support import ray_head_process

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


def test_readme_python_blocks_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The README's blocks run in order in one namespace, as a reader would type them, in a
    # directory holding the house.toml the examples load (the docs pages: below).
    page = "README.md"
    shutil.copy(DOCS / "house.toml", tmp_path / "house.toml")
    monkeypatch.chdir(tmp_path)
    namespace: Dict[str, Any] = {"__name__": "__docs__"}
    for number, block in enumerate(python_blocks(page), 1):
        code = compile(block, f"{page}, python block {number}", "exec")
        exec(code, namespace)


# ------------------------------------------- every example of the docs site, in order


#: A fenced block: its language, the rest of its opening line (``title="table.json"``), its text.
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```", re.S | re.M)
TITLE = re.compile(r'title="([^"]+)"')

#: The languages of the docs' blocks. Run: python (in one namespace per page), sh (each
#: command), json and toml (a block with a title is a file the page's commands read, written
#: first; json without a title must parse; toml is a rule set). Not run: text (transcripts
#: of what a command printed, and synopses).
LANGUAGES = {"python", "sh", "json", "toml", "text"}

#: Work-size caps appended to a command (argparse takes an option's last value), so that
#: examples sized for a reader's hours run in seconds; their meaning is unchanged.
CAPS = {"simulate": ["-n", "120"], "train": ["--deals", "60", "--iterations", "2"]}


def blocks(page: str) -> List[Tuple[str, str, str]]:
    """A page's fenced blocks in order: ``(language, title or "", text)``, snippets
    (``--8<-- "FILE"``) replaced by the file."""
    out = []
    for lang, rest, body in FENCE.findall((ROOT / page).read_text(encoding="utf-8")):
        body = re.sub(r'^--8<-- "([^"]+)"$', lambda m: (ROOT / m.group(1)).read_text(encoding="utf-8"),
                      body, flags=re.M)
        title = TITLE.search(rest)
        out.append((lang, title.group(1) if title else "", body))
    return out


def commands(text: str) -> List[List[str]]:
    """The commands of an ``sh`` block: one a line, or several joined by ``&&``, comments
    dropped."""
    out = []
    for line in text.splitlines():
        words = shlex.split(line, comments=True)
        while words:
            cut = words.index("&&") if "&&" in words else len(words)
            out.append(words[:cut])
            words = words[cut + 1:]
    return out


def _extras() -> Dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_command(words: List[str], cwd: Path, ray: Dict[str, Any]) -> None:
    """Runs one command of the docs as a reader would, and checks it succeeds.

    ``pip install`` installs this package or one of its extras (checked to exist: the test
    environment has them all); ``python3 -m venv`` makes the environment it goes in;
    ``thirteen`` (also ``.venv/bin/thirteen``) runs this package's command with the caps of
    :data:`CAPS`, ``--ray ADDRESS`` pointed at a head started for the test (``--ray 10.0.0.5:6379``
    is never dialled), and ``serve`` on a free port until ``/health`` answers."""
    program = words[0].rsplit("/", 1)[-1]
    if program.startswith("python") and words[1:3] == ["-m", "venv"]:
        return
    if program in ("pip", "pip3"):
        assert words[1] == "install", words
        for wanted in words[2:]:
            name, _, extra = wanted.partition("[")
            assert name in (".", "thirteen"), f"pip installs something else: {wanted}"
            for e in extra.rstrip("]").split(","):
                assert not e or e in _extras(), f"no extra {e!r} in pyproject.toml"
        return
    assert program == "thirteen", f"a command the docs test does not know: {words}"
    args = words[1:] + CAPS.get(words[1], [])
    env = dict(os.environ)
    if "--ray" in args:
        args[args.index("--ray") + 1] = ray["address"]
        env.update(ray["env"])
    if args[0] == "serve":
        port = _free_port()
        server = subprocess.Popen([sys.executable, "-m", "thirteen", *args, "--port", str(port)], cwd=cwd,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                        assert r.status == 200
                        return
                except OSError:
                    assert server.poll() is None and time.monotonic() < deadline, "thirteen serve did not answer"
                    time.sleep(0.2)
        finally:
            server.terminate()
            server.wait(30)
    r = subprocess.run([sys.executable, "-m", "thirteen", *args], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, f"{' '.join(words)}\n{r.stderr}"
    assert r.stdout.strip(), f"{' '.join(words)} printed nothing"


DOC_PAGES = sorted(str(p.relative_to(ROOT)) for p in DOCS.glob("*.md"))


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dict[str, Any]]:
    """One Ray head for every docs command that names a cluster."""
    with ray_head_process(tmp_path_factory) as head:
        yield head


def _ray_commands(page: str) -> bool:
    return any("--ray" in w for lang, _, text in blocks(page) if lang == "sh" for w in commands(text))


@pytest.mark.parametrize("page", DOC_PAGES)
def test_every_example_of_the_page_runs(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        request: pytest.FixtureRequest) -> None:
    """Every block of the page, in order, as a reader would use it (see :data:`LANGUAGES`),
    in a directory holding ``house.toml`` and the page's files."""
    ray = request.getfixturevalue("ray_head") if _ray_commands(page) else {}
    shutil.copy(DOCS / "house.toml", tmp_path / "house.toml")
    monkeypatch.chdir(tmp_path)
    found = blocks(page)
    for lang, title, text in found:
        assert lang in LANGUAGES, f"{page}: a {lang or 'plain'} block (give it one of {sorted(LANGUAGES)})"
        if title:
            (tmp_path / title).write_text(text, encoding="utf-8")
    namespace: Dict[str, Any] = {"__name__": "__docs__"}
    for number, (lang, title, text) in enumerate(found, 1):
        if lang == "python":
            exec(compile(text, f"{page}, block {number}", "exec"), namespace)
        elif lang == "sh":
            for words in commands(text):
                run_command(words, tmp_path, ray)
        elif lang == "json" and not title:
            json.loads(text)
        elif lang == "toml":
            RuleSet.from_toml(text)


def test_the_docs_examples_are_found() -> None:
    """The collection sees the examples the pages hold (a change of fence syntax that hid
    them would pass every page silently)."""
    found = {page: [(lang, title) for lang, title, _ in blocks(page)] for page in DOC_PAGES}
    assert ("json", "table.json") in found["docs/cli.md"]
    assert ("toml", "") in found["docs/rule-files.md"]
    assert sum(lang == "sh" for page in found.values() for lang, _ in page) >= 10
    ran = [w for page in DOC_PAGES for lang, _, t in blocks(page) if lang == "sh" for w in commands(t)]
    for sub in ("play", "solve", "score", "simulate", "train", "demo", "serve"):
        assert any(w[0].endswith("thirteen") and w[1] == sub for w in ran), sub


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
