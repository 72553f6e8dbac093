"""The SHENGJI codec of stored blocks (format 3, codec 4): a Shengji deal's actions coded against what the
rules allow at each point, decoded by replaying the compiled rules from the deal's seed.

Every decision is one or more *symbols*, a symbol ``s`` of ``n`` possible written in truncated binary
(``k = floor(log2 n)``: the first ``2**(k+1) - n`` symbols in ``k`` bits, the others in ``k + 1``; nothing
at all when ``n`` is 1), bits LSB first, every deal of table 0 then table 1, end to end:

* **declaration**: the index among ``legal_actions()`` (a pass, then the calls ascending);
* **burial**: the rank of the buried kind among the kinds the dealer holds (the State API's order);
* **lead**: the rank of its lowest kind among the kinds held; then, when that kind is held twice, its
  shape: 0 single, 1 pair, ``2 + j`` the ``j``-th tractor (kind masks ascending) whose lowest kind it is;
* **follow**: only the free part of the play is coded (``follow_structure``): the cards of the led suit
  are ``must`` when the hand holds at most the lead's count of them, else the play is ``count`` cards of
  ``pool`` with at least ``min_pairs`` pairs. The free ``r`` cards are coded as the number ``q`` of kinds
  taken twice (from the fewest the pool allows), the ``q`` pair kinds as a combination of the pool's pairs,
  then the ``r - 2q`` single kinds as a combination of the pool's other kinds (combinatorial number
  system). A single card to a single lead is its rank among the kinds it may be: most follows cost 0-3 bits.

The payload is a header byte (0, the scheme) and the stream. Decoding replays the same rules from each
seed (``bots._shengji_policy``: the deal and ``apply``, which play exactly as ``ShengjiState``), so the
actions come back exactly; it refuses a stream whose symbols go beyond the options or whose deals do not
end with their actions, and returns each deal's gains for the caller to check against the stored returns.
:func:`shengji_encode_py` / :func:`shengji_decode_py` are the twins on the State API.
"""

from __future__ import annotations

from collections import Counter
from math import comb

import numpy as np
from numba import njit

from tekkasim.bits import highest, lowest, mix_seed3, popcount
from tekkasim.rulesets.shengji import _kernels as K
from tekkasim.rulesets.shengji import _policy as sp
from tekkasim.rulesets.shengji.game import _masks, enumerate_leads
from tekkasim.rulesets.trick52.codec import _take
from tekkasim.tournament._bitstream import finish, put_symbol, stream_bytes, words

ZERO = np.uint64(0)
ONE = np.uint64(1)
SCHEME = 0


def _binomials() -> np.ndarray:
    c = np.zeros((64, 64), np.int64)
    for n in range(64):
        c[n, 0] = 1
        for r in range(1, n + 1):
            c[n, r] = c[n - 1, r - 1] + c[n - 1, r]
    return c


_C = _binomials()  # C(63, 31) < 2**63; a pool holds at most 54 kinds


# --- symbols -----------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _nth_card(mask, s):
    """The ``s``-th lowest card (bit) of ``mask`` (0-based; ``s`` < its popcount): a symbol read back as a card."""
    m = mask
    for _ in range(s):
        m &= m - ONE
    return lowest(m)


@njit(cache=True, inline="always")
def _take_sym(data, pos, n):
    """``(symbol, bits)`` of a truncated binary symbol of ``n`` at bit ``pos``."""
    if n <= 1:
        return np.int64(0), 0
    k = highest(np.uint64(n))
    u = (np.int64(1) << (k + 1)) - n
    v = _take(data, pos, k)
    if v < u:
        return v, k
    return u + 2 * (v - u) + _take(data, pos + k, 1), k + 1


@njit(cache=True)
def _comb_rank(cands, chosen, C):
    """Rank of the kinds ``chosen`` (a subset of ``cands``) among the ``popcount(chosen)``-subsets of
    ``cands`` (combinatorial number system over the candidates in kind order)."""
    rank = np.int64(0)
    i = 0
    j = 0
    m = cands
    while m:
        k = lowest(m)
        m &= m - ONE
        if (chosen >> np.uint64(k)) & ONE:
            j += 1
            rank += C[i, j]
        i += 1
    return rank


