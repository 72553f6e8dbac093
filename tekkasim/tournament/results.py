"""Reading a stored run: per-deal results as a pandas DataFrame (:func:`load_run`), the pairs of each
pairing, deal records rebuilt by replay (:func:`iter_records`), and CSV / Parquet exports.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from ..files import part_path
from .config import TournamentError
from .play import SEAT_NAMES, replay_deals, seat_order
from .storage import Store


def team_names(identity: dict) -> list[str]:
    return [a if a == b else f"{a}+{b}" for a, b in identity["teams"]]


def pairings(identity: dict) -> list[tuple[int, int]]:
    n = len(identity["teams"])
    if identity["schedule"] == "gauntlet":
        return [(0, j) for j in range(1, n)]
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def seats(identity: dict, pairing: int, table: int) -> dict[str, str]:
    """``{"bottom": label, "right": ..., "top": ..., "left": ...}`` at one table of a pairing."""
    x, y = pairings(identity)[pairing]
    teams = identity["teams"]
    return {SEAT_NAMES[s]: teams[(x, y)[team]][member] for s, (team, member) in enumerate(seat_order(table))}


def pair_rows(identity: dict, rows: list[tuple]) -> list[dict]:
    """One dict per complete pair (both tables stored): pairing, board, x, y (team names), the teams'
    bots, and X's margin over the two tables."""
    names, pairs_ = team_names(identity), pairings(identity)
    halves: dict[tuple[int, int], float] = {}
    out = []
    for p, board, _table, xr, yr, *_ in rows:
        key = (p, board)
        if key not in halves:
            halves[key] = xr - yr
            continue
        x, y = pairs_[p]
        out.append(
            {
                "pairing": p,
                "board": board,
                "x": names[x],
                "y": names[y],
                "x_bots": tuple(identity["teams"][x]),
                "y_bots": tuple(identity["teams"][y]),
                "margin": halves.pop(key) + xr - yr,
            }
        )
    return out


def pair_arrays(directory: str | os.PathLike):
    """``(identity, pairs)`` of a stored run: ``pairs`` a ``ratings.Pairs`` of every complete pair, built
    from the store's numpy columns block by block (no Python object per pair), plus ``pairing`` (the
    pairing index of each pair) as a second array: ``(identity, pairs, pairing)``."""
    import numpy as np

    from ..ratings import Pairs

    with Store.read(directory) as store:
        identity = store.identity
        ps, boards, margins = store.margins()
    teams = identity["teams"]
    bots = list(dict.fromkeys(lab for team in teams for lab in team))
    index = {b: i for i, b in enumerate(bots)}
    px = np.array([x for x, _ in pairings(identity)], np.int64)[ps] if len(ps) else np.zeros(0, np.int64)
    py = np.array([y for _, y in pairings(identity)], np.int64)[ps] if len(ps) else np.zeros(0, np.int64)
    first = np.array([index[t[0]] for t in teams], np.int64)
    second = np.array([index[t[1]] for t in teams], np.int64)
    pairs = Pairs(bots, first[px], second[px], first[py], second[py], boards, margins)
    return identity, pairs, ps


DEAL_COLUMNS = [
    "pairing",
    "x",
    "y",
    "board",
    "table",
    "deal_no",
    "seed",
    "return_a",
    "return_b",
    "x_return",
    "y_return",
    *SEAT_NAMES,
    "table_x_return",
    "table_y_return",
]


def deal_frames(directory: str | os.PathLike, rows_per_frame: int = 100_000) -> Iterator:
    """:func:`load_run`'s rows as DataFrames of about ``rows_per_frame`` deals each, read block by block
    (bounded memory, for exports of any size)."""
    import pandas as pd

    with Store.read(directory) as store:
        identity = store.identity
        names, pairs_ = team_names(identity), pairings(identity)
        records: list[tuple] = []
        for p, board, table, tx, ty, deals in store.tables():
            x, y = pairs_[p]
            seat = seats(identity, p, table)
            for j, (seed, ra, rb, _actions) in enumerate(deals):
                xr, yr = (ra, rb) if table == 0 else (rb, ra)
                records.append((p, names[x], names[y], board, table, j, seed, ra, rb, xr, yr, *seat.values(), tx, ty))
            if len(records) >= rows_per_frame:
                yield pd.DataFrame.from_records(records, columns=DEAL_COLUMNS)
                records = []
        if records:
            yield pd.DataFrame.from_records(records, columns=DEAL_COLUMNS)


