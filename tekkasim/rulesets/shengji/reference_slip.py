"""Pure-Python twin of the Shengji policy's estimate of a play (``bots._shengji_policy.play_value``), the
price of a play mistake: the features it weighs (``FOLLOW_FEATURES`` / ``LEAD_FEATURES``) computed with
Counters and the list-based rules of ``reference.shengji``, no masks. The tests compare the two on random
positions; the weights were fitted on these features (experiments/README.md).

Arguments are the compiled policy's own: the parameter vector ``p``, the table scalars ``st`` (``S_*``),
the seat, its hand and burial as ``(one, two)`` masks of a multiset (the burial is the dealer's own, else
zeros), the play as masks, and the kitty's points as the seat counts them.
"""

from __future__ import annotations

from collections import Counter

from tekkasim.rulesets.shengji import _policy as sp
from tekkasim.rulesets.shengji.reference import TRUMP, card_points, effective_suit, shape, strength


def _counter(one: int, two: int) -> Counter:
    out: Counter = Counter()
    for k in range(54):
        if one >> k & 1:
            out[k] = 2 if two >> k & 1 else 1
    return out


def tops(trump: int, level: int, outside: Counter) -> list[list[int]]:
    """``tops[need - 1][e]``: the highest strength of effective suit ``e`` of which ``need`` copies are
    outside (-1: none)."""
    out = [[-1] * 5 for _ in range(2)]
    for k, c in outside.items():
        for need in (1, 2):
            if c >= need:
                e = effective_suit(k, trump, level)
                out[need - 1][e] = max(out[need - 1][e], strength(k, trump, level))
    return out


def secure(e: int, shp: int, key: int, seats_after: list[int], infer: bool, top: list, voids: list) -> bool:
    """Whether a play of shape ``shp`` and rank ``key`` in a trick led in ``e`` cannot be beaten by
    ``seats_after``: no higher play of its kind outside, and (``infer``) no seat after known void in a
    side suit and not in trumps."""
    if not seats_after:
        return True
    need = 1 if shp == 0 else 2
    if key >= 16:
        return top[need - 1][TRUMP] <= key - 16
    if top[need - 1][e] > key:
        return False
    return not (infer and any(voids[t] >> e & 1 and not voids[t] >> TRUMP & 1 for t in seats_after))


def play_features(p, st, seat: int, hand: tuple[int, int], buried: tuple[int, int], play: tuple[int, int], kitty):
    """``("lead" | "follow", features)`` of the play, in the order of ``LEAD_FEATURES`` /
    ``FOLLOW_FEATURES``."""
    trump, level = int(st[sp.S_TRUMP]), int(st[sp.S_LEVEL])
    h = _counter(*hand)
    x = _counter(*play)
    outside = Counter({k: 2 for k in range(54)})
    outside.subtract(h)
    outside.subtract(_counter(*buried))
    if p[sp.P_MEMORY] >= sp.MEM_FULL:
        outside.subtract(_counter(int(st[sp.S_GONE1]), int(st[sp.S_GONE2])))
    top = tops(trump, level, outside)
    voids = [int(st[sp.S_VOID0 + t]) for t in range(4)]
    infer = p[sp.P_INFER] > 0
    cards = sorted(x.elements())
    pts = sum(card_points(k) for k in cards)
    trumps = trump_str = masters = side_str = broken = tbroken = 0
    for k, c in x.items():
        e, s = effective_suit(k, trump, level), strength(k, trump, level)
        if e == TRUMP:
            trumps += c
            trump_str += c * s
        elif top[0][e] <= s:
            masters += c
        else:
            side_str += c * s
        if c == 1 and h[k] == 2:
            broken += 1
            near = {s - 1, s + 1}
            if any(h[j] == 2 and effective_suit(j, trump, level) == e and strength(j, trump, level) in near for j in h):
                tbroken += 1
    tn = int(st[sp.S_TN])
    opps = [(seat + 1) % 4, (seat + 3) % 4]
    after = [t for t in ((seat + j) % 4 for j in range(1, 4 - tn)) if t in opps]
    spend = [trumps, trump_str, masters, side_str, broken, tbroken]
    if tn == 0:
        shp, e, t = shape(cards, trump, level)
        sure = int(secure(e, shp, t + (16 if e == TRUMP else 0), after, infer, top, voids))
        trump_lead = int(e == TRUMP)
        length = sum(c for k, c in h.items() if effective_suit(k, trump, level) == e)
        ruffable = pvoid = 0
        if e != TRUMP and infer:
            for t in range(4):
                if t != seat and voids[t] >> e & 1 and not voids[t] >> TRUMP & 1:
                    if t in opps:
                        ruffable = 1
                    else:
                        pvoid = 1
        short = int(e != TRUMP and length <= 2)
        return "lead", [
            sure,
            sure * pts,
            pts,
            trump_lead,
            sure * trump_lead,
            *spend,
            length,
            ruffable,
            ruffable * pts,
            pvoid,
            short,
        ]
    e, lead_shape = int(st[sp.S_LEAD_SUIT]), int(st[sp.S_LEAD_SHAPE])
    void = all(effective_suit(k, trump, level) != e for k in h)
    s = shape(cards, trump, level)
    key = -1
    if s is not None and s[0] == lead_shape and (s[1] == e or s[1] == TRUMP and void):
        key = s[2] + (16 if s[1] == TRUMP else 0)
    table = int(st[sp.S_TPTS])
    if sum(h.values()) == len(cards):
        table += int(kitty) * 2 * len(cards)
    best = int(st[sp.S_BEST_KEY])
    partner = int(st[sp.S_BEST_SEAT]) % 2 == seat % 2
    if key > best:
        cat = 0 if secure(e, lead_shape, key, after, infer, top, voids) else 1
    elif partner:
        cat = 2 if secure(e, lead_shape, best, after, infer, top, voids) else 3
    else:
        cat = 4
    f = [0] * len(sp.FOLLOW_FEATURES)
    f[cat] = table
    f[5 + cat] = pts
    if cat < 4:
        f[10 + cat] = 1
    f[14:20] = spend
    if cat < 2:
        f[20] = int(partner)
        f[21] = int(void and e != TRUMP and key >= 16)
    return "follow", f


def play_value(p, st, seat: int, hand, buried, play, kitty) -> float:
    """The estimate: the features weighted by ``W_LEAD`` or ``W_FOLLOW``."""
    kind, f = play_features(p, st, seat, hand, buried, play, kitty)
    w = sp.W_LEAD if kind == "lead" else sp.W_FOLLOW
    return float(sum(float(a) * b for a, b in zip(w, f, strict=True)))
