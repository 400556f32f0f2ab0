# One front door for developer commands; CI calls `make test` too.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: test rust-test python-test lint bench

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