def load_run(directory: str | os.PathLike):
    """Every deal of a run as a pandas DataFrame, one row per deal played: ``pairing``, ``x``, ``y``,
    ``board``, ``table``, ``deal_no``, ``seed``, ``return_a``, ``return_b`` (records' teams A and B),
    ``x_return``, ``y_return`` (the same from the pairing's teams), the bots at ``bottom`` .. ``left``,
    and ``table_x_return`` / ``table_y_return`` (the table's totals: the match result for ``--unit match``).

    >>> load_run("no/such/dir")
    Traceback (most recent call last):
    ...
    tekkasim.tournament.config.TournamentError: no run directory no/such/dir
    """
    import pandas as pd

    frames = list(deal_frames(directory))
    if not frames:
        return pd.DataFrame.from_records([], columns=DEAL_COLUMNS)
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


def iter_records(directory: str | os.PathLike, boards: int | None = None) -> Iterator[dict]:
    """Deal records (records.md) of every stored deal, rebuilt by replaying the stored actions, with
    ``players``, ``bots``, ``seed``, ``board`` and, for ``--unit match``, ``match`` and ``deal_no``; read
    one block at a time. ``boards``: only those of the first ``boards`` boards of each pairing (the others
    are not replayed)."""
    from ..rules import get_game

    with Store.read(directory) as store:
        identity = store.identity
        game = get_game(identity["ruleset"], **identity["options"])
        names, pairs_ = team_names(identity), pairings(identity)
        for p, board, table, _xr, _yr, deals in store.tables():
            if boards is not None and board >= boards:
                continue
            x, y = pairs_[p]
            players = seats(identity, p, table)
            for j, state in enumerate(replay_deals(game, deals)):
                record = state.to_record()
                record["seed"] = deals[j][0]
                record["players"] = dict(players)
                record["bots"] = dict(players)
                record["board"] = {"index": board, "table": table, "x": names[x], "y": names[y]}
                if identity["unit"] == "match":
                    record["match"] = f"{identity['ruleset']}-p{p}-b{board}-t{table}"
                    record["deal_no"] = j
                yield record


def digest(directory: str | os.PathLike) -> str:
    """A run's results as one SHA-256 (``Store.digest``): equal for equal stored results, whatever the
    blocks they were played and stored in."""
    with Store.read(directory) as store:
        return store.digest()


def export_records(directory: str | os.PathLike, out: str | os.PathLike) -> int:
    """Write every deal record of a run to ``out`` (``.jsonl`` or ``.jsonl.gz``); returns how many."""
    from ..records import write_records

    return write_records(out, iter_records(directory))


def export_table(directory: str | os.PathLike, out: str | os.PathLike) -> int:
    """Per-deal results (:func:`load_run`'s columns) as CSV, or Parquet when ``out`` ends in ``.parquet``
    (needs pyarrow), written frame by frame as the store is read (bounded memory), beside the target and
    renamed into place. Returns the number of rows."""
    target = Path(out)
    tmp = part_path(target)
    n = 0
    try:
        if target.suffix == ".parquet":
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError:
                raise TournamentError(
                    "Parquet export needs pyarrow (pip install pyarrow); use --csv FILE.csv"
                ) from None
            writer = None
            try:
                for frame in deal_frames(directory):
                    table = pa.Table.from_pandas(frame, preserve_index=False)
                    if writer is None:
                        writer = pq.ParquetWriter(tmp, table.schema)
                    writer.write_table(table)
                    n += len(frame)
                if writer is None:
                    load_run(directory).to_parquet(tmp, index=False)
            finally:
                if writer is not None:
                    writer.close()
        else:
            with open(tmp, "w", newline="", encoding="utf-8") as f:
                header = True
                for frame in deal_frames(directory):
                    frame.to_csv(f, index=False, header=header)
                    header = False
                    n += len(frame)
                if header:
                    load_run(directory).to_csv(f, index=False)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()
    return n
