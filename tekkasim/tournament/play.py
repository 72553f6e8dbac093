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
from itertools import chain, repeat
from typing import Any

import numpy as np
from numba import njit

from ..bits import lowest, popcount
from ..bots import get_bot, mix_seed
from ..bots.loop import play_deal as play_deal_state  # the one play loop and seed scheme
from ..errors import BotError
from ..rules import get_game
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
    """One stored row: ``(pairing, board, table, x_return, y_return, deals, payload)``."""
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
    payload = pack(deals)
    return (pairing, board, table, float(totals[x_side]), float(totals[1 - x_side]), len(deals), payload)


def _jsonable(actions: list) -> list:
    return [list(a) if isinstance(a, tuple) else int(a) for a in actions]


class CompiledRows:
    """A compiled block's rows kept as a few numpy columns and one buffer until they are stored.

    Iterating gives the same ``(pairing, board, table, x_return, y_return, deals, payload)`` tuples as
    ``play_table`` would, table 0 of every board first. A worker sends this instead of a list of rows:
    the block pickles as a handful of arrays (no per-row object crosses the pipe), and the rows are made
    one at a time as SQLite takes them, in the parent, where a one-worker run has a core to spare."""

    def __init__(self, pairing: int, boards: range, tables: list[tuple]):
        self.pairing = pairing
        self.boards = (boards.start, boards.stop)
        self.tables = tables  # per table: (table, x_returns, y_returns, buffer, starts, ends)

    def __len__(self) -> int:
        return 2 * (self.boards[1] - self.boards[0])

    def __iter__(self):
        return chain.from_iterable(self._table_rows(*t) for t in self.tables)

    def results(self):
        """``(pairing, board, table, x_return, y_return)`` of each row, without making the payloads."""
        boards = range(*self.boards)
        return chain.from_iterable(
            zip(repeat(self.pairing), boards, repeat(table), xr.tolist(), yr.tolist())
            for table, xr, yr, *_ in self.tables
        )

    def _table_rows(self, table, xr, yr, buf, starts, ends):
        n = len(xr)
        payloads = map(buf.__getitem__, map(slice, starts.tolist(), ends.tolist()))
        return zip(
            repeat(self.pairing, n),
            range(*self.boards),
            repeat(table, n),
            xr.tolist(),
            yr.tolist(),
            repeat(1, n),
            payloads,
            strict=True,
        )


def compiled_rows(ctx: _Context, pairing: int, boards: range) -> CompiledRows | None:
    """Rows of a whole block through the bots' compiled forms, when both teams are one bot each with a
    compiled form and the unit is a deal; else None."""
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
    tables = []
    for table in (0, 1):
        out = ctx.compiled(ctx.game, xb[0], yb[0], seeds, table)
        returns, lengths = out["returns"], out["n_actions"]
        xr, yr = (returns[:, 0], returns[:, 1]) if table == 0 else (returns[:, 1], returns[:, 0])
        if "masks" in out:  # Shengji: the KINDS payload, made by a kernel (its twin is ``pack``)
            buf, starts, ends = _kinds_payloads(seeds, returns, out["masks"], lengths)
            tables.append((table, xr.copy(), yr.copy(), buf, starts, ends))
            continue
        buf, starts, ends = _binary_payloads(seeds.start, np.ascontiguousarray(returns), out["actions"], lengths)
        if buf is None:
            raise TournamentError(f"compiled actions outside int16 in {job.ruleset}")
        tables.append((table, xr.copy(), yr.copy(), buf, starts, ends))
    return CompiledRows(pairing, boards, tables)


def play_block(job: Job, block: tuple[int, int, int], progress=None, compact: bool = False) -> list[tuple]:
    """Every table of boards ``start .. stop-1`` of one pairing: ``block = (pairing, start, stop)``.
    ``progress(board, table)`` is called before each table (the watchdog's heartbeat). With ``compact``,
    a compiled block comes back as :class:`CompiledRows` (the same rows, made when iterated)."""
    ctx = context(job)
    pairing, start, stop = block
    rows = compiled_rows(ctx, pairing, range(start, stop))
    if rows is not None:
        return rows if compact else list(rows)
    rows = []
    for board in range(start, stop):
        for table in (0, 1):
            if progress is not None:
                progress(board, table)
            rows.append(play_table(ctx, pairing, board, table))
    return rows


# A table's payload: its deals ``[seed, return_a, return_b, actions]``. Integer actions (every ruleset but
# Shengji) are packed as little-endian int16 after a small header (about 2 bytes an action, nothing to
# compress, cheap enough for the compiled loop); Shengji's tuples of card kinds (KINDS) as a count byte and
# a byte per card; anything else as zlib-compressed JSON (whose first byte, 0x78, is neither format's).
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


