"""GREEDY for Satat and Shengji in plain Python: the twins of their compiled GREEDY (``satat.Greedy``,
``shengji.ShengjiGreedy``), which the tests compare decision by decision. Feskot/Tekka's GREEDY is the
compiled policy of ``heuristic.GreedyBot``.

The same baseline everywhere: win the trick with the cheapest play that beats the plays so far, otherwise
throw the lowest; simple fixed rules for every other decision. It reads the seat's observation only.

Satat: Troupe is the longest suit of the caller's five (ties by high cards from the Ace down); never asks
for a redeal; never accuses (declines every out-of-turn action and plays a card when to move); collects
the deciding trick. Winning power: 2♥ above all, then Troupe by rank, then the led suit (after a 2♥ lead
the suit to follow is Troupe). Lowest card: by rank, a side card before Troupe, 2♥ last of all. On lead:
an Ace of a side suit if it holds one (clubs first), else its lowest card.

Shengji: always passes in the declaration (trump then comes from the kitty or another seat's call);
buries its weakest cards (side suits before trumps, non-point cards before 5s, 10s and Kings, lowest
strength first); on lead plays a side-suit Ace single if it has one, else its weakest single; following,
the play of the lowest rank in the trick (``_shengji_kernels.play_key``) among those that beat the
current best, else the weakest legal play (fewest points, then lowest total strength).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from tekkasim.bots.base import View
from tekkasim.rulesets.shengji import _kernels as K

# --- Satat -----------------------------------------------------------------------------------------------

TWO_HEARTS = 2 * 13 + 0
SATAT_TROUPE, SATAT_REDEAL, SATAT_COLLECT = 52, 56, 57


def _count_key(hand: int, suit: int) -> tuple[int, int]:
    pattern = (hand >> (13 * suit)) & 0x1FFF
    return (bin(pattern).count("1"), pattern)


def satat_act(view: View):
    if view.optional:
        return None  # never accuses
    legal = view.legal
    if SATAT_COLLECT in legal:
        return SATAT_COLLECT
    troupes = [a for a in legal if SATAT_TROUPE <= a < SATAT_TROUPE + 4]
    if troupes:
        hand = view.observation.hand & ~(1 << TWO_HEARTS)  # 2♥ never counts as a heart
        suits = [a - SATAT_TROUPE for a in troupes]
        best = max(suits, key=lambda s: (_count_key(hand, s), -s))
        return SATAT_TROUPE + best
    cards = [a for a in legal if isinstance(a, int) and 0 <= a < 52]
    pub = view.observation.public
    troupe = pub["trump"]
    table = list(pub.get("table", []))
    if len(table) == 4:  # the last trick is still on the table: we lead
        table = []

    def low_key(c: int) -> tuple[int, int, int]:
        if c == TWO_HEARTS:
            return (99, 0, 0)
        return (c % 13, 1 if c // 13 == troupe else 0, c // 13)

    if not table:
        aces = [c for c in cards if c % 13 == 12 and c // 13 != troupe]
        return min(aces) if aces else min(cards, key=low_key)
    first = table[0][1]
    led = troupe if first == TWO_HEARTS else first // 13

    def power(c: int) -> int:
        if c == TWO_HEARTS:
            return 1000
        if c // 13 == troupe:
            return 100 + c % 13
        return c % 13 if c // 13 == led else -1

    best = max(power(c) for _, c in table)
    winners = [c for c in cards if power(c) > best]
    if winners:
        return min(winners, key=power)
    return min(cards, key=low_key)


# --- Shengji ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _tables(trump: int, level: int):
    return K.new_tables(trump, level)


def _masks(play) -> tuple[int, int]:
    one = two = 0
    for k in play:
        bit = 1 << k
        if one & bit:
            two |= bit
        one |= bit
    return one, two


def _points(play) -> int:
    return sum(5 if k < 52 and k % 13 == 3 else 10 if k < 52 and k % 13 in (8, 11) else 0 for k in play)


def shengji_act(view: View):
    if view.optional:
        return None
    legal = view.legal
    obs = view.observation
    if obs.phase == "declare":
        return ()
    pub = obs.public
    eff, strength, suit_kinds, _ = _tables(int(pub["trump"]), int(pub["level"]))

    def weak_key(play) -> tuple[int, int, int]:
        return (sum(1 for k in play if eff[k] == K.TRUMP), _points(play), sum(int(strength[k]) for k in play))

    if obs.phase == "bury":
        return min(legal, key=weak_key)
    tricks = pub["tricks"]
    current = tricks[-1]["plays"] if tricks and tricks[-1]["winner"] is None else []
    if not current:
        aces = [a for a in legal if len(a) == 1 and a[0] < 52 and a[0] % 13 == 12 and eff[a[0]] != K.TRUMP]
        if aces:
            return min(aces)
        singles = [a for a in legal if len(a) == 1]
        return min(singles or legal, key=weak_key)
    lead_one, lead_two = _masks(current[0][1])
    shape, e, top = K.play_shape(np.uint64(lead_one), np.uint64(lead_two), eff, strength, suit_kinds)
    best = int(top) + (16 if e == K.TRUMP else 0)
    for _, play in current[1:]:
        one, two = _masks(play)
        void = all(eff[k] != e for k in play)
        best = max(best, int(K.play_key(np.uint64(one), np.uint64(two), shape, e, void, eff, strength, suit_kinds)))
    hand = obs.hand
    my_void = (int(hand.one) & int(suit_kinds[e])) == 0

    def key(play) -> int:
        one, two = _masks(play)
        return int(K.play_key(np.uint64(one), np.uint64(two), shape, e, my_void, eff, strength, suit_kinds))

    winners = [(key(a), weak_key(a), a) for a in legal]
    winners = [w for w in winners if w[0] > best]
    if winners:
        return min(winners)[2]
    return min(legal, key=weak_key)


__all__ = ["satat_act", "shengji_act"]
