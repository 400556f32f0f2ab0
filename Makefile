# One front door for developer commands; CI calls `make test` too.
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: test rust-test python-test stubs lint bench

## Every test: Rust formatting, lints and tests, pytest against the installed package, and the
## extension's stubs checked against it.
test: lint rust-test python-test stubs

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings

rust-test:
	cargo test --workspace

python-test:
	$(PY) -m pytest

## _core.pyi matches the compiled extension, name by name and signature by signature.
stubs:
	$(PY) -m mypy.stubtest thirteen._core

## Benchmarks: pytest-benchmark (core vs reference) and the Rust criterion bench.
bench:
	$(PY) -m pytest benches --benchmark-only
	cargo bench -p thirteen-core
