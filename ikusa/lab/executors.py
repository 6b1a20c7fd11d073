"""Where the lab's tasks run: in-process, on local worker processes, or on a Dask cluster.

Every executor returns each task's results as soon as it finishes, in any order; the results
do not depend on the executor (integer aggregates merged in any order, seeds per chunk).

* ``--workers 1`` — a plain loop in this process.
* ``--workers N`` — ``concurrent.futures.ProcessPoolExecutor`` with N ``forkserver`` processes
  (about 2× on 2 cores for tasks of a second or more).
* ``--dask local`` — a ``distributed.LocalCluster`` of N single-threaded worker processes.
* ``--dask tcp://HOST:8786`` — an existing cluster (``dask scheduler`` + ``dask worker``,
  ``dask_jobqueue.SLURMCluster``, ``dask_kubernetes.operator.KubeCluster`` …).  Its workers
  must have the same ikusa version installed.

Dask is imported only when asked for (it costs about a second at start-up).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from ikusa.engine.errors import IkusaError, InputError


class Executor(Protocol):
    workers: int

    def run(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        """Run ``fn`` on every task; yield the results as they finish."""
        ...

    def close(self) -> None: ...


def cpu_count() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class SerialExecutor:
    workers = 1

    def run(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        for t in tasks:
            yield fn(t)

    def close(self) -> None:
        pass


class ProcessExecutor:
    """A pool of ``workers`` processes started with ``forkserver`` (never ``fork``: the
    progress bar runs a thread)."""

    def __init__(self, workers: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.workers = workers
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["ikusa.lab.seeds"])
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init,
                                         initargs=(os.getpid(),))

    def run(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        from concurrent.futures import as_completed
        from concurrent.futures.process import BrokenProcessPool

        futures = [self._pool.submit(fn, t) for t in tasks]
        try:
            for f in as_completed(futures):
                try:
                    yield f.result()
                except BrokenProcessPool:
                    raise IkusaError("a worker process died (killed, out of memory, or another ikusa version "
                                     "installed meanwhile); the finished chunks are kept: run again with "
                                     "--resume") from None
        finally:
            for f in futures:
                f.cancel()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def _worker_init(parent: int) -> None:
    """Workers leave Ctrl-C to the parent, which keeps the finished chunks and stops them; and
    they stop by themselves when the parent is gone (killed), instead of burning on."""
    import signal
    import threading
    import time

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(parent, 0)
            except OSError:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


class DaskExecutor:
    """A Dask ``Client`` on a new ``LocalCluster`` (``address="local"``) or an existing
    scheduler (``tcp://HOST:PORT``)."""

    def __init__(self, address: str, workers: int) -> None:
        import logging

        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError:  # pragma: no cover - the lab extra is missing
            raise InputError("--dask needs dask[distributed]: pip install 'ikusa[lab]'", field="--dask") from None
        self._cluster: Any = None
        if address == "local":
            self._cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                         dashboard_address=None, silence_logs=logging.ERROR)
            self._client: Any = distributed.Client(self._cluster)
        else:
            try:
                self._client = distributed.Client(address, timeout=10)
            except (OSError, TimeoutError) as exc:
                raise InputError(f"cannot reach the Dask scheduler {address}: {exc}", field="--dask") from None
        info = self._client.scheduler_info()
        self.workers = max(1, sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values()))

    def run(self, fn: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        as_completed: Any = importlib.import_module("distributed").as_completed
        futures = self._client.map(fn, list(tasks), pure=False)
        try:
            for f in as_completed(futures):
                yield f.result()
        finally:
            self._client.cancel(futures)

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(workers: int | None, dask: str | None) -> Executor:
    """``--workers`` (default: every core) and ``--dask`` (``local`` or ``tcp://…``)."""
    if workers is not None and workers < 1:
        raise InputError(f"--workers must be at least 1, not {workers}", field="--workers")
    n = workers if workers is not None else cpu_count()
    if dask:
        if dask != "local" and not dask.startswith(("tcp://", "tls://", "ws://", "wss://")):
            raise InputError(f"--dask wants 'local' or a scheduler address like tcp://HOST:8786, not {dask!r}",
                             field="--dask")
        return DaskExecutor(dask, n)
    if n == 1:
        return SerialExecutor()
    return ProcessExecutor(n)
