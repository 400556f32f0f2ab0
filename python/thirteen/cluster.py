"""Shards of work on a Ray cluster (the ``ray`` extra: ``pip install 'thirteen[ray]'``).

:func:`simulate <thirteen.simulate>` and :func:`train <thirteen.train>` split their work
into seeded shards whose results add up; :func:`session` connects to a cluster and
:meth:`RaySession.run` runs one function over the shards there, yielding each result as
its shard ends (the callers add integer counts, whose sum does not depend on the order).
The data the shards share is sent to the cluster once and fetched once by each worker
process; standard output points at standard error while a session is open, so that Ray's
messages never mix with a command's output. Ray is imported only here and only when a Ray
run starts, so everything else works without it.

Addresses (``address``): ``"local"`` starts a Ray runtime on this machine for the run and
stops it after; ``"auto"`` joins the cluster already running on this machine (``ray start
--head``); ``"HOST:PORT"`` joins the cluster whose head listens there; ``None`` lets Ray
choose (``RAY_ADDRESS``, a running cluster, or a new local one). A Ray runtime already initialised in this process (``ray.init`` by the
caller) is used as it is and left running.
"""

from __future__ import annotations

import importlib
import itertools
import os
import socket
import sys
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple, TypeVar

from thirteen.errors import BackendError

__all__ = [
    "BACKENDS",
    "CONNECT_SECONDS",
    "HEAD_CHECK_SECONDS",
    "RAY_MISSING",
    "RaySession",
    "check_head",
    "import_ray",
    "resolve_backend",
    "session",
    "stdout_to_stderr",
]

#: The backends of ``simulate`` and ``train``.
BACKENDS = ("local", "ray")

#: Seconds :func:`session` waits for a head's port to accept a connection.
CONNECT_SECONDS = 10.0

#: Seconds between checks, while a run waits for its shards, that the cluster's head still
#: accepts connections (each check waits at most as long).
HEAD_CHECK_SECONDS = 1.0

#: What a Ray run says when Ray is not installed.
RAY_MISSING = "Ray is not installed; a run on a Ray cluster needs it: pip install 'thirteen[ray]'"

C = TypeVar("C")
S = TypeVar("S")
R = TypeVar("R")


def _check_type(address: Any) -> None:
    """TypeError unless ``address`` is a string or ``None``."""
    if address is not None and not isinstance(address, str):
        raise TypeError(f"address must be a str (local, auto or HOST:PORT), not {type(address).__name__}")


def resolve_backend(backend: Optional[str], address: Optional[str]) -> str:
    """The backend a run uses: ``backend``, or by default ``"ray"`` when an ``address`` is
    given and ``"local"`` otherwise; for ``"ray"``, Ray must import.

    Args:
        backend: ``"local"``, ``"ray"`` or ``None``.
        address: the Ray address asked for, or ``None``.

    Returns:
        ``"local"`` or ``"ray"``.

    Raises:
        TypeError: ``address`` neither a string nor ``None``.
        BackendError: an unknown backend, an address with ``"local"``, or Ray not installed.
    """
    _check_type(address)
    if backend is None:
        backend = "local" if address is None else "ray"
    if backend not in BACKENDS:
        raise BackendError(f"unknown backend {backend!r} (expected local or ray)", backend=str(backend))
    if backend == "local" and address is not None:
        raise BackendError(f"address {address!r} is for backend='ray'", backend="local")
    if backend == "ray":
        import_ray()
    return backend


def import_ray() -> Any:
    """The ``ray`` module (typed ``Any``: Ray ships no complete types).

    Raises:
        BackendError: Ray is not installed (the message says how to install it).
    """
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise BackendError(RAY_MISSING, backend="ray") from None


#: In a Ray worker process: the shared data of the runs it served last, by object id.
_RESOLVED: "OrderedDict[str, Any]" = OrderedDict()


def _run_shard(fn: Callable[[Any, Any], Any], prepare: Optional[Callable[[Any], Any]], box: List[Any],
               shard: Any) -> Any:
    """A Ray task: ``fn(common, shard)``, where ``box`` holds the object reference of the
    shared data (in a list, so that Ray does not resolve it for every task) and ``common``
    is that data, or ``prepare(data)`` with a ``prepare``: the first task of a run in a
    worker process fetches (and prepares) it, the next ones find it here."""
    key = box[0].hex()
    common = _RESOLVED.get(key, _RESOLVED)
    if common is _RESOLVED:
        common = import_ray().get(box[0])
        if prepare is not None:
            common = prepare(common)
        _RESOLVED[key] = common
        while len(_RESOLVED) > 2:  # a run's previous data (training: the last iteration's)
            _RESOLVED.popitem(last=False)
    return fn(common, shard)


