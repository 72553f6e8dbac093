"""Compile (or load from numba's cache) the kernels a ruleset's play uses, before the real work starts.

Every process that plays compiles the kernels it touches on first use: much CPU for all four rulesets'
bots and the solver on a cold cache. When several processes start at once on a cold cache
(pytest-xdist workers, a tournament's pool) each compiles the same kernels. Warming once, the work split
into pieces shared by ``jobs`` processes, writes the cache that the others then load in a fraction of
the time.

``warm(["feskot"], search=False)`` warms only what Feskot's heuristic bots use.

``python -m tekkasim.bots.warm [--jobs N] [RULESET ...]`` warms in N processes at once (default: all
four rulesets, one process per core); it prints nothing and exits 0 when done.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..rules import get_game, ruleset_names


def _play_one(ruleset: str, seats: Sequence[str]) -> None:
    from . import get_bot
    from .loop import play_deal

    play_deal(get_game(ruleset).new_deal(1), [get_bot(n, ruleset=ruleset) for n in seats], 1)


def _seat_lists(ruleset: str, search: bool) -> list[tuple[str, ...]]:
    """The ruleset's warming seats (``Ruleset.warm``); without ``search`` only the lists with no search or
    oracle seat; RANDOM's deal when it names none."""
    from ..rulesets import get_ruleset
    from . import get_bot

    lists = [tuple(s) for s in get_ruleset(ruleset).warm]
    if not search:
        lists = [s for s in lists if all(get_bot(n, ruleset=ruleset).kind in ("baseline", "heuristic") for n in s)]
    return lists or [("RANDOM",) * 4]


def _compiled_loops(ruleset: str) -> None:
    from .compiled import compiled_loop, play_tables

    game = get_game(ruleset)
    game.play_random(4, 1)
    loop = compiled_loop(ruleset)
    if loop is not None:
        from ..rulesets import get_ruleset

        seats = [n for n in get_ruleset(ruleset).bots if n in ("JANGARA", "SADA")] or ["RANDOM", "RANDOM"]
        if seats[0] != "RANDOM" or getattr(loop, "RANDOM_FORM", None) is not None:
            play_tables(game, seats[0], seats[-1], [1, 2], 0)


def _tasks(rulesets: Sequence[str], search: bool) -> list[tuple[str, str]]:
    """Pieces of work, the costliest first. Rulesets whose bots share one compiled loop share their kernels:
    the first of them is warmed in pieces (ORACLE's solver, the loops, the bots), the others after it. Split
    this way, two processes share the work evenly and a later piece loads what an earlier one compiled
    instead of compiling it again."""
    from ..rulesets import get_ruleset

    loop_of = {r: get_ruleset(r).loop or r for r in rulesets}
    loops = list(loop_of.values())
    groups: dict[str, list[str]] = {}
    for r in rulesets:
        groups.setdefault(loop_of[r], []).append(r)
    shared = [g for key, g in groups.items() if loops.count(key) > 1]
    out: list[tuple[str, str]] = []
    for g in shared:
        if search:
            out.append((g[0], "oracle"))
        out.append((g[0], "loops"))
    out += [(r, "all") for key, g in groups.items() if loops.count(key) <= 1 for r in g]
    for g in shared:
        out.append((g[0], "seats"))
        out += [(r, "all") for r in g[1:]]
    return out


def _run(task: tuple[str, str], search: bool = True) -> None:
    from .oracle import Oracle

    ruleset, part = task
    if part == "oracle":
        if Oracle.plays(ruleset):
            _play_one(ruleset, ["ORACLE"] * 4)
        return
    if part in ("loops", "all"):
        _compiled_loops(ruleset)
    if part in ("seats", "all"):
        for seats in _seat_lists(ruleset, search):
            _play_one(ruleset, seats)


def warm(rulesets: Sequence[str] | None = None, search: bool = True, jobs: int = 1) -> None:
    """Play short deals of each ruleset with heuristic, search and oracle seats (``search=False``: heuristic
    seats only) and its compiled loops on two boards, so that their kernels are in numba's cache; with
    ``jobs`` > 1 in that many fresh processes at once."""
    tasks = _tasks(list(rulesets or ruleset_names()), search)
    if jobs <= 1:
        for t in tasks:
            _run(t, search)
        return
    import multiprocessing as mp
    from functools import partial

    with mp.get_context("spawn").Pool(min(jobs, len(tasks))) as pool:
        list(pool.imap_unordered(partial(_run, search=search), tasks, chunksize=1))


def main(argv: Sequence[str] | None = None) -> int:
    import argparse
    import os

    ap = argparse.ArgumentParser(prog="python -m tekkasim.bots.warm", description=__doc__.splitlines()[0])
    names = ruleset_names()
    ap.add_argument("rulesets", nargs="*", metavar="RULESET")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    unknown = [r for r in args.rulesets if r not in names]
    if unknown:
        ap.error(f"unknown ruleset {unknown[0]!r} (one of {', '.join(names)})")
    warm(args.rulesets or names, jobs=args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
