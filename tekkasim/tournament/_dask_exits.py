"""How the Dask backend learns why a worker process ended: a nanny plugin that reports each worker's exit
status to the scheduler as an event, and the runner's lookup of it.

A Dask worker started with a nanny (a local cluster's, and ``dask worker``'s by default) is a child process
of that nanny, which alone sees its exit code (or the signal that killed it); the scheduler only sees the
worker go, and after ``distributed.scheduler.allowed-failures`` deaths fails the task with ``KilledWorker``,
naming the last worker's address. The plugin, registered by the runner on every nanny of the cluster
(and on nannies that join later), wraps the nanny's exit callback and logs ``{"worker": address,
"exitcode": code}`` under :data:`TOPIC`; :func:`exit_status` finds the entry for the worker a
``KilledWorker`` names. Imported only by the Dask backend (it imports ``distributed``); pickled by
reference, so the nannies of a remote cluster import it from their own tekkasim.
"""

from __future__ import annotations

import time

from distributed.diagnostics.plugin import NannyPlugin

TOPIC = "tekkasim-worker-exit"


class WorkerExits(NannyPlugin):
    """Log the exit status of every worker process a nanny runs that ends with a non-zero status."""

    name = "tekkasim-worker-exits"
    idempotent = True

    def setup(self, nanny) -> None:
        inner = nanny._on_worker_exit_sync  # what the nanny does when its worker process ends

        def on_exit(exitcode, _nanny=nanny, _inner=inner):
            if exitcode:
                try:
                    _nanny.log_event(TOPIC, {"worker": _nanny.worker_address, "exitcode": int(exitcode)})
                except Exception:  # noqa: BLE001 - the nanny is closing: nobody waits for the reason then
                    pass
            return _inner(exitcode)

        nanny._on_worker_exit_sync = on_exit  # the worker processes it starts from now on
        if nanny.process is not None:  # and the one running now
            nanny.process.on_exit = on_exit


def register(client) -> bool:
    """Register :class:`WorkerExits` on the cluster's nannies; False where that is not possible (then a
    dead worker's status is reported as unknown)."""
    try:
        client.register_plugin(WorkerExits())
    except Exception:  # noqa: BLE001 - an older scheduler, workers without nannies: not needed to play
        return False
    return True


def exit_status(client, address: str | None, wait: float = 3.0) -> int | None:
    """The exit status the nanny of the worker at ``address`` logged (negative: killed by that signal), or
    None when none came within ``wait`` seconds (the event may reach the scheduler after the task's
    failure reached the client)."""
    if not address:
        return None
    deadline = time.monotonic() + wait
    while True:
        try:
            events = client.get_events(TOPIC)
        except Exception:  # noqa: BLE001 - the cluster went away meanwhile
            return None
        for _when, msg in reversed(events):
            if isinstance(msg, dict) and msg.get("worker") == address:
                return int(msg["exitcode"])
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.1)