class RaySession:
    """A connected Ray runtime that runs shards (see :func:`session`)."""

    def __init__(self, ray: Any, workers: Optional[int]) -> None:
        self._ray = ray
        self._workers = workers
        self._task = ray.remote(num_cpus=1, max_retries=2)(_run_shard)

    def _check_head(self) -> None:
        """Checks that the cluster's head (its GCS server) still accepts connections: Ray
        itself would wait a minute for a lost head, then end this process with exit code 1
        and a dump of its state.

        Raises:
            BackendError: the head does not accept a connection within
                :data:`HEAD_CHECK_SECONDS`.
        """
        address = self._ray.get_runtime_context().gcs_address
        host, _, port = str(address).rpartition(":")
        try:
            with socket.create_connection((host.strip("[]"), int(port)), timeout=HEAD_CHECK_SECONDS):
                return
        except OSError as exc:
            raise BackendError(
                f"lost the Ray cluster's head at {address}: {exc.strerror or exc} (the run stopped; "
                "start it again when the cluster is back)",
                backend="ray",
            ) from None

    def cpus(self) -> int:
        """The cluster's CPUs now (at least 1)."""
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def run(self, fn: Callable[[Any, S], R], common: C, shards: Iterable[S],
            prepare: Optional[Callable[[C], Any]] = None) -> Iterator[Tuple[int, R]]:
        """``fn(common, shard)`` for each shard, each call a Ray task of one CPU (retried
        twice when its worker or node dies), yielded as ``(index, result)`` as each ends,
        in any order.

        ``common`` is sent to the cluster once, and each worker process fetches it once
        (and, with ``prepare``, makes ``prepare(common)`` of it once, which ``fn`` is given
        instead: tables built from their counts, say).
        Shards are taken from ``shards`` as the work goes: at most ``workers`` (default:
        twice the cluster's CPUs) run at once, so a lazy plan of millions of shards stays
        lazy. When a shard fails or the caller stops early, the shards already running
        finish on the cluster and their results are dropped.

        Args:
            fn: a module-level function of the installed ``thirteen`` (workers import it by
                name), of ``common`` (or what ``prepare`` made of it) and one shard; its
                result is pickled back.
            common: the data every shard shares.
            shards: the shards.
            prepare: a module-level function of ``common``, run once per worker process.

        Yields:
            ``(index of the shard, its result)``.

        Raises:
            BackendError: the cluster lost a task's worker or node past its retries, or the
                head.
            ThirteenError: what ``fn`` raised (its own class, re-raised here).
        """
        ray = self._ray
        limit = self._workers or 2 * self.cpus()
        plan = enumerate(shards)
        try:
            box = [ray.put(common)]
            running: Dict[Any, int] = {}
            for index, shard in itertools.islice(plan, limit):
                running[self._task.remote(fn, prepare, box, shard)] = index
            while running:
                ready, _ = ray.wait(list(running), num_returns=1, timeout=HEAD_CHECK_SECONDS)
                if not ready:
                    self._check_head()
                    continue
                # Take every task done by now, and start as many new ones.
                ready, _ = ray.wait(list(running), num_returns=len(running), timeout=0)
                results = [(running.pop(ref), result) for ref, result in zip(ready, ray.get(ready))]
                for index, shard in itertools.islice(plan, len(results)):
                    running[self._task.remote(fn, prepare, box, shard)] = index
                yield from results
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, Exception):
                raise cause from None
            raise BackendError(f"a Ray task failed: {exc}", backend="ray") from None
        except ray.exceptions.RayError as exc:
            raise BackendError(f"the Ray cluster failed: {_first_line(exc)}", backend="ray") from None
        except (ConnectionError, OSError) as exc:
            raise BackendError(f"lost the Ray cluster: {_first_line(exc)}", backend="ray") from None
        # Shards still running when this stops early (an error, or the caller leaving the
        # loop) are left to finish and their results dropped: at most ``workers`` of them.
        # They are not cancelled: Ray's cancel can race with a task's completion and abort
        # the calling process (ray-project/ray#54846; seen here with Ray 2.60).

    def imap_unordered(self, fn: Callable[[Any, S], R], common: C, shards: Iterable[S],
                       prepare: Optional[Callable[[C], Any]] = None) -> Iterator[R]:
        """The results of :meth:`run`, as each shard ends."""
        for _, result in self.run(fn, common, shards, prepare):
            yield result

    def map(self, fn: Callable[[Any, S], R], common: C, shards: Iterable[S],
            prepare: Optional[Callable[[C], Any]] = None) -> List[R]:
        """The results of :meth:`run` as a list, in shard order."""
        return [result for _, result in sorted(self.run(fn, common, shards, prepare), key=lambda pair: pair[0])]


