"""Playing boards: one table of one board (a deal, or a whole match), and a block of boards for a worker.

Duplicate seating (runs.md): at table 0 team X sits bottom/top (team A of the records) and team Y
right/left; at table 1 the other way round. Both tables get the same deals: deal 0 of board i is dealt
from the board seed ``S + i`` with the ruleset's default first seat / dealer, and deal ``j > 0`` of a match
from ``mix_seed(board_seed, j)`` with the context the previous deal at that table leaves
(``next_deal_context``), so the cards repeat at both tables as long as the match does.

Every deal is played by ``tekkasim.bots.loop.play_deal`` (here ``play_deal_state``), the one play loop
and seed scheme: the seat to move decides with ``mix_seed(deal_seed, table, decision_number)``, an
out-of-turn seat with ``mix_seed(deal_seed, table, decision_number, seat)``, the seeds
``tekkasim.bots.compiled.play_tables`` uses in every ruleset, so a match-up of bots with compiled forms
plays the same actions in the compiled loop as here (with ``--unit deal`` the runner plays such a block
there, at engine speed). A table's play depends on nothing but the board, the table and the bots, so any
split of the boards over workers gives the same results.

A stored table keeps every deal's seed, returns and actions (``payload``), so that its records can be
rebuilt exactly by replaying the actions through the State API (:func:`replay_table`).
"""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from ..bits import highest, popcount
from ..bots import get_bot, mix_seed
from ..bots.loop import play_deal as play_deal_state  # the one play loop and seed scheme
from ..errors import BotError
from ..rules import get_game
from ..rulesets import get_ruleset, load_ref
from ._bitstream import finish, put, stream_bytes, words, work_array
from .config import Config, TournamentError

MAX_MATCH_DEALS = 2000  # a match that has not ended by then is a bug in a ruleset or a bot that never scores
SEAT_NAMES = ("bottom", "right", "top", "left")


def deal_seed(board_seed: int, deal_no: int) -> int:
    """The seed of deal ``deal_no`` of a board's match (deal 0 is the board seed itself)."""
    return board_seed if deal_no == 0 else mix_seed(board_seed, deal_no)


def seat_order(table: int) -> tuple[tuple[int, int], ...]:
    """For each seat (bottom, right, top, left): (team, member), team 0 = X, 1 = Y."""
    if table == 0:
        return ((0, 0), (1, 0), (0, 1), (1, 1))
    return ((1, 0), (0, 0), (1, 1), (0, 1))


@dataclass(frozen=True)
class Job:
    """What a worker needs to play any block of a tournament (small, picklable)."""

    ruleset: str
    options: dict
    unit: str
    seed: int
    teams: tuple  # per team: (spec, spec) as given to get_bot
    labels: tuple  # per team: (label, label)
    pairings: tuple  # (x, y) team indices
    use_compiled: bool = True  # play compiled match-ups in the bots' compiled loop (same results, faster)

    @classmethod
    def from_config(cls, cfg: Config, use_compiled: bool = True) -> Job:
        return cls(
            cfg.ruleset,
            dict(cfg.options),
            cfg.unit,
            cfg.seed,
            tuple(t.bots for t in cfg.teams),
            tuple(t.labels for t in cfg.teams),
            tuple(cfg.pairings()),
            use_compiled,
        )

    def team_name(self, team: int) -> str:
        a, b = self.labels[team]
        return a if a == b else f"{a}+{b}"

    def key(self) -> str:
        return json.dumps(
            [self.ruleset, self.options, self.unit, self.seed, self.labels, self.pairings, self.use_compiled],
            sort_keys=True,
            default=str,
        )


class _Context:
    """A worker's game and bot objects for one job, built once per process."""

    def __init__(self, job: Job):
        self.job = job
        self.game = get_game(job.ruleset, **job.options)
        self.bots = [tuple(get_bot(s, ruleset=self.game.name) for s in team) for team in job.teams]
        self.compiled = _compiled_play_tables() if job.use_compiled else None


_CACHE: dict[str, _Context] = {}


def context(job: Job) -> _Context:
    key = job.key()
    ctx = _CACHE.get(key)
    if ctx is None:
        _CACHE.clear()
        ctx = _CACHE[key] = _Context(job)
    return ctx


def _compiled_play_tables():
    try:
        from ..bots.compiled import play_tables
    except ImportError:
        return None
    return play_tables


def has_compiled_form(bot, ruleset: str) -> bool:
    """Whether ``bot`` (built for ``ruleset``) plays in that ruleset's compiled whole-deal loop."""
    try:
        from ..bots.compiled import compiled_form
    except ImportError:
        return False
    return compiled_form(bot, ruleset) is not None


def play_table(ctx: _Context, pairing: int, board: int, table: int) -> tuple:
    """One table as a row: ``(pairing, board, table, x_return, y_return, deals, payload)``."""
    xr, yr, deals = _play_table_deals(ctx, pairing, board, table)
    return (pairing, board, table, xr, yr, len(deals), pack(deals))


