# One front door for developer commands; CI calls `make test` too.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: test rust-test python-test stubs lint typecheck docs bench wheel tables tables-check

## Every test: Rust formatting, lints and tests, the type check, pytest against the
## installed package, the extension's stubs checked against it, and the documentation site
## built with warnings as errors.
test: lint typecheck rust-test python-test stubs docs

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings

## The package under mypy --strict ([tool.mypy] in pyproject.toml reads python/).
typecheck:
	$(PY) -m mypy -p thirteen --strict

rust-test:
	cargo test --workspace

python-test:
	$(PY) -m pytest

## _core.pyi matches the compiled extension, name by name and signature by signature.
stubs:
	$(PY) -m mypy.stubtest thirteen._core

## The documentation site (mkdocs.yml, docs/) into site/; any warning fails the build
## (no --quiet: it would hide the warnings that --strict counts).
docs:
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict

## Benchmarks: pytest-benchmark (core vs reference) and the Rust criterion bench.
bench:
	$(PY) -m pytest benches --benchmark-only
	cargo bench -p thirteen-core

## The shipped lane tables: `thirteen train` with its defaults, one file per play key
## (kaixin-swap plays with kaixin's tables: swapping does not change the play key; `default`
## is RuleSet.default(), the rules of calls without a rule set).
TABLE_PRESETS := default kaixin kaixin-extra shisanzhang bianfeng luosong western-2-4 western-1-6
tables:
	rm -f python/thirteen/tables/*.json.gz
	for p in $(TABLE_PRESETS); do $(VENV)/bin/thirteen train --rules $$p --out python/thirteen/tables/$$p.json.gz --quiet || exit 1; done
## The shipped tables are what `make tables` makes today: each preset retrained and compared
## byte for byte with its file (`thirteen train --check`), failing on the first file that
## differs. `make tables-check TABLE_PRESETS=kaixin TABLE_PLAYERS=2` checks a subset: those
## presets, and only the table of that size (trained with the sizes that share it).
TABLE_PLAYERS ?=
tables-check:
	for p in $(TABLE_PRESETS); do $(VENV)/bin/thirteen train --rules $$p --check python/thirteen/tables/$$p.json.gz \
		$(if $(TABLE_PLAYERS),--players $(TABLE_PLAYERS)) --quiet || exit 1; done
## The release wheel and sdist into dist/, as .github/workflows/release.yml builds Linux
## x86_64: one abi3 wheel for CPython >= 3.9, linked against glibc 2.17 through zig, so that
## it honestly carries manylinux2014 (manylinux_2_17); auditwheel checks the tag. Installs
## its own tools into the venv from the registry first (the venv is made if missing).
RELEASE_TOOLS := 'maturin>=1.9,<2' 'ziglang>=0.13' 'auditwheel>=6'
wheel:
	test -x $(PY) || python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet $(RELEASE_TOOLS)
	rm -f dist/thirteen-*
	PATH="$(abspath $(VENV))/bin:$$PATH" $(VENV)/bin/maturin build --release --zig \
		--compatibility manylinux2014 --out dist
	$(VENV)/bin/maturin sdist --out dist
	$(VENV)/bin/auditwheel show dist/thirteen-*-cp39-abi3-manylinux2014_x86_64*.whl