@njit(cache=True)
def _kinds_lengths(masks, n_actions):
    """Bytes of each deal's KINDS action list: a count byte per action and a byte per card."""
    out = np.empty(masks.shape[0], np.int64)
    for i in range(masks.shape[0]):
        t = 0
        for a in range(n_actions[i]):
            t += 1 + popcount(masks[i, a, 0]) + popcount(masks[i, a, 1])
        out[i] = t
    return out


@njit(cache=True)
def _kinds_fill(masks, n_actions, offsets, buf):
    """Write each deal's actions at ``offsets[i]``: the count, then the kinds ascending, a kind held twice
    twice (the order of ``bots.shengji._kinds`` and so of the State API's tuples)."""
    for i in range(masks.shape[0]):
        p = offsets[i]
        for a in range(n_actions[i]):
            one = masks[i, a, 0]
            two = masks[i, a, 1]
            head = p
            p += 1
            while one:
                k = lowest(one)
                one &= one - np.uint64(1)
                buf[p] = k
                p += 1
                if (two >> np.uint64(k)) & np.uint64(1):
                    buf[p] = k
                    p += 1
            buf[head] = p - head - 1


def _kinds_payloads(seeds: range, returns: np.ndarray, masks: np.ndarray, n_actions: np.ndarray):
    """One-deal KINDS payloads of a compiled Shengji block in one buffer: ``(buffer, starts, ends)``."""
    n = len(seeds)
    body = _kinds_lengths(masks, n_actions)
    ends = np.cumsum(body + _ONE.size)
    starts = ends - body - _ONE.size
    head = np.zeros(
        n, dtype=[("fmt", "u1"), ("deals", "<u2"), ("seed", "<i8"), ("ra", "<f8"), ("rb", "<f8"), ("k", "<u2")]
    )
    head["fmt"], head["deals"], head["seed"], head["k"] = KINDS, 1, np.asarray(seeds, np.int64), n_actions
    head["ra"], head["rb"] = returns[:, 0], returns[:, 1]
    buf = np.zeros(int(ends[-1]) if n else 0, np.uint8)
    buf[(starts[:, None] + np.arange(_ONE.size)).ravel()] = head.view(np.uint8)
    _kinds_fill(masks, n_actions, starts + _ONE.size, buf)
    return buf.tobytes(), starts, ends


@njit(cache=True)
def _put_le(buf, p, value, nbytes):
    for b in range(nbytes):
        buf[p + b] = (value >> np.uint64(8 * b)) & np.uint64(255)


@njit(cache=True)
def _binary_fill(first_seed, returns, actions, n_actions):
    """One-deal BINARY payloads laid end to end (the bytes ``pack`` writes for ``[[seed, ra, rb,
    actions]]``); ``ok`` is False when an action does not fit int16."""
    n = returns.shape[0]
    starts = np.empty(n, np.int64)
    ends = np.empty(n, np.int64)
    t = 0
    for i in range(n):
        starts[i] = t
        t += _ONE_SIZE + 2 * n_actions[i]
        ends[i] = t
    buf = np.empty(t, np.uint8)
    bits = returns.view(np.uint64)  # the doubles' IEEE bits, as struct's "<d" writes them
    for i in range(n):
        p = starts[i]
        buf[p] = BINARY
        _put_le(buf, p + 1, np.uint64(1), 2)
        _put_le(buf, p + 3, np.uint64(first_seed + i), 8)
        _put_le(buf, p + 11, bits[i, 0], 8)
        _put_le(buf, p + 19, bits[i, 1], 8)
        k = n_actions[i]
        _put_le(buf, p + 27, np.uint64(k), 2)
        p += _ONE_SIZE
        for a in range(k):
            v = actions[i, a]
            if v < -32768 or v > 32767:
                return buf, starts, ends, False
            _put_le(buf, p, np.uint64(v & 0xFFFF), 2)
            p += 2
    return buf, starts, ends, True


def _binary_payloads(first_seed: int, returns: np.ndarray, actions: np.ndarray, n_actions: np.ndarray):
    """One-deal BINARY payloads of a compiled block in one buffer: ``(buffer, starts, ends)``, or
    ``(None, None, None)`` when an action does not fit int16. Its twin is ``pack``."""
    buf, starts, ends, ok = _binary_fill(first_seed, returns, actions, n_actions)
    if not ok:
        return None, None, None
    return buf.tobytes(), starts, ends


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
    states, context_kw = [], {}
    for seed, _ra, _rb, actions in unpack(payload):
        state = game.new_deal(seed, **context_kw)
        for a in actions:
            state.apply_action(tuple(a) if isinstance(a, list) else a)
        states.append(state)
        if state.is_terminal() and state.match_winner() is None:
            context_kw = state.next_deal_context()
    return states