def _play_table_deals(ctx: _Context, pairing: int, board: int, table: int) -> tuple[float, float, list]:
    """``(x_return, y_return, deals)`` of one table, ``deals`` as ``[[seed, return_a, return_b, actions]]``."""
    job = ctx.job
    x, y = job.pairings[pairing]
    seats = [ctx.bots[(x, y)[team]][member] for team, member in seat_order(table)]
    board_seed = job.seed + board
    x_side = table  # team X is side A (0) at table 0, side B (1) at table 1
    deals, context_kw = [], {}
    for j in range(MAX_MATCH_DEALS):
        seed = deal_seed(board_seed, j)
        state = ctx.game.new_deal(seed, **context_kw)
        try:
            play_deal_state(state, seats, seed, table)
        except BotError as exc:
            raise BotError(
                f"{exc} at {job.team_name(x)} vs {job.team_name(y)}, board {board} (seed {board_seed})"
                f"{f', deal {j}' if job.unit == 'match' else ''}, table {table}"
            ) from None
        ret = state.returns()
        deals.append([seed, float(ret[0]), float(ret[1]), _jsonable(state.history())])
        if job.unit == "deal":
            totals = ret
            break
        winner = state.match_winner()
        if winner is not None:
            totals = (1.0, 0.0) if winner == 0 else (0.0, 1.0)
            break
        context_kw = state.next_deal_context()
    else:
        raise TournamentError(
            f"a match of {job.team_name(x)} vs {job.team_name(y)}, board {board}, table {table} "
            f"did not end within {MAX_MATCH_DEALS} deals"
        )
    return float(totals[x_side]), float(totals[1 - x_side]), deals


def _jsonable(actions: list) -> list:
    return [list(a) if isinstance(a, tuple) else int(a) for a in actions]


# --- blocks: what a worker sends and the store keeps, one row per block ------------------------------
# A block is every table of boards ``start .. stop-1`` of one pairing, held table-major (table 0 of every
# board, then table 1). ``columns`` is zlib of a small header and the tables' x and y returns (int16 when
# every return is a small integer, else float64), deal counts and payload lengths as int32 columns;
# ``payload`` holds the actions in one of these codecs:
#   CARDS  one deal per table with integer actions (``--unit deal``): the actions bit-packed
#          (``cards_encode``); each deal's seed and returns follow from the board and the table's returns,
#          so nothing else is kept. ``lengths`` = actions per deal.
#   TABLES anything else: each table's ``pack`` payload end to end, zlib-compressed. ``lengths`` = bytes.
#   3 and up: a ruleset's own codecs (its ``Ruleset.blocks`` module's ``CODECS``), which code one-deal
#          tables against what the rules allow and decode them by replaying the rules; a run holds one
#          ruleset, so the number is only read with the run's ruleset (a reader without the codec refuses
#          the block as an unknown codec). ``lengths`` = actions per deal.
# A ruleset's ``blocks`` module may define any of: ``CODECS`` and ``decode(game, codec, seeds, payload,
# lengths, xr, yr) -> actions per table`` (raising ValueError unless the replay gives the stored returns);
# ``encode_tables(game, seeds, tables, xr, yr) -> (codec, payload, lengths) | None`` for tables played
# through the State API; ``played_block(game, px, py, seeds)`` and ``tables_block(game, seeds, o0, o1)`` ->
# ``(codec, payload, columns, score) | None`` for compiled blocks (played and coded in one kernel call, or
# coded from ``play_tables``' outputs). Whatever it does not code is stored as CARDS or TABLES.
CARDS = 1
TABLES = 2
_COLS = struct.Struct("<BBI")  # format version of the columns, returns dtype (0 float64, 1 int16), tables
_ESC = struct.Struct("<qBB")  # CARDS payload header: the escape values' base and bit width, mult


