"""Small bots for the tournament tests, given by import path (``tournament_bots:Highest``): two of
different strength, and bots that fail in each way the runner must survive or report."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from tekkasim.bots import Bot


class Highest(Bot):
    """Always the highest legal action (in Feskot: the highest card it may play); never accuses."""

    name = "HIGHEST"
    params_spec = ()

    def act(self, view, rng):
        return None if view.optional else max(view.legal)


class Lowest(Bot):
    """Always the lowest legal action."""

    name = "LOWEST"
    params_spec = ()

    def act(self, view, rng):
        return None if view.optional else min(view.legal)


class _After(Bot):
    """Acts as Highest; from its ``after``-th call in a process on, misbehaves, but only while the
    environment has TEKKASIM_TEST_MISBEHAVE=1 (so a test can "fix" the bot and resume the run)."""

    params_spec = ()
    after = 40

    def __init__(self, **params):
        super().__init__(**params)
        self.calls = 0

    def act(self, view, rng):
        self.calls += 1
        if self.calls >= self.after and not view.optional and os.environ.get("TEKKASIM_TEST_MISBEHAVE") == "1":
            return self.misbehave(view)
        return None if view.optional else max(view.legal)


class Raiser(_After):
    name = "RAISER"

    def misbehave(self, view):
        raise RuntimeError("boom")


class Illegal(_After):
    name = "ILLEGAL"

    def misbehave(self, view):
        return 999


class Hang(_After):
    name = "HANG"

    def misbehave(self, view):
        time.sleep(3600)


def crash_once_marker() -> Path:
    return Path(os.environ["TEKKASIM_CRASH_MARKER"])


class CrashOnce(Bot):
    """Plays like Highest, but the first process to reach its 50th decision kills itself with SIGKILL
    (once per marker file): a worker dying in the middle of a block."""

    name = "CRASHONCE"
    params_spec = ()

    def __init__(self, **params):
        super().__init__(**params)
        self.calls = 0

    def act(self, view, rng):
        self.calls += 1
        if self.calls == 50:
            marker = crash_once_marker()
            try:
                fd = os.open(marker, os.O_CREAT | os.O_EXCL)
                os.close(fd)
                os.kill(os.getpid(), signal.SIGKILL)
            except FileExistsError:
                pass
        return None if view.optional else max(view.legal)


class NiceProbe(Highest):
    """Plays like Highest and writes its process's nice value to $TEKKASIM_NICE_PROBE."""

    name = "NICEPROBE"

    def act(self, view, rng):
        Path(os.environ["TEKKASIM_NICE_PROBE"]).write_text(str(os.nice(0)))
        return super().act(view, rng)
