"""Compiled bit helpers and the seeded RNG that every kernel uses.

All functions here are ``@njit(cache=True)`` at module level (the numba cache is only reused for
module-level functions, engine-notes.md). Their pure-Python twins live in ``tekkasim.reference.bits``
and the tests compare the two.

numba pitfall, kept in mind everywhere: mixing ``uint64`` with a signed integer promotes to ``float64``.
Every constant and shift count that meets a mask is therefore an explicit ``np.uint64``.

RNG: splitmix64 whose whole state is one ``uint64`` kept in a 1-element ``np.uint64`` array that the
kernels update in place. The same seed gives the same stream in numba and in pure Python
(``reference.bits``), and a deal is a pure function of its seed, whatever process plays it.
"""

from __future__ import annotations

import numpy as np
from llvmlite import binding as _llvm
from llvmlite import ir
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

U64 = np.uint64
ONE = np.uint64(1)
ZERO = np.uint64(0)
SUIT13 = np.uint64((1 << 13) - 1)
FULL52 = np.uint64((1 << 52) - 1)

# pdep is one instruction with BMI2 (and slow on pre-Zen3 AMD, hence the portable fallback).
HAVE_BMI2 = "+bmi2" in _llvm.get_host_cpu_features().flatten().split(",")


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@intrinsic
def _ctlz(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@intrinsic
def _pdep(typingctx, src, mask):
    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


@intrinsic
def _prefetch(typingctx, arr, idx):
    """Ask the CPU to start loading the cache line of ``arr[idx]`` (no effect on the program's values)."""

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = builder.gep(ary.data, [args[1]])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.none(arr, types.int64), codegen


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits."""
    return np.int64(_ctpop(np.uint64(x)))


@njit(cache=True, inline="always")
def lowest(x):
    """Index of the lowest set bit (64 for 0)."""
    return np.int64(_cttz(np.uint64(x)))


@njit(cache=True, inline="always")
def highest(x):
    """Index of the highest set bit (-1 for 0)."""
    return np.int64(63) - np.int64(_ctlz(np.uint64(x)))


@njit(cache=True, inline="always")
def _kth_pdep(x, k):
    return np.int64(_cttz(_pdep(ONE << np.uint64(k), np.uint64(x))))


@njit(cache=True, inline="always")
def _kth_loop(x, k):
    m = np.uint64(x)
    for _ in range(k):
        m &= m - ONE
    return np.int64(_cttz(m))


@intrinsic
def _pext(typingctx, src, mask):
    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pext.64")
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


@njit(cache=True, inline="always")
def _pext_loop(x, m):
    out = ZERO
    k = ZERO
    while m != ZERO:
        low = m & (~m + ONE)
        if x & low:
            out |= ONE << k
        k += ONE
        m ^= low
    return out


@njit(cache=True, inline="always")
def _pdep_loop(x, m):
    out = ZERO
    k = ZERO
    while m != ZERO:
        low = m & (~m + ONE)
        if (x >> k) & ONE:
            out |= low
        k += ONE
        m ^= low
    return out


@njit(cache=True, inline="always")
def _pext_bmi(x, m):
    return _pext(np.uint64(x), np.uint64(m))


@njit(cache=True, inline="always")
def _pdep_bmi(x, m):
    return _pdep(np.uint64(x), np.uint64(m))


# kth(x, k): index of the k-th (0-based, from the lowest) set bit of x, k < popcount(x).
# pext(x, m) / pdep(x, m): BMI2 bit extract / deposit (x86 semantics), with portable loops.
if config.DISABLE_JIT:
    # NUMBA_DISABLE_JIT=1 (coverage and debugging runs) cannot call LLVM intrinsics: the pure-Python twins.
    from .reference.bits import highest, kth, lowest, pdep, pext, popcount  # noqa: F401, F811

    def prefetch(arr, idx):
        """A hint only: nothing to do in plain Python."""
else:
    prefetch = _prefetch
    kth = _kth_pdep if HAVE_BMI2 else _kth_loop
    pext = _pext_bmi if HAVE_BMI2 else _pext_loop
    pdep = _pdep_bmi if HAVE_BMI2 else _pdep_loop


@njit(cache=True, inline="always")
def suit_mask(suit):
    """The 13-bit mask of one suit of the 52-card layout."""
    return SUIT13 << np.uint64(13 * suit)


@njit(cache=True, inline="always")
def bit(c):
    return ONE << np.uint64(c)


# --- RNG ------------------------------------------------------------------------------------------

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def new_rng(seed: int) -> np.ndarray:
    """An RNG state for the kernels: a 1-element uint64 array holding ``seed`` mod 2**64."""
    return np.array([int(seed) % (1 << 64)], dtype=np.uint64)


@njit(cache=True, inline="always")
def next_u64(rng):
    """splitmix64: advance ``rng[0]`` and return the next 64-bit output."""
    rng[0] += _GOLDEN
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def below(rng, n):
    """A number in [0, n) for 1 <= n <= 2**32: the high 32 bits of an output scaled by n.

    The bias is below n / 2**32, far under anything a simulation of card games can measure.
    """
    return np.int64(((next_u64(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def shuffle(rng, cards):
    """Fisher-Yates shuffle of an int array in place, last position first."""
    for i in range(cards.shape[0] - 1, 0, -1):
        j = below(rng, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


@njit(cache=True, inline="always")
def random_card(rng, mask):
    """A uniformly random card of a non-empty mask."""
    return kth(mask, below(rng, popcount(mask)))


@njit(cache=True, inline="always")
def mistake(rng, rate):
    """Whether a decision slips (a bot's ``mistake_rate``): True with probability ``rate``. One draw of
    ``below(rng, 2**30)`` when ``rate`` > 0 and none otherwise, so a bot without mistakes uses no
    randomness for them. Every bot, compiled or not, draws its mistakes here."""
    if rate <= 0.0:
        return False
    return below(rng, 1 << 30) < rate * (1 << 30)


SLIP_UNIT = 0.125  # tricks per step of a packed mistake cost (mistake_pick)
SLIP_NONE = 15  # the packed cost of a choice a mistake never plays


@njit(cache=True, _nrt=False)
def mistake_pick(rng, costs, n, temperature):
    """Which of ``n`` (<= 16) choices a mistake plays (issue 25's plausible mistakes): choice ``i`` with
    probability proportional to ``exp(-cost_i / temperature)``, a softmax over what each costs by the
    bot's own evaluation, so cheap slips are common and gross blunders rare. ``costs`` packs them 4 bits a
    choice (choice ``i`` at bits ``4i``): ``cost_i = step * SLIP_UNIT`` tricks for a step 0..14 (a cost of
    1.75 tricks or more is gross, all alike), ``SLIP_NONE`` (15) never drawn (the bot's own choice: a
    mistake plays another). Packing keeps the draw free of allocation inside the allocation-free
    policies. One draw of ``below(rng, 2**30)`` when ``temperature`` > 0 and a choice is left; at
    ``temperature`` <= 0 the cheapest choice (the first on ties), no draw. -1 when no choice is left."""
    lo = SLIP_NONE
    for i in range(n):
        c = np.int64((costs >> np.uint64(4 * i)) & np.uint64(15))
        if c < lo:
            lo = c
    if lo == SLIP_NONE:
        return -1
    if temperature <= 0.0:
        for i in range(n):
            if np.int64((costs >> np.uint64(4 * i)) & np.uint64(15)) == lo:
                return i
    total = 0.0
    for i in range(n):
        c = np.int64((costs >> np.uint64(4 * i)) & np.uint64(15))
        if c < SLIP_NONE:
            total += np.exp(-(c - lo) * SLIP_UNIT / temperature)
    u = below(rng, 1 << 30) * (total / (1 << 30))
    last = -1
    for i in range(n):
        c = np.int64((costs >> np.uint64(4 * i)) & np.uint64(15))
        if c < SLIP_NONE:
            last = i
            u -= np.exp(-(c - lo) * SLIP_UNIT / temperature)
            if u < 0.0:
                return i
    return last  # rounding left a sliver of u: the last choice


@njit(cache=True, inline="always")
def slip_step(cost):
    """The packed step (``mistake_pick``) of a cost in tricks: rounded to ``SLIP_UNIT``, 0 .. 14."""
    if cost <= 0.0:
        return 0
    q = np.int64(cost / SLIP_UNIT + 0.5)
    return q if q < SLIP_NONE else SLIP_NONE - 1


# --- seeds of decisions ---------------------------------------------------------------------------

_MASK64 = (1 << 64) - 1
_MIX0 = 0x243F6A8885A308D3


def mix_seed(*parts: int) -> int:
    """A 63-bit seed from several ints (board seed, table, decision number, seat): splitmix64 over each
    part in turn, so nearby inputs give unrelated seeds. Pure Python, the same on every machine; the
    compiled loops use :func:`mix_seed3`, its twin for three parts.

    >>> mix_seed(1, 2) != mix_seed(2, 1)
    True
    """
    z = _MIX0
    for p in parts:
        z = (z + (int(p) & _MASK64) + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        z ^= z >> 31
    return z >> 1


@njit(cache=True, inline="always")
def _mix(z, part):
    z = z + part + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, _nrt=False)
def mix_seed3(a, b, c):
    """``mix_seed(a, b, c)`` in compiled code (parts as uint64): the seed of decision ``c`` at table ``b``
    of the deal of seed ``a``."""
    z = _mix(np.uint64(_MIX0), np.uint64(a))
    z = _mix(z, np.uint64(b))
    z = _mix(z, np.uint64(c))
    return z >> ONE