@njit(cache=True)
def _comb_unrank(cands, r, rank, C):
    """The ``r``-subset of ``cands`` of rank ``rank`` (the inverse of :func:`_comb_rank`)."""
    idx = np.empty(64, np.int64)
    n = 0
    m = cands
    while m:
        idx[n] = lowest(m)
        n += 1
        m &= m - ONE
    out = ZERO
    i = n - 1
    for j in range(r, 0, -1):
        while C[i, j] > rank:
            i -= 1
        out |= ONE << np.uint64(idx[i])
        rank -= C[i, j]
        i -= 1
    return out


@njit(cache=True)
def _free_part(pool1, pool2, r, min_pairs):
    """``(qmin, qmax, pairs held, kinds held)`` of choosing ``r`` cards of the pool ``(pool1, pool2)``."""
    p = popcount(pool2)
    d = popcount(pool1)
    qmin = max(min_pairs, r - d)
    qmax = min(r // 2, p)
    return qmin, qmax, p, d


@njit(cache=True, inline="always")
def _insert(ms, cnt, m):
    """Insert ``m`` into the ascending ``ms[:cnt]`` unless present; returns the new count."""
    q = cnt
    while q > 0 and ms[q - 1] > m:
        q -= 1
    if q > 0 and ms[q - 1] == m:
        return cnt
    for b in range(cnt, q, -1):
        ms[b] = ms[b - 1]
    ms[q] = m
    return cnt + 1


@njit(cache=True)
def _tractors_of(h2, k0, eff, strength_kinds, ms):
    """The distinct tractors of the pairs ``h2`` whose lowest kind is ``k0``, as kind masks ascending in
    ``ms``; returns how many. The rows of ``list_tractors`` and masks of ``tractor_mask``, in ``k0``'s
    effective suit only (a tractor holding ``k0`` lies there): the encoder's costliest step otherwise."""
    e = eff[k0]
    ps = 0
    for s in range(16):
        if (h2 & strength_kinds[e, s]) != ZERO:
            ps |= 1 << s
    cnt = 0
    if (ps & (ps >> 1)) == 0:
        return cnt
    for lo in range(16):
        if not (ps >> lo) & 1:
            continue
        multi = -1
        if popcount(h2 & strength_kinds[e, lo]) > 1:
            multi = lo
        hi = lo + 1
        while hi < 16 and (ps >> hi) & 1:
            if popcount(h2 & strength_kinds[e, hi]) > 1:
                multi = hi
            if multi < 0:
                m = ZERO
                for s in range(lo, hi + 1):
                    m |= ONE << np.uint64(lowest(h2 & strength_kinds[e, s]))
                if lowest(m) == k0:
                    cnt = _insert(ms, cnt, m)
            else:
                choices = h2 & strength_kinds[e, multi]
                while choices:
                    chosen = lowest(choices)
                    choices &= choices - ONE
                    m = ZERO
                    for s in range(lo, hi + 1):
                        ms_s = h2 & strength_kinds[e, s]
                        if (ms_s >> np.uint64(chosen)) & ONE:
                            m |= ONE << np.uint64(chosen)
                        else:
                            m |= ONE << np.uint64(lowest(ms_s))
                    if lowest(m) == k0:
                        cnt = _insert(ms, cnt, m)
            hi += 1
    return cnt


# --- the kernels ---------------------------------------------------------------------------------------------


@njit(cache=True)
def _scratch():
    st, hands, tplays, tables, buf, opts, _tops, rng, deck = sp._scratch()
    return st, hands, tplays, tables, buf, opts, rng, deck, np.empty(K.TRACTOR_CAP, np.uint64)


@njit(cache=True, inline="always")
def _code_action(st, hands, one, two, eff, strength_kinds, suit_kinds, opts, ms, C, out, acc, nacc, p):
    """Append the symbols of the action ``(one, two)`` of the seat to move in ``st`` (before it is applied):
    ``(acc, nacc, p, ok)``, ``ok`` False when the action is not one the symbols can give back (not legal)."""
    phase = st[sp.S_PHASE]
    seat = st[sp.S_TO_MOVE]
    if phase == sp.PH_DECLARE:
        cnt = K.declaration_options(hands[seat, 0], hands[seat, 1], st[sp.S_LEVEL], st[sp.S_STANDING], opts)
        s = -1
        if one == ZERO and two == ZERO:
            s = 0
        else:
            code = 2 * lowest(one) + (1 if two != ZERO else 0)
            if popcount(one) == 1 and (two == ZERO or two == one):
                for q in range(cnt):
                    if opts[q] == code:
                        s = q + 1
        if s < 0:
            return acc, nacc, p, False
        acc, nacc, p = put_symbol(out, acc, nacc, p, s, cnt + 1)
    elif phase == sp.PH_BURY:
        h1 = hands[st[sp.S_DEALER], 0]
        if two != ZERO or popcount(one) != 1 or (one & h1) == ZERO:
            return acc, nacc, p, False
        acc, nacc, p = put_symbol(out, acc, nacc, p, popcount(h1 & (one - ONE)), popcount(h1))
    elif phase == sp.PH_PLAY:
        h1 = hands[seat, 0]
        h2 = hands[seat, 1]
        if st[sp.S_TN] == 0:
            if one == ZERO:
                return acc, nacc, p, False
            k0 = lowest(one)
            b0 = ONE << np.uint64(k0)
            if (h1 & b0) == ZERO:
                return acc, nacc, p, False
            acc, nacc, p = put_symbol(out, acc, nacc, p, popcount(h1 & (b0 - ONE)), popcount(h1))
            # legal by construction: the symbols give back only legal leads, and must give this one
            if h2 & b0:
                cnt = _tractors_of(h2, k0, eff, strength_kinds, ms)
                s = -1
                if one == b0:
                    s = 0 if two == ZERO else (1 if two == b0 else -1)
                elif two == one:
                    for q in range(cnt):
                        if ms[q] == one:
                            s = 2 + q
                if s < 0:
                    return acc, nacc, p, False
                acc, nacc, p = put_symbol(out, acc, nacc, p, s, 2 + cnt)
            elif one != b0 or two != ZERO:
                return acc, nacc, p, False
        else:
            n = st[sp.S_LEAD_N]
            e = st[sp.S_LEAD_SUIT]
            s1 = h1 & suit_kinds[e]
            s2 = h2 & suit_kinds[e]
            if K.size(s1, s2) <= n:  # all of the led suit, then r free cards of the rest
                m1, m2 = s1, s2
                pool1, pool2 = K.remove(h1, h2, s1, s2)
                r = n - K.size(s1, s2)
                mp = 0
            else:  # n free cards of the led suit, with the pairs the lead asks for
                m1, m2 = ZERO, ZERO
                pool1, pool2 = s1, s2
                r = n
                mp = min(st[sp.S_LEAD_PAIRS], popcount(s2))
            if (m1 & ~one) != ZERO or (m2 & ~two) != ZERO:
                return acc, nacc, p, False
            rest1, rest2 = K.remove(one, two, m1, m2)
            sing = rest1 & ~rest2
            if r > 0:
                qmin, qmax, npairs, d = _free_part(pool1, pool2, r, mp)
                q = popcount(rest2)
                if q < qmin or q > qmax or (rest2 & ~pool2) != ZERO or (sing & ~pool1) != ZERO:
                    return acc, nacc, p, False
                if popcount(sing) != r - 2 * q:
                    return acc, nacc, p, False
                acc, nacc, p = put_symbol(out, acc, nacc, p, q - qmin, qmax - qmin + 1)
                acc, nacc, p = put_symbol(out, acc, nacc, p, _comb_rank(pool2, rest2, C), C[npairs, q])
                acc, nacc, p = put_symbol(out, acc, nacc, p, _comb_rank(pool1 & ~rest2, sing, C), C[d - q, r - 2 * q])
            # legal by construction as for leads: what the decoder rebuilds must be this play
            e1, e2 = K.add(m1, m2, rest2 | sing, rest2)
            if e1 != one or e2 != two:
                return acc, nacc, p, False
    else:
        return acc, nacc, p, False
    return acc, nacc, p, True


@njit(cache=True)
def shengji_fill(seeds, masks0, n0, masks1, n1, out, gains):
    """Write the SHENGJI stream of both tables' deals (``masks0[i, j]`` = ``(one, two)`` of action ``j`` of
    the deal of ``seeds[i]`` at table 0, ``n0[i]`` used; the same for table 1) into ``out`` (``_bitstream``
    words); each deal's replayed (gain A, gain B) into ``gains`` (table 0's deals, then table 1's). Returns
    the bytes written, or -1 when an action is not legal in the replay, a deal is not over after its
    actions or ``out`` is full. Twin: :func:`shengji_encode_py`."""
    st, hands, tplays, tables, buf, opts, rng, deck, ms = _scratch()
    eff, strength, suit_kinds, strength_kinds = tables
    acc = np.uint64(0)
    nacc = 0
    p = 0
    n_seeds = seeds.shape[0]
    for t in range(2):
        masks = masks0 if t == 0 else masks1
        ns = n0 if t == 0 else n1
        for i in range(n_seeds):
            ok, acc, nacc, p = _fill_deal(
                seeds[i],
                masks[i],
                ns[i],
                st,
                hands,
                tplays,
                eff,
                strength,
                suit_kinds,
                strength_kinds,
                opts,
                rng,
                deck,
                ms,
                _C,
                out,
                acc,
                nacc,
                p,
            )
            if not ok:
                return -1
            ga, gb = sp.gains(st)
            gains[t * n_seeds + i, 0] = ga
            gains[t * n_seeds + i, 1] = gb
    return finish(out, acc, nacc, p)


@njit(cache=True, _nrt=False)
def _fill_deal(
    seed,
    masks,
    n,
    st,
    hands,
    tplays,
    eff,
    strength,
    suit_kinds,
    strength_kinds,
    opts,
    rng,
    deck,
    ms,
    C,
    out,
    acc,
    nacc,
    p,
):
    """One deal of :func:`shengji_fill` (``masks[:n]`` its actions), replayed from ``seed`` into ``st``:
    ``(ok, acc, nacc, p)``. A function of its own without numba's reference counting, as ``sp._play_loop``."""
    sp._deal_into(seed, 0, 0, -1, 0, st, hands, deck, rng)
    for j in range(n):
        if p + 4 > out.shape[0]:  # no room for an action's symbols (< 3 words): never in practice
            return False, acc, nacc, p
        one = masks[j, 0]
        two = masks[j, 1]
        acc, nacc, p, ok = _code_action(
            st, hands, one, two, eff, strength_kinds, suit_kinds, opts, ms, C, out, acc, nacc, p
        )
        if not ok:
            return False, acc, nacc, p
        sp.apply(st, hands, tplays, eff, strength, suit_kinds, strength_kinds, one, two)
    return st[sp.S_PHASE] == sp.PH_END, acc, nacc, p


@njit(cache=True)
def shengji_play_fill(params0, params1, seeds, out, n_actions, gains):
    """Play the first deal of each board seed at both tables (``params0``/``params1``: the (4, N_P) seats'
    policies at table 0 and table 1) exactly as ``bots.shengji.play_tables`` does (``sp.play_deal``: the
    same deal, decision seeds and policy), and write each action's symbols as it is played: the SHENGJI
    stream :func:`shengji_fill` writes from the recorded actions, without replaying them, in one kernel
    call a block. ``n_actions`` and ``gains`` get each deal's action count and (gain A, gain B), table 0's
    deals then table 1's. Returns the bytes written, or -1 when an action cannot be coded, a deal runs past
    ``sp.MAX_ACTIONS`` or ``out`` is full (then the block is played by ``play_tables`` and stored as before)."""
    st, hands, tplays, tables, buf, opts, tops, rng, deck = sp._scratch()
    eff, strength, suit_kinds, strength_kinds = tables
    ms = np.empty(K.TRACTOR_CAP, np.uint64)
    acc = np.uint64(0)
    nacc = 0
    p = 0
    n_seeds = seeds.shape[0]
    for t in range(2):
        params = params0 if t == 0 else params1
        for b in range(n_seeds):
            n, acc, nacc, p = _play_fill_deal(
                params,
                seeds[b],
                np.int64(t),
                st,
                hands,
                tplays,
                eff,
                strength,
                suit_kinds,
                strength_kinds,
                buf,
                opts,
                tops,
                rng,
                deck,
                ms,
                _C,
                out,
                acc,
                nacc,
                p,
            )
            if n < 0:
                return -1
            ga, gb = sp.gains(st)
            n_actions[t * n_seeds + b] = n
            gains[t * n_seeds + b, 0] = ga
            gains[t * n_seeds + b, 1] = gb
    return finish(out, acc, nacc, p)


@njit(cache=True, _nrt=False)
def _play_fill_deal(
    params,
    seed,
    table,
    st,
    hands,
    tplays,
    eff,
    strength,
    suit_kinds,
    strength_kinds,
    buf,
    opts,
    tops,
    rng,
    deck,
    ms,
    C,
    out,
    acc,
    nacc,
    p,
):
    """One deal of :func:`shengji_play_fill`: ``sp.play_deal``'s deal and ``sp._play_loop``, each action coded
    before it is applied; ``(actions, acc, nacc, p)``, actions -1 when it could not be coded. A function of
    its own per deal, without reference counting: the same loop inside the block's loop ran slower."""
    sp._deal_into(seed, 0, 0, -1, 0, st, hands, deck, rng)
    i = np.int64(0)
    while st[sp.S_PHASE] != sp.PH_END:
        if i >= sp.MAX_ACTIONS or p + 4 > out.shape[0]:  # (an action's symbols take < 3 words)
            return -1, acc, nacc, p
        rng[0] = mix_seed3(seed, table, i)
        one, two = sp.decide_turn(params, st, hands, eff, strength, suit_kinds, strength_kinds, buf, opts, tops, rng)
        acc, nacc, p, ok = _code_action(
            st, hands, one, two, eff, strength_kinds, suit_kinds, opts, ms, C, out, acc, nacc, p
        )
        if not ok:
            return -1, acc, nacc, p
        sp.apply(st, hands, tplays, eff, strength, suit_kinds, strength_kinds, one, two)
        i += 1
    return i, acc, nacc, p


@njit(cache=True)
def shengji_read(seeds, data, lengths, masks, gains):
    """Decode the SHENGJI stream ``data`` (padded with 8 zero bytes) of ``2 * len(seeds)`` deals (``lengths[i]``
    actions in deal ``i``: table 0's deals, then table 1's, on the same seeds) into ``masks`` (``(one,
    two)`` per action) and each deal's (gain A, gain B); return the bits read, or -1 when the stream cannot
    be a replay (a symbol beyond its options, a deal not over after its actions)."""
    st, hands, tplays, tables, buf, opts, rng, deck, ms = _scratch()
    eff, strength, suit_kinds, strength_kinds = tables
    C = _C
    pos = 0
    n_seeds = seeds.shape[0]
    for i in range(lengths.shape[0]):
        sp._deal_into(seeds[i % n_seeds], 0, 0, -1, 0, st, hands, deck, rng)
        for j in range(lengths[i]):
            phase = st[sp.S_PHASE]
            seat = st[sp.S_TO_MOVE]
            one = ZERO
            two = ZERO
            if phase == sp.PH_DECLARE:
                cnt = K.declaration_options(hands[seat, 0], hands[seat, 1], st[sp.S_LEVEL], st[sp.S_STANDING], opts)
                s, w = _take_sym(data, pos, cnt + 1)
                pos += w
                if s > cnt:
                    return -1
                if s > 0:
                    code = opts[s - 1]
                    one = ONE << np.uint64(code >> 1)
                    two = one if code & 1 else ZERO
            elif phase == sp.PH_BURY:
                h1 = hands[st[sp.S_DEALER], 0]
                s, w = _take_sym(data, pos, popcount(h1))
                pos += w
                if s >= popcount(h1):
                    return -1
                one = ONE << np.uint64(_nth_card(h1, s))
            elif phase == sp.PH_PLAY:
                h1 = hands[seat, 0]
                h2 = hands[seat, 1]
                if st[sp.S_TN] == 0:
                    s, w = _take_sym(data, pos, popcount(h1))
                    pos += w
                    if s >= popcount(h1):
                        return -1
                    k0 = _nth_card(h1, s)
                    b0 = ONE << np.uint64(k0)
                    one = b0
                    if h2 & b0:
                        cnt = _tractors_of(h2, k0, eff, strength_kinds, ms)
                        s, w = _take_sym(data, pos, 2 + cnt)
                        pos += w
                        if s >= 2 + cnt:
                            return -1
                        if s == 1:
                            two = b0
                        elif s >= 2:
                            one = ms[s - 2]
                            two = one
                else:
                    n = st[sp.S_LEAD_N]
                    e = st[sp.S_LEAD_SUIT]
                    s1 = h1 & suit_kinds[e]
                    s2 = h2 & suit_kinds[e]
                    if K.size(s1, s2) <= n:
                        pool1, pool2 = K.remove(h1, h2, s1, s2)
                        one, two = s1, s2
                        r = n - K.size(s1, s2)
                        mp = 0
                    else:
                        pool1, pool2 = s1, s2
                        r = n
                        mp = min(st[sp.S_LEAD_PAIRS], popcount(s2))
                    if r > 0:
                        qmin, qmax, p, d = _free_part(pool1, pool2, r, mp)
                        if qmax < qmin:
                            return -1
                        s, w = _take_sym(data, pos, qmax - qmin + 1)
                        pos += w
                        q = qmin + s
                        if q > qmax:
                            return -1
                        rank, w = _take_sym(data, pos, C[p, q])
                        pos += w
                        if rank >= C[p, q]:
                            return -1
                        pairs = _comb_unrank(pool2, q, rank, C)
                        rank, w = _take_sym(data, pos, C[d - q, r - 2 * q])
                        pos += w
                        if rank >= C[d - q, r - 2 * q]:
                            return -1
                        singles = _comb_unrank(pool1 & ~pairs, r - 2 * q, rank, C)
                        one, two = K.add(one, two, pairs | singles, pairs)
            else:
                return -1
            masks[i, j, 0] = one
            masks[i, j, 1] = two
            sp.apply(st, hands, tplays, eff, strength, suit_kinds, strength_kinds, one, two)
        if st[sp.S_PHASE] != sp.PH_END:
            return -1
        ga, gb = sp.gains(st)
        gains[i, 0] = ga
        gains[i, 1] = gb
    return pos


# --- the Python faces ----------------------------------------------------------------------------------------


def shengji_encode(seeds: np.ndarray, masks0, n0, masks1, n1) -> tuple[bytes, np.ndarray] | None:
    """``(payload, gains)`` of both tables' deals of ``seeds`` (uint64) given as ``(one, two)`` masks, or None
    when an action is not legal in the replay (then the block keeps another codec)."""
    out = words(64 * (int(n0.sum()) + int(n1.sum())) + 256)  # generous: most actions take a few bits
    gains = np.zeros((2 * len(seeds), 2), np.int64)
    used = shengji_fill(seeds, masks0, n0, masks1, n1, out, gains)
    if used < 0:
        return None
    return bytes([SCHEME]) + stream_bytes(out, used), gains


def shengji_play_encode(params0, params1, seeds: np.ndarray) -> tuple[bytes, np.ndarray, np.ndarray] | None:
    """``(payload, n_actions, gains)`` of both tables' first deals of ``seeds`` (uint64) played by the seats'
    policies (:func:`shengji_play_fill`), or None when the kernel could not code a block."""
    out = words(8 * 96 * 2 * len(seeds) + 256)  # far more than a deal needs; a block that needs more is played again
    n_actions = np.zeros(2 * len(seeds), np.int64)
    gains = np.zeros((2 * len(seeds), 2), np.int64)
    used = shengji_play_fill(params0, params1, seeds, out, n_actions, gains)
    if used < 0:
        return None
    return bytes([SCHEME]) + stream_bytes(out, used), n_actions, gains


def shengji_decode(seeds: np.ndarray, payload, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(masks, gains)`` of the deals of a SHENGJI payload (table 0's deals of ``seeds``, then table 1's,
    ``lengths[i]`` actions in deal ``i``). ValueError if damaged."""
    payload = bytes(payload)
    if not payload or payload[0] != SCHEME or len(lengths) != 2 * len(seeds):
        raise ValueError("a SHENGJI payload of the wrong shape")
    data = np.frombuffer(payload[1:] + bytes(8), np.uint8)
    lengths = np.asarray(lengths, np.int64)
    if len(lengths) and (lengths.min() < 0 or lengths.max() > sp.MAX_ACTIONS):
        raise ValueError("a SHENGJI block of impossible action counts")
    masks = np.zeros((len(lengths), max(int(lengths.max(initial=0)), 1), 2), np.uint64)
    gains = np.zeros((len(lengths), 2), np.int64)
    pos = shengji_read(np.asarray(seeds, np.uint64), data, lengths, masks, gains)
    if pos < 0 or (pos + 7) // 8 != len(payload) - 1:
        raise ValueError("a SHENGJI payload that does not replay")
    return masks, gains


def _kind_list(one: int, two: int) -> list[int]:
    """``_kinds`` by set bits only (the decoder's Python half: most plays are one card)."""
    out = []
    while one:
        low = one & -one
        k = low.bit_length() - 1
        out.append(k)
        if two & low:
            out.append(k)
        one ^= low
    return out


def masks_to_actions(masks: np.ndarray, lengths) -> list[list[list[int]]]:
    """Each deal's actions as lists of kinds (the KINDS payload's form) from ``(one, two)`` masks."""
    return [[_kind_list(o, t) for o, t in masks[i, : int(lengths[i])].tolist()] for i in range(len(lengths))]


def actions_to_masks(deals: list[list]) -> tuple[np.ndarray, np.ndarray]:
    """``(masks, lengths)`` of deals whose actions are tuples (or lists) of kinds."""
    lengths = np.array([len(d) for d in deals], np.int64)
    masks = np.zeros((len(deals), max(int(lengths.max(initial=0)), 1), 2), np.uint64)
    for i, d in enumerate(deals):
        for j, a in enumerate(d):
            masks[i, j] = _masks(a)
    return masks, lengths


# --- the pure-Python twins (the State API, one big integer) ----------------------------------------------


class _Bits:
    def __init__(self, value: int = 0):
        self.value, self.pos = value, 0

    def put(self, s: int, n: int) -> None:
        if n <= 1:
            return
        k = n.bit_length() - 1
        u = (1 << (k + 1)) - n
        if s < u:
            self.value |= s << self.pos
            self.pos += k
        else:
            self.value |= (u + ((s - u) >> 1)) << self.pos
            self.value |= ((s - u) & 1) << (self.pos + k)
            self.pos += k + 1

    def take(self, n: int) -> int:
        if n <= 1:
            return 0
        k = n.bit_length() - 1
        u = (1 << (k + 1)) - n
        v = self.value >> self.pos & ((1 << k) - 1)
        self.pos += k
        if v < u:
            return v
        b = self.value >> self.pos & 1
        self.pos += 1
        return u + 2 * (v - u) + b


def _comb_rank_py(cands: list[int], chosen: set[int]) -> int:
    out, j = 0, 0
    for i, k in enumerate(cands):
        if k in chosen:
            j += 1
            out += comb(i, j)
    return out


def _comb_unrank_py(cands: list[int], r: int, rank: int) -> list[int]:
    out, i = [], len(cands) - 1
    for j in range(r, 0, -1):
        while comb(i, j) > rank:
            i -= 1
        out.append(cands[i])
        rank -= comb(i, j)
        i -= 1
    return out


def _lead_tractors(state) -> dict[int, list[tuple[int, ...]]]:
    """The legal tractor leads by lowest kind, each list ordered by kind mask."""
    seat = state.current_player()
    leads = enumerate_leads(int(state.hands[seat, 0]), int(state.hands[seat, 1]), state.arrays["strength_kinds"])
    out: dict[int, list] = {}
    for lead in leads:
        if len(lead) >= 4:
            out.setdefault(lead[0], []).append(lead)
    for v in out.values():
        v.sort(key=lambda t: _masks(t)[0])
    return out


def _free(spec) -> tuple[list[int], list[int], int, int, int]:
    """The pool's pair kinds and kinds, ``r``, and the fewest and most pairs the free cards may hold."""
    pool = spec["pool"]
    pairs = sorted(k for k, c in pool.items() if c == 2)
    kinds = sorted(k for k, c in pool.items() if c > 0)
    r = spec["count"]
    return pairs, kinds, r, max(spec["min_pairs"], r - len(kinds)), min(r // 2, len(pairs))


def shengji_encode_py(game, seeds, deals: list[list]) -> bytes:
    """The twin of :func:`shengji_encode`: ``deals`` (table 0's deals of ``seeds`` then table 1's, actions as
    kind tuples) replayed through ``game.new_deal`` and the State API. ValueError on an illegal action."""
    bits = _Bits()
    for i, actions in enumerate(deals):
        state = game.new_deal(int(seeds[i % len(seeds)]))
        for a in actions:
            a = tuple(sorted(a))
            phase = state.phase()
            if phase in ("declare", "bury"):
                legal = state.legal_actions()
                if a not in legal:
                    raise ValueError(f"{a} is not legal in the replay")
                bits.put(legal.index(a), len(legal))
            elif not state.trick:
                seat = state.current_player()
                hand = state._hand_counter(seat)
                held = sorted(hand)
                if a not in state._leads(seat):
                    raise ValueError(f"{a} is not a legal lead in the replay")
                bits.put(held.index(a[0]), len(held))
                if hand[a[0]] == 2:
                    tractors = _lead_tractors(state).get(a[0], [])
                    shape = 0 if len(a) == 1 else 1 if len(a) == 2 else 2 + tractors.index(a)
                    bits.put(shape, 2 + len(tractors))
            else:
                spec = state.follow_structure()
                chosen = Counter(a) - Counter(spec["must"])
                if sum(chosen.values()) != spec["count"] or Counter(spec["must"]) - Counter(a):
                    raise ValueError(f"{a} is not a legal follow in the replay")
                pairs, kinds, r, qmin, qmax = _free(spec)
                if r:
                    two = {k for k, c in chosen.items() if c == 2}
                    one = {k for k, c in chosen.items() if c == 1}
                    bits.put(len(two) - qmin, qmax - qmin + 1)
                    bits.put(_comb_rank_py(pairs, two), comb(len(pairs), len(two)))
                    rest = [k for k in kinds if k not in two]
                    bits.put(_comb_rank_py(rest, one), comb(len(rest), r - 2 * len(two)))
            state.apply_action(a)
    return bytes([SCHEME]) + bits.value.to_bytes((bits.pos + 7) // 8, "little")


def shengji_decode_py(game, seeds, payload: bytes, lengths) -> list[list[tuple[int, ...]]]:
    """The twin of :func:`shengji_decode` (actions only, as kind tuples)."""
    bits = _Bits(int.from_bytes(payload[1:], "little"))
    out = []
    for i, n in enumerate(lengths):
        state = game.new_deal(int(seeds[i % len(seeds)]))
        actions = []
        for _ in range(n):
            phase = state.phase()
            if phase in ("declare", "bury"):
                legal = state.legal_actions()
                a = legal[bits.take(len(legal))]
            elif not state.trick:
                seat = state.current_player()
                hand = state._hand_counter(seat)
                held = sorted(hand)
                k0 = held[bits.take(len(held))]
                a = (k0,)
                if hand[k0] == 2:
                    tractors = _lead_tractors(state).get(k0, [])
                    shape = bits.take(2 + len(tractors))
                    a = (k0,) if shape == 0 else (k0, k0) if shape == 1 else tractors[shape - 2]
            else:
                spec = state.follow_structure()
                pairs, kinds, r, qmin, qmax = _free(spec)
                chosen = []
                if r:
                    q = qmin + bits.take(qmax - qmin + 1)
                    two = _comb_unrank_py(pairs, q, bits.take(comb(len(pairs), q)))
                    rest = [k for k in kinds if k not in two]
                    one = _comb_unrank_py(rest, r - 2 * q, bits.take(comb(len(rest), r - 2 * q)))
                    chosen = two + two + one
                a = tuple(sorted(list(spec["must"]) + chosen))
            actions.append(a)
            state.apply_action(a)
        out.append(actions)
    return out