class BlockRows:
    """One block as it is stored (see above); what ``play_block(..., compact=True)`` returns.

    ``score`` is ``(wins, draws, losses)`` of team X over the block's pairs, for the runner's progress
    line. Iterating decodes the rows ``play_table`` gives, ``(pairing, board, table, x_return, y_return,
    deals, payload)``, in (board, table) order; ``results()`` gives the first five without the payloads."""

    __slots__ = ("pairing", "start", "stop", "seed", "codec", "columns", "payload", "score", "ruleset")

    def __init__(self, pairing, start, stop, seed, codec, columns, payload, score=None, ruleset=None):
        self.pairing, self.start, self.stop, self.seed = pairing, start, stop, seed
        self.codec, self.columns, self.payload = codec, columns, payload
        self.score = score if score is not None else pair_score(*decode_columns(columns)[:2])
        self.ruleset = ruleset  # (name, options) of the game a ruleset's codec replays in, for iterating it

    def __getstate__(self):
        return tuple(getattr(self, k) for k in self.__slots__)

    def __setstate__(self, state):
        for k, v in zip(self.__slots__, state, strict=True):
            setattr(self, k, v)

    def __len__(self) -> int:
        return 2 * (self.stop - self.start)

    def __iter__(self):
        return self.rows()

    def rows(self, game=None):
        """The rows as iterating gives them; ``game`` (the run's; default the one the block was made in)
        decodes a block of a ruleset's own codec."""
        if game is None and self.ruleset is not None:
            game = get_game(self.ruleset[0], **self.ruleset[1])
        for board, table, xr, yr, deals in decode_block(
            self.start, self.stop, self.seed, self.codec, self.columns, self.payload, game
        ):
            yield (self.pairing, board, table, xr, yr, len(deals), pack(deals))

    def results(self):
        """``(pairing, board, table, x_return, y_return)`` of each table, in (board, table) order."""
        xr, yr, _deals, _lengths = decode_columns(self.columns)
        n = self.stop - self.start
        for i in range(n):
            for t in (0, 1):
                yield (self.pairing, self.start + i, t, float(xr[t * n + i]), float(yr[t * n + i]))


def pair_score(xr: np.ndarray, yr: np.ndarray) -> tuple[int, int, int]:
    """``(wins, draws, losses)`` of team X over a block's pairs from its table-major returns."""
    n = len(xr) // 2
    margin = (xr[:n] - yr[:n]) + (xr[n:] - yr[n:])
    return int((margin > 0).sum()), int((margin == 0).sum()), int((margin < 0).sum())


def block_margins(columns: bytes) -> np.ndarray:
    """X's margin on each board of a block (board order), from its stored columns: only the returns are
    decompressed (they come first)."""
    z = zlib.decompressobj()
    head = z.decompress(columns, _COLS.size)
    version, small, n = _COLS.unpack_from(head, 0)
    if version != 1:
        raise ValueError(f"unknown block columns version {version}")
    dt, size = ("<i2", 2) if small else ("<f8", 8)
    want = 2 * n * size
    raw = z.decompress(z.unconsumed_tail, want)
    if len(raw) != want or n % 2:
        raise ValueError("block columns of the wrong size")
    rets = np.frombuffer(raw, dt).astype(np.float64)
    xr, yr = rets[:n], rets[n:]
    h = n // 2
    return (xr[:h] - yr[:h]) + (xr[h:] - yr[h:])


def encode_columns(xr: np.ndarray, yr: np.ndarray, deals: np.ndarray, lengths: np.ndarray) -> bytes:
    rets = np.concatenate([xr, yr]).astype(np.float64)
    small = bool(len(rets) == 0 or (np.all(rets == np.round(rets)) and np.all(np.abs(rets) <= 32767)))
    body = rets.astype(np.int16) if small else rets
    head = _COLS.pack(1, 1 if small else 0, len(xr))
    parts = [head, body.astype("<i2" if small else "<f8").tobytes()]
    parts += [np.asarray(deals, "<i4").tobytes(), np.asarray(lengths, "<i4").tobytes()]
    return zlib.compress(b"".join(parts), 1)  # a higher level costs the worker many times the CPU for little


# The columns of a compiled block, built by one kernel pass over both tables' returns and action counts
# (no concatenations, dtype passes nor checks in numpy, each a pass over the block) into a buffer the worker
# keeps, then zlib: the same bytes as ``encode_columns`` and the same score as ``pair_score`` (tested).
# What it saves: `python -m benchmarks.worker_block RULESET` (figures in the commit that made it).
@njit(cache=True, _nrt=False)
def _columns_fill(r0, r1, n0, n1, raw, score):
    """Write the raw (uncompressed) columns of a block, table 0's ``r0``/``n0`` (A/B returns, action counts)
    then table 1's (team X is A at table 0, B at table 1), into ``raw`` (uint8, >= 6 + 24 * boards bytes):
    version 1, int16 returns, every deal count 1. ``score`` gets X's (wins, draws, losses) over the boards.
    Returns the bytes written, or -1 when a return is not an integer of int16 (``encode_columns`` then
    stores float64). The twin is ``encode_columns`` (with ``pair_score``)."""
    h = r0.shape[0]
    n = 2 * h
    for t in range(2):
        r = r0 if t == 0 else r1
        for i in range(h):
            for c in range(2):
                f = np.float64(r[i, c])
                if not (f == np.floor(f) and abs(f) <= 32767.0):
                    return -1
    raw[0] = 1
    raw[1] = 1
    for q in range(4):
        raw[2 + q] = (n >> (8 * q)) & 0xFF
    p = 6
    for col in range(2):  # x's returns, then y's: X is A (column 0) at table 0 and B (column 1) at table 1
        for t in range(2):
            r = r0 if t == 0 else r1
            c = col if t == 0 else 1 - col
            for i in range(h):
                v = np.int64(r[i, c]) & 0xFFFF
                raw[p] = v & 0xFF
                raw[p + 1] = v >> 8
                p += 2
    for _ in range(n):  # every table holds one deal
        raw[p] = 1
        raw[p + 1] = 0
        raw[p + 2] = 0
        raw[p + 3] = 0
        p += 4
    for t in range(2):
        ns = n0 if t == 0 else n1
        for i in range(h):
            v = np.int64(ns[i]) & 0xFFFFFFFF
            for q in range(4):
                raw[p + q] = (v >> (8 * q)) & 0xFF
            p += 4
    wins = 0
    draws = 0
    for i in range(h):
        m = (np.float64(r0[i, 0]) - np.float64(r0[i, 1])) + (np.float64(r1[i, 1]) - np.float64(r1[i, 0]))
        if m > 0:
            wins += 1
        elif m == 0:
            draws += 1
    score[0] = wins
    score[1] = draws
    score[2] = h - wins - draws
    return p