def _first_line(exc: BaseException) -> str:
    """An exception's message up to its first line break (Ray's carry pages of detail)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def check_head(address: Optional[str]) -> None:
    """Checks that a ``"HOST:PORT"`` (or ``"ray://HOST:PORT"``) address, or the cluster
    ``"auto"`` finds, answers as a Ray head before Ray is asked to join it: Ray itself
    retries an address with no cluster, or with another server, for minutes. The port must
    accept a connection and answer in HTTP/2, as Ray's gRPC services do (not checked when
    ``RAY_USE_TLS`` is set). ``None`` and ``"local"`` are left to Ray, and so is ``"auto"``
    when no running cluster is recorded on this machine.

    Args:
        address: the Ray address asked for.

    Raises:
        TypeError: ``address`` not a string.
        BackendError: the address has no port, its host does not resolve, or nothing there
            accepts a connection and answers as a Ray head within :data:`CONNECT_SECONDS`.
    """
    if address is None or address == "local":
        return
    _check_type(address)
    target = _recorded_cluster() if address == "auto" else address
    if target is None:
        return
    named = address if target == address else f"{target} (the cluster {address!r} finds)"
    hostport = target[len("ray://") :] if target.startswith("ray://") else target
    host, colon, port = hostport.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not (port.isascii() and port.isdigit()):
        raise BackendError(f"Ray address {address!r} is not local, auto or HOST:PORT", backend="ray")
    if not 0 < int(port) < 65536:
        raise BackendError(f"Ray address {address!r}: port {port} is not from 1 to 65535", backend="ray")
    try:
        with socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS) as sock:
            grpc = _answers_http2(sock)
    except OSError as exc:
        raise BackendError(
            f"no Ray cluster at {named}: {exc.strerror or exc} (start one with ray start --head)",
            backend="ray",
        ) from None
    if not grpc:
        raise BackendError(
            f"{named} does not answer as a Ray head (no gRPC there): give the head's address as "
            "ray start --head prints it (port 6379 by default), not the dashboard's",
            backend="ray",
        )


def _recorded_cluster() -> Optional[str]:
    """The address ``"auto"`` joins (``RAY_ADDRESS``, or the cluster last started on this
    machine), or ``None`` when Ray finds none or cannot say (Ray then reports it itself)."""
    try:
        from ray._private.services import canonicalize_bootstrap_address

        found = canonicalize_bootstrap_address("auto")
    except Exception:  # noqa: BLE001 - a private helper: whatever it raises, Ray says it again
        return None
    return found if isinstance(found, str) else None


#: An HTTP/2 client's connection preface and an empty SETTINGS frame (RFC 9113 §3.4).
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _answers_http2(sock: socket.socket) -> bool:
    """Whether the server on ``sock`` answers an HTTP/2 preface with a SETTINGS frame (as
    every gRPC server does); true without asking under ``RAY_USE_TLS``."""
    if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true", "yes"):
        return True
    sock.sendall(_HTTP2_PREFACE)
    head = b""
    while len(head) < 9:
        chunk = sock.recv(9 - len(head))
        if not chunk:
            break
        head += chunk
    return len(head) == 9 and head[3] == 4


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Points standard output at standard error for the duration of a ``with`` block: file
    descriptor 1 (what Ray's C++ side and the processes it starts write to; the raylet
    prints coloured messages there when a worker dies) and ``sys.stdout``. Restored after,
    so that what the caller prints next goes to standard output as usual."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):  # None, closed, or a pipe gone
            pass
    saved: Optional[int] = None
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:  # no descriptor 1 or 2 (a daemon): Python's own streams only
        if saved is not None:
            os.close(saved)
            saved = None
    old = sys.stdout
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        try:
            sys.stderr.flush()
        except (AttributeError, OSError, ValueError):
            pass
        sys.stdout = old
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


@contextmanager
def session(address: Optional[str] = None, *, workers: Optional[int] = None) -> Iterator[RaySession]:
    """Connects to a Ray cluster for the duration of a ``with`` block, with standard output
    pointed at standard error meanwhile (:func:`stdout_to_stderr`: whatever Ray prints, in
    any fault, stays off the caller's output).

    Args:
        address: ``"local"``, ``"auto"``, ``"HOST:PORT"`` or ``None`` (see the module docs).
        workers: most shards running or waiting at once (``None``: twice the cluster's
            CPUs); with ``"local"`` also the CPUs of the runtime started.

    Yields:
        The :class:`RaySession`.

    Raises:
        BackendError: Ray not installed, or no cluster reachable at ``address``.
    """
    ray = import_ray()
    if workers is not None and workers < 1:
        raise BackendError(f"workers must be at least 1, got {workers}", backend="ray")
    with stdout_to_stderr():
        started = False
        if not ray.is_initialized():
            options: Dict[str, Any] = {"logging_level": "ERROR", "log_to_driver": False}
            if address == "local":
                options.update(include_dashboard=False, num_cpus=workers)
            check_head(address)
            try:
                ray.init(address=address, **options)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise BackendError(
                    f"cannot connect to a Ray cluster at {address or 'the default address'}: {exc} "
                    "(a cluster started with token authentication needs RAY_AUTH_MODE=token here too)",
                    backend="ray",
                ) from None
            started = True
        try:
            yield RaySession(ray, workers)
        finally:
            if started:
                ray.shutdown()
