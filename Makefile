# One front door for developer commands; CI calls `make test` too.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: test rust-test python-test lint bench tables

## Every test: Rust formatting, lints and tests, then pytest against the installed package.
test: lint rust-test python-test

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings

rust-test:
	cargo test --workspace

python-test:
	$(PY) -m pytest

## Benchmarks: pytest-benchmark (core vs reference) and the Rust criterion bench.
bench:
	$(PY) -m pytest benches --benchmark-only
	cargo bench -p thirteen-core

## The shipped lane tables: `thirteen train` with its defaults, one file per play key
## (kaixin-swap plays with kaixin's tables: swapping does not change the play key).
TABLE_PRESETS := kaixin kaixin-extra shisanzhang bianfeng luosong western-2-4 western-1-6
tables:
	rm -f python/thirteen/tables/*.json.gz
	for p in $(TABLE_PRESETS); do $(VENV)/bin/thirteen train --rules $$p --out python/thirteen/tables/$$p.json.gz --quiet || exit 1; done