def block_columns(r0: np.ndarray, r1: np.ndarray, n0: np.ndarray, n1: np.ndarray) -> tuple[bytes, tuple]:
    """``(columns, score)`` of a block of one-deal tables from each table's (n, 2) A/B returns and action
    counts: ``encode_columns`` and ``pair_score`` of the table-major X/Y returns, in one kernel pass."""
    h = r0.shape[0]
    raw = work_array("columns", 6 + 24 * h, np.uint8)
    score = work_array("score", 3, np.int64)
    used = _columns_fill(r0, r1, n0, n1, raw, score)
    if used < 0:
        xr = np.concatenate([r0[:, 0], r1[:, 1]]).astype(np.float64)
        yr = np.concatenate([r0[:, 1], r1[:, 0]]).astype(np.float64)
        return encode_columns(xr, yr, np.ones(2 * h, np.int64), np.concatenate([n0, n1])), pair_score(xr, yr)
    return zlib.compress(raw[:used], 1), (int(score[0]), int(score[1]), int(score[2]))


def decode_columns(columns: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(x_returns, y_returns, deals, lengths)`` of a block's tables, table-major."""
    raw = zlib.decompress(columns)
    version, small, n = _COLS.unpack_from(raw, 0)
    if version != 1:
        raise ValueError(f"unknown block columns version {version}")
    p = _COLS.size
    dt, size = ("<i2", 2) if small else ("<f8", 8)
    rets = np.frombuffer(raw, dt, 2 * n, p).astype(np.float64)
    p += 2 * n * size
    deals = np.frombuffer(raw, "<i4", n, p)
    lengths = np.frombuffer(raw, "<i4", n, p + 4 * n)
    if p + 8 * n != len(raw):
        raise ValueError("block columns of the wrong size")
    return rets[:n], rets[n:], deals, lengths


def encode_block(pairing: int, start: int, stop: int, seed: int, unit: str, tables: list, game=None) -> BlockRows:
    """A block from its tables ``(x_return, y_return, deals)`` in table-major order (deals as
    ``[[seed, return_a, return_b, actions]]``): the codec of ``game``'s ruleset (the run's) where it has one
    that applies, else CARDS where it applies, else TABLES."""
    n = stop - start
    if len(tables) != 2 * n:
        raise ValueError(f"a block of boards {start}..{stop - 1} has {2 * n} tables, not {len(tables)}")
    xr = np.array([t[0] for t in tables], np.float64)
    yr = np.array([t[1] for t in tables], np.float64)
    counts = np.array([len(t[2]) for t in tables], np.int64)
    flat = [a for t in tables for d in t[2] for a in d[3]]
    blocks = ruleset_blocks(game)
    if unit == "deal" and bool((counts == 1).all()) and hasattr(blocks, "encode_tables"):
        seeds = np.arange(seed + start, seed + stop, dtype=np.int64).astype(np.uint64)
        coded = blocks.encode_tables(game, seeds, tables, xr, yr)  # (codec, payload, lengths) or None
        if coded is not None:
            codec, payload, lengths = coded
            columns = encode_columns(xr, yr, counts, lengths)
            return BlockRows(pairing, start, stop, seed, codec, columns, payload, None, _spec(game))
    if unit == "deal" and bool((counts == 1).all()) and all(type(a) is int for a in flat):
        lengths = np.array([len(t[2][0][3]) for t in tables], np.int64)
        width = max(lengths.max(initial=0), 1)
        actions = np.full((2 * n, width), -1, np.int64)
        for i, t in enumerate(tables):
            actions[i, : lengths[i]] = t[2][0][3]
        cards = _cards_block(actions[:n], lengths[:n], actions[n:], lengths[n:])
        if cards is not None:
            return BlockRows(pairing, start, stop, seed, CARDS, encode_columns(xr, yr, counts, lengths), cards)
    payloads = [pack(t[2]) for t in tables]
    lengths = np.array([len(p) for p in payloads], np.int64)
    body = zlib.compress(b"".join(payloads), 6)
    return BlockRows(pairing, start, stop, seed, TABLES, encode_columns(xr, yr, counts, lengths), body)


def ruleset_blocks(game):
    """The module of ``game``'s ruleset's block codecs (``Ruleset.blocks``), or None."""
    if game is None:
        return None
    ref = get_ruleset(game.name).blocks
    return None if ref is None else load_ref(ref)


def returns_match(gains: np.ndarray, xr: np.ndarray, yr: np.ndarray) -> bool:
    """Whether replayed (A, B) returns of a block's deals (table-major) are its stored X/Y returns: team X
    is A at table 0, B at table 1."""
    n = len(gains) // 2
    return bool(
        np.array_equal(gains[:n, 0], xr[:n])
        and np.array_equal(gains[n:, 1], xr[n:])
        and np.array_equal(gains[:n, 1], yr[:n])
        and np.array_equal(gains[n:, 0], yr[n:])
    )


def _spec(game) -> tuple[str, dict]:
    return game.name, dict(game.options)


def decode_block(start: int, stop: int, seed: int, codec: int, columns: bytes, payload: bytes, game=None):
    """Each table of a stored block as ``(board, table, x_return, y_return, deals)`` in (board, table)
    order, ``deals`` as ``[[seed, return_a, return_b, actions]]``. A block of a ruleset's codec needs
    ``game`` (the run's ruleset with its options) to replay."""
    xr, yr, counts, lengths = decode_columns(columns)
    n = stop - start
    if len(xr) != 2 * n:
        raise ValueError(f"a block of boards {start}..{stop - 1} holds {len(xr)} tables")
    xs, ys = xr.tolist(), yr.tolist()
    if codec == CARDS:
        lo, width, mult = _ESC.unpack_from(payload, 0)
        actions = cards_decode(memoryview(payload)[_ESC.size :], lengths.tolist(), lo, width, mult)
        per_table = []
        for i in range(2 * n):
            t = i // n
            ra, rb = (xs[i], ys[i]) if t == 0 else (ys[i], xs[i])
            per_table.append([[seed + start + i % n, ra, rb, actions[i]]])
    elif codec == TABLES:
        raw = zlib.decompress(payload)
        ends = np.cumsum(lengths).tolist()
        if (ends[-1] if ends else 0) != len(raw):
            raise ValueError("a block's payload does not match its lengths")
        per_table = [unpack(raw[a:b]) for a, b in zip([0, *ends[:-1]], ends, strict=True)]
    else:
        blocks = ruleset_blocks(game)
        if codec not in getattr(blocks, "CODECS", {}):
            owner = f" outside a run of the ruleset that owns it ({game.name}'s has none)" if game else ""
            raise ValueError(f"unknown block codec {codec}{owner}")
        seeds = np.arange(seed + start, seed + stop, dtype=np.int64).astype(np.uint64)
        actions = blocks.decode(game, codec, seeds, payload, lengths, xr, yr)  # checks the stored returns
        per_table = []
        for i in range(2 * n):
            ra, rb = (xs[i], ys[i]) if i < n else (ys[i], xs[i])
            per_table.append([[seed + start + i % n, ra, rb, actions[i]]])
    for b in range(n):
        for t in (0, 1):
            i = t * n + b
            if len(per_table[i]) != counts[i]:
                raise ValueError("a block's deal counts do not match its payload")
            yield start + b, t, xs[i], ys[i], per_table[i]


def compiled_block(ctx: _Context, pairing: int, boards: range) -> BlockRows | None:
    """A whole block through the bots' compiled forms, when both teams are one bot each with a compiled
    form and the unit is a deal; else None."""
    job = ctx.job
    if ctx.compiled is None or job.unit != "deal":
        return None
    x, y = job.pairings[pairing]
    xb, yb = ctx.bots[x], ctx.bots[y]
    if xb[0].label != xb[1].label or yb[0].label != yb[1].label:  # mixed partnerships play in Python
        return None
    if not (has_compiled_form(xb[0], job.ruleset) and has_compiled_form(yb[0], job.ruleset)):
        return None
    seeds = range(job.seed + boards.start, job.seed + boards.stop)  # checked by its bounds
    from ..bots.compiled import _seed_array, compiled_form

    game = ctx.game
    blocks = ruleset_blocks(game)
    px, py = compiled_form(xb[0], game.name), compiled_form(yb[0], game.name)
    coded = None
    if hasattr(blocks, "played_block"):  # played and coded in one kernel call, when the ruleset has one
        coded = blocks.played_block(game, px, py, _seed_array(seeds))
    if coded is None:
        o0, o1 = (ctx.compiled(game, xb[0], yb[0], seeds, table) for table in (0, 1))
        if hasattr(blocks, "tables_block"):  # the ruleset's codec of play_tables' outputs
            coded = blocks.tables_block(game, seeds, o0, o1)
    if coded is not None:
        codec, payload, columns, score = coded
        spec = _spec(game) if codec not in (CARDS, TABLES) else None
        return BlockRows(pairing, boards.start, boards.stop, job.seed, codec, columns, payload, score, spec)
    r0, r1 = o0["returns"], o1["returns"]
    columns, score = block_columns(r0, r1, o0["n_actions"], o1["n_actions"])
    cards = _cards_block(o0["actions"], o0["n_actions"], o1["actions"], o1["n_actions"])
    if cards is None:
        raise TournamentError(f"compiled actions of {job.ruleset} span more than 32 bits")
    return BlockRows(pairing, boards.start, boards.stop, job.seed, CARDS, columns, cards, score)


def played_columns(played) -> tuple[bytes, bytes, tuple]:
    """``(payload, columns, score)`` of a kernel that played and coded both tables: ``played`` = (payload,
    per-deal lengths, returns (2n, 2): table 0's n deals, then table 1's; team X sits at A at table 0 and at
    B at table 1; and the columns and pair score, when the kernel made them)."""
    payload, lengths, returns = played[:3]
    n = len(returns) // 2
    if len(played) > 3:  # the kernel made them
        columns, score = played[3:]
    else:
        columns, score = block_columns(returns[:n], returns[n:], lengths[:n], lengths[n:])
    return payload, columns, score


def compiled_rows(ctx: _Context, pairing: int, boards: range) -> BlockRows | None:
    """The same as :func:`compiled_block` (the runner's warm-up asks it which match-ups are compiled)."""
    return compiled_block(ctx, pairing, boards)


def play_block(job: Job, block: tuple[int, int, int], progress=None, compact: bool = False):
    """Every table of boards ``start .. stop-1`` of one pairing: ``block = (pairing, start, stop)``.
    ``progress(board, table)`` is called before each table (the watchdog's heartbeat). With ``compact``
    the block comes back encoded as it is stored (:class:`BlockRows`, made in the worker so that the
    storing parent only writes it); else as a list of ``play_table`` rows in (board, table) order."""
    ctx = context(job)
    pairing, start, stop = block
    encoded = compiled_block(ctx, pairing, range(start, stop))
    if encoded is None:
        n = stop - start
        tables: list = [None] * (2 * n)  # table-major, as a block holds them
        for board in range(start, stop):
            for table in (0, 1):
                if progress is not None:
                    progress(board, table)
                tables[table * n + board - start] = _play_table_deals(ctx, pairing, board, table)
        if not compact:
            order = [(b, t) for b in range(n) for t in (0, 1)]
            return [
                (pairing, start + b, t, *tables[t * n + b][:2], len(tables[t * n + b][2]), pack(tables[t * n + b][2]))
                for b, t in order
            ]
        encoded = encode_block(pairing, start, stop, job.seed, job.unit, tables, ctx.game)
    return encoded if compact else list(encoded.rows(ctx.game))


# --- the CARDS codec ------------------------------------------------------------------------------------
# Each deal's actions in order, bit-packed LSB first, deals end to end. With ``mult`` = 1, a card action
# c (0..51) not played before in the deal is written as its rank among the r cards not yet played, in
# bit_length(r) bits (symbols 0..r); with ``mult`` = 3 (chosen where it is shorter on a block's first
# deals: many signalled cards, Trick52's ``c + 52 * signal``), an action a < 156 whose card a % 52 is
# unplayed as ``rank * 3 + a // 52``, in
# bit_length(3r) bits. Anything else (a bid, a Prime, a card already seen) is the escape symbol (r, or 3r)
# followed by ``value - lo`` in ``width`` bits (lo and width from the block's smallest and largest actions).
# No compression pass runs in the worker: the kernel costs a small fraction of a compiled deal.


def cards_encode(deals: list[list[int]], lo: int, width: int, mult: int) -> bytes:
    """The CARDS bit stream of ``deals`` (each a list of integer actions): the pure-Python twin of
    :func:`_cards_fill`, written the obvious way with one big integer."""
    value, pos = 0, 0
    for actions in deals:
        seen, r = 0, 52
        for v in actions:
            w = (mult * r).bit_length()
            c = v % 52
            if 0 <= v < 52 * mult and not seen >> c & 1:
                rank = bin(~seen & ((1 << c) - 1)).count("1")
                value |= (rank * mult + v // 52) << pos
                seen |= 1 << c
                r -= 1
                pos += w
            else:
                value |= (mult * r) << pos
                pos += w
                value |= (v - lo) << pos
                pos += width
    return value.to_bytes((pos + 7) // 8, "little")


def cards_decode(data, lengths: list[int], lo: int, width: int, mult: int) -> list[list[int]]:
    """Each deal's actions from a CARDS bit stream (``lengths[i]`` actions in deal ``i``)."""
    data = bytes(data) + bytes(8)
    pos, out = 0, []

    def take(w: int) -> int:
        nonlocal pos
        if w == 0:
            return 0
        p = pos >> 3
        v = (int.from_bytes(data[p : p + 6], "little") >> (pos & 7)) & ((1 << w) - 1)
        pos += w
        return v

    for n in lengths:
        seen, r, actions = 0, 52, []
        for _ in range(n):
            sym = take((mult * r).bit_length())
            if sym < mult * r:
                rank, signal = divmod(sym, mult)
                c = -1
                for _ in range(rank + 1):  # the rank-th card not played yet
                    c += 1
                    while seen >> c & 1:
                        c += 1
                seen |= 1 << c
                r -= 1
                actions.append(c + 52 * signal)
            else:
                actions.append(lo + take(width))
        out.append(actions)
    if (pos + 7) // 8 != len(data) - 8:
        raise ValueError("a CARDS payload of the wrong size")
    return out


@njit(cache=True, _nrt=False)
def _cards_fill(a0, n0, a1, n1, lo, width, mult, out):
    """Write the CARDS stream of the deals of ``a0`` then ``a1`` (rows of actions, ``n0[i]``/``n1[i]`` used)
    into ``out`` (``_bitstream`` words); returns the number of bytes written. Its twin is ``cards_encode``.
    Without numba's reference counting (it allocates nothing): with it, the shared writer's loop ran several
    times slower than the byte writer it replaced, on Satat blocks. ``mult`` = 1 (every Satat block so far)
    has a loop of its own, which takes less time than the general one on Satat blocks."""
    acc = np.uint64(0)
    nacc = 0
    p = 0
    for t in range(2):
        acts = a0 if t == 0 else a1
        ns = n0 if t == 0 else n1
        for i in range(acts.shape[0]):
            if mult == 1:
                acc, nacc, p = _cards_row1(acts[i], ns[i], lo, width, out, acc, nacc, p)
            else:
                acc, nacc, p = _cards_row(acts[i], ns[i], lo, width, mult, out, acc, nacc, p)
    return finish(out, acc, nacc, p)


@njit(cache=True, _nrt=False, inline="always")
def _cards_row(acts, na, lo, width, mult, out, acc, nacc, p):
    """Append one deal's CARDS symbols (its first ``na`` actions) to the writer ``(acc, nacc, p)``."""
    seen = np.uint64(0)
    r = 52
    low52 = np.uint64((1 << 52) - 1)
    for j in range(na):
        v = acts[j]
        w = highest(np.uint64(mult * r)) + 1
        c = v % 52
        if 0 <= v < 52 * mult and not (seen >> np.uint64(c)) & np.uint64(1):
            below = (np.uint64(1) << np.uint64(c)) - np.uint64(1)
            rank = np.int64(popcount(~seen & below & low52))
            seen |= np.uint64(1) << np.uint64(c)
            r -= 1
            acc, nacc, p = put(out, acc, nacc, p, rank * mult + v // 52, w)
        else:  # the escape symbol, then the value
            acc, nacc, p = put(out, acc, nacc, p, mult * r, w)
            acc, nacc, p = put(out, acc, nacc, p, v - lo, width)
    return acc, nacc, p


@njit(cache=True, _nrt=False, inline="always")
def _cards_row1(acts, na, lo, width, out, acc, nacc, p):
    """:func:`_cards_row` with ``mult`` = 1: a card's rank among the unplayed is its number less the
    played cards below it."""
    seen = np.uint64(0)
    r = 52
    for j in range(na):
        v = acts[j]
        w = highest(np.uint64(r)) + 1
        if 0 <= v < 52 and not (seen >> np.uint64(v)) & np.uint64(1):
            b = np.uint64(1) << np.uint64(v)
            rank = np.int64(v) - np.int64(popcount(seen & (b - np.uint64(1))))
            seen |= b
            r -= 1
            acc, nacc, p = put(out, acc, nacc, p, rank, w)
        else:  # the escape symbol, then the value
            acc, nacc, p = put(out, acc, nacc, p, r, w)
            acc, nacc, p = put(out, acc, nacc, p, v - lo, width)
    return acc, nacc, p


@njit(cache=True)
def _action_range(a0, n0, a1, n1):
    """The smallest and largest action (0 included) and whether any lies in 52..155 (a signalled card)."""
    lo = np.int64(0)
    hi = np.int64(0)
    signals = False
    for t in range(2):
        acts = a0 if t == 0 else a1
        ns = n0 if t == 0 else n1
        for i in range(acts.shape[0]):
            for j in range(ns[i]):
                v = acts[i, j]
                lo = min(lo, v)
                hi = max(hi, v)
                signals |= 52 <= v < 156
    return lo, hi, signals


def _cards_block(a0, n0, a1, n1) -> bytes | None:
    """The CARDS payload (header and stream) of two tables' actions, or None when they span more than 32
    bits."""
    lo, hi, signals = _action_range(a0, n0, a1, n1)
    width = int(hi - lo).bit_length()
    if width > 32:
        return None
    total = int(n0.sum()) + int(n1.sum())
    out = words(total * (8 + width), "cards")  # a symbol takes <= 8 bits, an escaped value ``width`` more
    mult = 1
    if signals:  # 3 pays where signalled cards are many (Feskot, Tekka): tried on the first deals only
        k = 64
        sizes = [_cards_fill(a0[:k], n0[:k], a1[:k], n1[:k], np.int64(lo), width, m, out) for m in (1, 3)]
        mult = 3 if sizes[1] < sizes[0] else 1
    used = _cards_fill(a0, n0, a1, n1, np.int64(lo), width, mult, out)
    return stream_bytes(out, used, _ESC.pack(int(lo), width, mult))


# A table's payload (the TABLES codec's unit, and format 1's stored rows): its deals ``[seed, return_a,
# return_b, actions]``. Integer actions are packed as little-endian int16 after a small header; Shengji's
# tuples of card kinds (KINDS) as a count byte and a byte per card; anything else as zlib-compressed JSON
# (whose first byte, 0x78, is neither format's).
BINARY = 1
KINDS = 2
_HEAD = struct.Struct("<BH")  # format byte, number of deals
_DEAL = struct.Struct("<qddH")  # seed, return A, return B, number of actions
_ONE = struct.Struct("<BHqddH")  # a one-deal table's header and deal header together
_ONE_SIZE = _ONE.size  # 29: format, deal count, seed, two returns, action count (a constant in kernels)


def _is_kinds(a) -> bool:
    return isinstance(a, (tuple, list)) and len(a) < 256 and all(isinstance(k, int) and 0 <= k < 256 for k in a)


def pack(deals: list[list[Any]]) -> bytes:
    """A table's payload from ``[[seed, return_a, return_b, actions], ...]``."""
    if len(deals) < 65536 and all(len(d[3]) < 65536 for d in deals):
        if all(isinstance(a, int) and -32768 <= a <= 32767 for d in deals for a in d[3]):
            parts = [_HEAD.pack(BINARY, len(deals))]
            for seed, ra, rb, actions in deals:
                parts.append(_DEAL.pack(seed, ra, rb, len(actions)))
                parts.append(struct.pack(f"<{len(actions)}h", *actions))
            return b"".join(parts)
        if all(_is_kinds(a) for d in deals for a in d[3]):
            parts = [_HEAD.pack(KINDS, len(deals))]
            for seed, ra, rb, actions in deals:
                parts.append(_DEAL.pack(seed, ra, rb, len(actions)))
                parts.extend(bytes([len(a), *a]) for a in actions)
            return b"".join(parts)
    return zlib.compress(json.dumps(deals, separators=(",", ":")).encode(), 6)


def unpack(payload: bytes) -> list[list[Any]]:
    """A stored table's deals: ``[[seed, return_a, return_b, actions], ...]``.

    >>> unpack(pack([[7, 1.0, 0.0, [3, 40, 12]], [8, 0.0, 2.0, []]]))
    [[7, 1.0, 0.0, [3, 40, 12]], [8, 0.0, 2.0, []]]
    >>> unpack(pack([[7, 0.0, 1.0, [[1, 2], []]]]))
    [[7, 0.0, 1.0, [[1, 2], []]]]
    """
    payload = bytes(payload)
    if payload[0] not in (BINARY, KINDS):
        return json.loads(zlib.decompress(payload))
    fmt, n = _HEAD.unpack_from(payload, 0)
    offset, deals = _HEAD.size, []
    for _ in range(n):
        seed, ra, rb, k = _DEAL.unpack_from(payload, offset)
        offset += _DEAL.size
        if fmt == BINARY:
            actions = list(struct.unpack_from(f"<{k}h", payload, offset))
            offset += 2 * k
        else:
            actions = []
            for _ in range(k):
                c = payload[offset]
                actions.append(list(payload[offset + 1 : offset + 1 + c]))
                offset += 1 + c
        deals.append([seed, ra, rb, actions])
    if offset != len(payload):
        raise ValueError(f"a stored payload has {len(payload) - offset} bytes after its last deal")
    return deals


def replay_table(game, payload: bytes):
    """The final states of a stored table's deals, rebuilt by replaying the stored actions."""
    return replay_deals(game, unpack(payload))


def replay_deals(game, deals: list):
    """The final states of a table's deals ``[[seed, return_a, return_b, actions]]``, by replay."""
    states, context_kw = [], {}
    for seed, _ra, _rb, actions in deals:
        state = game.new_deal(seed, **context_kw)
        for a in actions:
            state.apply_action(tuple(a) if isinstance(a, list) else a)
        states.append(state)
        if state.is_terminal() and state.match_winner() is None:
            context_kw = state.next_deal_context()
    return states
