"""Bots that fail at a chosen table, for tests/test_faults.py: each plays as Highest until the tournament
reaches board ``board``, table ``table`` (read from the ``play_table`` frame that called it, so the test
knows exactly where the failure was), then ends its worker or hangs there, every time it gets there."""

from __future__ import annotations

import os
import signal
import sys
import time

from tournament_bots import Highest


def table_now() -> tuple[int, int] | None:
    """``(board, table)`` of the table this decision is part of (the runner's ``play_table`` or the
    ``_play_table_deals`` a block calls), or None."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name in ("play_table", "_play_table_deals"):
            return frame.f_locals["board"], frame.f_locals["table"]
        frame = frame.f_back
    return None


class _FailAt(Highest):
    board, table = 3, 1

    def act(self, view, rng):
        if not view.optional and table_now() == (self.board, self.table):
            self.fail()
        return super().act(view, rng)


class Exit3At(_FailAt):
    name = "EXIT3"

    def fail(self):
        os._exit(3)


class KilledAt(_FailAt):
    name = "KILLED"

    def fail(self):
        os.kill(os.getpid(), signal.SIGKILL)


class HangAt(_FailAt):
    name = "HANGAT"
    board = 2

    def fail(self):
        time.sleep(3600)


class ExitAlways(Highest):
    """Ends its process with exit code 3 at its first decision: on Dask, every worker that takes the task."""

    name = "EXITALWAYS"

    def act(self, view, rng):
        os._exit(3)


class Slow(Highest):
    """HIGHEST at 5 ms a decision: a run long enough to be stopped midway on a loaded machine, with the same
    stored results as HIGHEST's."""

    def act(self, view, rng):
        time.sleep(0.005)
        return super().act(view, rng)
