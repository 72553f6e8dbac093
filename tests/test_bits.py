"""The compiled bit helpers and RNG against their pure-Python twins."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from tekkasim import bits
from tekkasim.reference import bits as ref


@njit(cache=True)
def _all(x, k):
    return bits.popcount(x), bits.lowest(x), bits.highest(x), bits.kth(x, k), bits._kth_loop(x, k)


@settings(max_examples=500)
@given(st.integers(1, (1 << 64) - 1), st.data())
def test_bit_helpers_match_reference(x, data):
    k = data.draw(st.integers(0, ref.popcount(x) - 1))
    got = _all(np.uint64(x), k)
    assert got == (ref.popcount(x), ref.lowest(x), ref.highest(x), ref.kth(x, k), ref.kth(x, k))


@njit(cache=True)
def _stream(seed, n, bound):
    rng = np.array([seed], dtype=np.uint64)
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = bits.below(rng, bound)
    return out


@given(st.integers(0, (1 << 64) - 1), st.integers(1, 1 << 32))
def test_rng_stream_is_identical_in_python(seed, bound):
    r = ref.Rng(seed)
    assert list(_stream(np.uint64(seed), 20, bound)) == [r.below(bound) for _ in range(20)]


def test_shuffle_matches_and_is_a_permutation():
    for seed in range(50):
        deck = np.arange(52)
        bits.shuffle(bits.new_rng(seed), deck)
        expected = list(range(52))
        ref.Rng(seed).shuffle(expected)
        assert list(deck) == expected and sorted(deck) == list(range(52))


def test_shuffle_is_roughly_uniform():
    # Position of card 0 after 52,000 shuffles: each of 52 places ~1000 times (chi-square, 51 dof).
    counts = np.zeros(52)
    rng = bits.new_rng(7)
    deck = np.arange(52)
    for _ in range(52_000):
        deck[:] = np.arange(52)
        bits.shuffle(rng, deck)
        counts[int(np.flatnonzero(deck == 0)[0])] += 1
    chi2 = ((counts - 1000) ** 2 / 1000).sum()
    assert chi2 < 90  # p < 0.001 threshold for 51 degrees of freedom is ~87


@njit(cache=True)
def _pext_pdep(x, m):
    return bits.pext(x, m), bits.pdep(x, m), bits._pext_loop(x, m), bits._pdep_loop(x, m)


@settings(max_examples=300)
@given(st.integers(0, (1 << 64) - 1), st.integers(0, (1 << 64) - 1))
def test_pext_pdep(x, m):
    got = _pext_pdep(np.uint64(x), np.uint64(m))
    assert got == (ref.pext(x, m), ref.pdep(x, m), ref.pext(x, m), ref.pdep(x, m))


def test_pure_python_mode():
    """Under NUMBA_DISABLE_JIT=1 the helpers fall back to plain Python (coverage runs)."""
    import subprocess
    import sys

    code = (
        "from tekkasim import bits; assert bits.popcount(0b1011) == 3 and bits.kth(0b1011, 2) == 3;"
        "assert bits.lowest(8) == 3 and bits.highest(8) == 3 and bits.pext(0b1100, 0b1010) == 0b10"
    )
    env = {"NUMBA_DISABLE_JIT": "1", "PATH": ""}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@njit(cache=True)
def _mistakes(seed, rate, n):
    rng = np.array([seed], dtype=np.uint64)
    out = np.empty(n, dtype=np.bool_)
    for i in range(n):
        out[i] = bits.mistake(rng, rate)
    return out, rng[0]


@given(st.integers(0, (1 << 64) - 1), st.floats(-0.5, 1.0))
def test_mistake_draw_matches_reference(seed, rate):
    r = ref.Rng(seed)
    got, state = _mistakes(np.uint64(seed), rate, 30)
    assert list(got) == [r.mistake(rate) for _ in range(30)]
    assert int(state) == r.state  # no draw at all when the rate is not positive
    if rate <= 0.0:
        assert int(state) == seed and not got.any()


@njit(cache=True)
def _mix3(a, b, c):
    return bits.mix_seed3(a, b, c)


@given(st.integers(0, (1 << 63) - 1), st.integers(0, (1 << 63) - 1), st.integers(0, (1 << 63) - 1))
def test_mix_seed3_matches_mix_seed(a, b, c):
    assert int(_mix3(np.uint64(a), np.uint64(b), np.uint64(c))) == bits.mix_seed(a, b, c)
    assert 0 <= bits.mix_seed(a, b, c) < 1 << 63


def test_mix_seed_separates_parts():
    seeds = {bits.mix_seed(s, t, k) for s in range(20) for t in (0, 1) for k in range(20)}
    assert len(seeds) == 800
    assert bits.mix_seed(1, 2) != bits.mix_seed(2, 1) and bits.mix_seed(1, 2) != bits.mix_seed(1, 2, 0)


@njit(cache=True)
def _picks(seed, costs, n, temperature, reps):
    rng = np.array([seed], dtype=np.uint64)
    out = np.empty(reps, dtype=np.int64)
    for i in range(reps):
        out[i] = bits.mistake_pick(rng, costs, n, temperature)
    return out, rng[0]


def _pack(steps):
    return np.uint64(sum(s << (4 * i) for i, s in enumerate(steps)))


@given(
    st.integers(0, (1 << 64) - 1),
    st.lists(st.integers(0, 15), min_size=1, max_size=16),
    st.sampled_from([0.0, -1.0, 0.05, 0.3, 1.0, 4.0]),
)
def test_mistake_pick_matches_reference(seed, steps, temperature):
    r = ref.Rng(seed)
    got, state = _picks(np.uint64(seed), _pack(steps), len(steps), temperature, 10)
    assert list(got) == [r.mistake_pick(steps, temperature) for _ in range(10)]
    assert int(state) == r.state
    for i in got:
        assert i == -1 if min(steps) == 15 else steps[i] < 15  # never the excluded choice


def test_mistake_pick_prefers_cheap_choices():
    got, _ = _picks(np.uint64(7), _pack([8, 15, 0, 4, 14]), 5, 0.3, 20000)
    counts = np.bincount(got, minlength=5)
    assert counts[1] == 0  # the bot's own choice is never the mistake
    assert counts[2] > counts[3] > counts[0] > counts[4]
    # the softmax weights: exp(-cost / 0.3) with costs 0, 0.5, 1, 1.75 tricks
    w = np.exp(-np.array([1.0, 0.0, 0.5, 1.75]) / 0.3)
    assert np.allclose(counts[[0, 2, 3, 4]] / 20000, w / w.sum(), atol=0.01)
    assert bits.slip_step(0.0) == 0 and bits.slip_step(0.3) == 2 and bits.slip_step(9.0) == 14
