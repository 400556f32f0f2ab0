"""The ``thirteen`` command line (also ``python -m thirteen``).

Subcommands (one module each in :mod:`thirteen.commands`):
    play      deal and play a full round with AI players (代打), or arrange a seat yourself
    solve     the best arrangement of a hand, the runners-up, a held special
    score     settle submitted arrangements from a JSON file
    simulate  many rounds with chosen strategies, and a summary
    train     the ev strategy's lane tables for a preset or a rule file
    serve     the reference game server and web table (the ``server`` extra)
    demo      hand values, fouls and lane comparison on a few fixed hands

Every subcommand takes ``--json`` (JSON and nothing else on standard output) and
``--no-color``. Exit codes: 0 success, 2 bad input (bad cards, bad files, unknown presets,
bad options), 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional

import thirteen
from thirteen.commands import demo, play, score, simulate, solve, train
from thirteen.errors import ThirteenError
from thirteen.server.cli import add_serve_parser

__all__ = ["build_parser", "main"]

#: Exit code of a command stopped by Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``thirteen`` command."""
    parser = argparse.ArgumentParser(
        prog="thirteen",
        description="Engine for the card game Thirteen (十三水 / Chinese Poker).",
    )
    parser.add_argument("--version", action="version", version=thirteen.__version__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in (play, solve, score, simulate, train, demo):
        command.register(sub)
    add_serve_parser(sub)
    return parser


def _quiet_stdout() -> None:
    """Points standard output at /dev/null, so that flushing at exit fails no more."""
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``thirteen``; returns the process exit code (2 for bad input, 130
    when interrupted)."""
    try:
        args = build_parser().parse_args(argv)
        return int(args.func(args))
    except KeyboardInterrupt:
        # Ctrl-C: stop at once, without a traceback.
        _quiet_stdout()
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``thirteen play | head``): stop quietly.
        _quiet_stdout()
        return 0
    except (ThirteenError, OSError, ValueError) as exc:
        print(f"thirteen: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
