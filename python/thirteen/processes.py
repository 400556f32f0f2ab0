"""Shards of work on worker processes of this machine (the local backend of
:func:`simulate <thirteen.simulate>`): one process per core, each with its own interpreter,
so that the Python around the engine's calls runs on every core at once (threads share one
GIL: two of them were slower than one).

The processes are started with ``spawn`` (a fresh interpreter that imports ``thirteen``):
the engine's thread pool is running in this process, and a forked copy of it would have
none. A worker runs only ``thirteen``'s code, so it is started without the caller's main
module: a script that calls ``simulate`` needs no ``if __name__ == "__main__":`` guard. What
every shard shares (the run's :class:`~thirteen.simulation.Spec`, lane tables included) is
sent to each process once, when it starts, not with every shard.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import types
from multiprocessing.context import SpawnContext, SpawnProcess
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Generic, Iterable, Iterator, List, Optional, Set, TypeVar

from thirteen.errors import BackendError

__all__ = ["Pool"]

C = TypeVar("C")
S = TypeVar("S")
R = TypeVar("R")

#: In a worker process: the function every shard runs and the data it shares.
_JOB: Optional[Any] = None


@contextlib.contextmanager
def _without_main() -> Iterator[None]:
    """While a worker process is spawned, ``__main__`` is an empty module: ``multiprocessing``
    then tells the worker to import no main module (the caller's script would otherwise run
    again in every worker, and start processes of its own while the worker starts)."""
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


class _Process(SpawnProcess):
    """A spawned worker process started without the caller's main module."""

    @staticmethod
    def _Popen(process_obj: Any) -> Any:
        with _without_main():
            return SpawnProcess._Popen(process_obj)


class _Context(SpawnContext):
    """``spawn``, with :class:`_Process` for the processes."""

    Process = _Process


def _install(fn: Callable[[Any, Any], Any], common: Any) -> None:
    """A worker process's start: keeps ``fn`` and ``common`` for every shard, and leaves
    Ctrl-C to the parent (which stops the run; a worker would print a traceback)."""
    global _JOB
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _JOB = (fn, common)


def _started() -> bool:
    """A task that says a worker process is up (its ``_install`` has run)."""
    return _JOB is not None


def _call(shard: Any) -> Any:
    """One shard in a worker process: the installed function of the common data and it."""
    assert _JOB is not None, "a shard ran in a process that was not installed"
    fn, common = _JOB
    return fn(common, shard)


class Pool(Generic[C, S, R]):
    """``processes`` worker processes that each run ``fn(common, shard)`` on shards (a
    context manager: leaving it stops the processes, after the shards they are playing).

    Args:
        fn: a module-level function of the installed ``thirteen`` (workers import it by name).
        common: what every shard shares, pickled once to each process.
        processes: processes to start, at least 1 (they start now, in the background).
    """

    def __init__(self, fn: Callable[[C, S], R], common: C, processes: int) -> None:
        if processes < 1:
            raise BackendError(f"processes must be at least 1, got {processes}", backend="local")
        self.processes = processes
        self._executor = ProcessPoolExecutor(
            max_workers=processes, mp_context=_Context(),
            initializer=_install, initargs=(fn, common),
        )
        # One greeting per process: submitting them starts every process now.
        for _ in range(processes):
            self._executor.submit(_started)

    def __enter__(self) -> Pool[C, S, R]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def imap_unordered(self, shards: Iterable[S], here: Optional[Callable[[S], R]] = None) -> Iterator[R]:
        """The results of the shards, each as soon as it is done (in any order).

        Shards are taken from ``shards`` as the work goes: at most twice ``processes`` of
        them are queued or running in the processes at once, so a lazy plan of millions of
        shards stays lazy. With ``here``, this process plays shards too (``here(shard)``),
        one at a time whenever no process has a result ready: it works while the processes
        start, and a run on ``n`` cores needs ``n - 1`` processes.

        Raises:
            BackendError: a worker process died (killed, or out of memory).
            ThirteenError: what ``fn`` raised (its own class, re-raised here).
        """
        plan = iter(shards)
        pending: Set[Future[R]] = set()

        def fill() -> None:
            while len(pending) < 2 * self.processes:
                shard = next(plan, None)
                if shard is None:
                    return
                pending.add(self._executor.submit(_call, shard))

        try:
            fill()
            while pending:
                done = {f for f in pending if f.done()}
                if not done and here is not None:
                    shard = next(plan, None)
                    if shard is not None:
                        yield here(shard)
                        continue
                if not done:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                pending -= done
                results: List[R] = [f.result() for f in done]
                fill()  # the processes get new shards before this one adds the results
                yield from results
        except BrokenProcessPool as exc:
            raise BackendError(f"a worker process of this machine died: {exc}", backend="local") from None
        finally:
            for f in pending:
                f.cancel()

    def close(self) -> None:
        """Stops the processes: shards not started are dropped, those running finish."""
        self._executor.shutdown(wait=True, cancel_futures=True)
