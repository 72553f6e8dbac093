"""One core for a host and its engines: where they run decides how fast they take turns.

A host and its engine alternate (one write, one read a decision), so together they keep about one core
busy. Left to the scheduler, the engine is often woken on the other core (an inter-processor interrupt,
dear on a VM's idle vCPU) and the pair runs far slower than on one core (docs/engines.md has the
figures). So a process that seats engines pins itself, and through it the engines it starts
(a child inherits its parent's CPUs), to one core: each tournament worker its own, round robin over the
cores the process may use (:func:`pin`); a run in one process for its duration, and a Dask worker for
each block it plays, on the core of its slot among the workers of its machine (:func:`pinned`).

``TEKKASIM_PIN_ENGINES=0`` turns it off. Where ``os.sched_setaffinity`` is missing (macOS, Windows) or
refused, nothing changes. Pinning moves no decision: the results are the same either way (tested).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

PIN_ENV = "TEKKASIM_PIN_ENGINES"


def enabled() -> bool:
    """Whether hosts of engines pin themselves (``$TEKKASIM_PIN_ENGINES`` not ``0``/``off``/``false``/``no``)."""
    return os.environ.get(PIN_ENV, "1").strip().lower() not in ("0", "off", "false", "no")


def allowed_cores() -> list[int]:
    """The CPUs this process may run on, in order; empty where the system cannot say."""
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return []


def core_for(index: int, cores: list[int]) -> int | None:
    """The core of worker ``index``: round robin over ``cores`` (None when there are none)."""
    return cores[index % len(cores)] if cores else None


def _set(pids: Iterable[int], cpus: set[int]) -> bool:
    setter = getattr(os, "sched_setaffinity", None)
    if setter is None:  # not Linux: left as is
        return False
    for pid in pids:
        try:
            setter(pid, cpus)
        except ProcessLookupError:  # a thread or an engine that has just ended
            continue
        except OSError:  # not permitted (a container's cpuset): left as is
            return False
    return True


def _threads() -> list[int]:
    """This process's threads (a CPU set belongs to a thread, and a new thread inherits its creator's):
    all of them where Linux lists them, else the calling one."""
    try:
        return [int(tid) for tid in os.listdir("/proc/self/task")]
    except (OSError, ValueError):
        return [0]


def _engine_pids() -> list[int]:
    from .host import running_engine_pids

    return running_engine_pids()


def pin(index: int, cores: list[int] | None = None) -> int | None:
    """Pin this process, and the engines it runs now (those it starts later inherit it), to the core of
    worker ``index`` among ``cores`` (default: the cores this process may use); return that core, or None
    when pinning is off or not possible here."""
    if not enabled():
        return None
    core = core_for(index, allowed_cores() if cores is None else cores)
    if core is None or not _set([*_threads(), *_engine_pids()], {core}):
        return None
    return core


def current_cpu() -> int | None:
    """The CPU this process runs on now (``/proc/self/stat``, field 39), or None where unknown."""
    try:
        with open("/proc/self/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[36])
    except (OSError, IndexError, ValueError):
        return None


@contextmanager
def pinned(seats_engine: bool = True, index: int | None = None) -> Iterator[int | None]:
    """While inside, this process and its engines run on one core: the core of worker ``index`` (round
    robin over the CPUs this process may use: a Dask worker's slot on its machine), or without ``index``
    the one it is on as it enters (a run in one process has no worker index). The CPUs it had are given
    back after, to its threads and its engines (a Dask worker may go on to serve other runs). Does nothing
    when ``seats_engine`` is False, pinning is off, or not possible here."""
    before = allowed_cores()
    core = None
    if seats_engine and enabled() and before:
        here = current_cpu() if index is None else None
        core = pin(0, [here]) if here in before else pin(index or 0, before)
    try:
        yield core
    finally:
        if core is not None:
            _set([*_threads(), *_engine_pids()], set(before))
