"""Pure-Python twin of the Shengji engine (``tekkasim.rulesets.shengji._kernels``), written from rules.md
with lists and Counters and no bit tricks. Slow and meant to be obviously right: the tests compare the
compiled kernels with it.

Cards are kinds 0..53 (``suit * 13 + rank``, 52 = SJ, 53 = BJ); a hand or play is a list of kinds or a
``Counter`` of them. ``trump`` is a suit 0..3 or 4 for no-trump; ``level`` is a rank 0..12.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from tekkasim.reference.bits import Rng

NO_TRUMP = 4
TRUMP = 4
SJ, BJ = 52, 53


def card_points(k: int) -> int:
    """5s are worth 5, tens and kings 10, everything else 0."""
    if k >= 52:
        return 0
    return {3: 5, 8: 10, 11: 10}.get(k % 13, 0)


def is_trump(k: int, trump: int, level: int) -> bool:
    return k >= 52 or k % 13 == level or k // 13 == trump


def effective_suit(k: int, trump: int, level: int) -> int:
    return TRUMP if is_trump(k, trump, level) else k // 13


def suit_order(e: int, trump: int, level: int) -> list[list[int]]:
    """The strength steps of effective suit ``e``, lowest first; each step lists its equal kinds.

    Trumps: trump-suit cards 2..A without the level rank, the off-suit level cards (one step: they are
    equal), the trump-suit level card, SJ, BJ. No-trump: all level cards (one step), SJ, BJ.
    """
    if e != TRUMP:
        return [] if e == trump else [[e * 13 + r] for r in range(13) if r != level]
    steps = []
    if trump != NO_TRUMP:
        steps += [[trump * 13 + r] for r in range(13) if r != level]
        steps.append([s * 13 + level for s in range(4) if s != trump])
        steps.append([trump * 13 + level])
    else:
        steps.append([s * 13 + level for s in range(4)])
    return steps + [[SJ], [BJ]]


def strength(k: int, trump: int, level: int) -> int:
    """Index of ``k``'s step in the order of its effective suit."""
    for i, step in enumerate(suit_order(effective_suit(k, trump, level), trump, level)):
        if k in step:
            return i
    raise AssertionError("every kind has a step")


def shape(cards: list[int], trump: int, level: int) -> tuple[int, int, int] | None:
    """``(pairs, suit, top strength)``: pairs 0 for a single, 1 for a pair, k >= 2 for a tractor of k
    pairs; None for anything else (mixed suits, unpaired cards, pairs that are not consecutive)."""
    if not cards:
        return None
    suits = {effective_suit(k, trump, level) for k in cards}
    if len(cards) == 1:
        return 0, suits.pop(), strength(cards[0], trump, level)
    counts = Counter(cards)
    if len(suits) != 1 or any(v != 2 for v in counts.values()):
        return None
    steps = sorted(strength(k, trump, level) for k in counts)
    if steps != list(range(steps[0], steps[0] + len(steps))):
        return None  # equal steps (two off-suit level pairs) or a gap
    return len(counts), suits.pop(), steps[-1]


def play_error(hand: Counter, play: list[int], lead: list[int] | None, trump: int, level: int) -> str | None:
    """The rule a play breaks, or None. ``lead`` is None for a lead, else the cards led in this trick."""
    if any(play.count(k) > hand[k] for k in set(play)):
        return "not-in-hand"
    if lead is None:
        return None if shape(play, trump, level) is not None else "lead-shape"
    if len(play) != len(lead):
        return "card-count"
    e = effective_suit(lead[0], trump, level)
    held = [k for k in hand.elements() if effective_suit(k, trump, level) == e]
    played = [k for k in play if effective_suit(k, trump, level) == e]
    if len(played) < min(len(held), len(lead)):
        return "follow-suit"
    lead_pairs = sum(1 for v in Counter(lead).values() if v == 2)
    if len(held) > len(lead) and lead_pairs:
        held_pairs = sum(1 for v in Counter(held).values() if v == 2)
        played_pairs = sum(1 for v in Counter(played).values() if v == 2)
        if played_pairs < min(lead_pairs, held_pairs):
            return "follow-pairs"
    return None


def trick_winner(plays: list[list[int]], hands_before: list[Counter], trump: int, level: int) -> int:
    """Index (0 = the lead) of the play that wins the trick. ``hands_before[i]`` is the hand of the i-th
    player before it played (it tells whether the player was void in the led suit)."""
    lead_shape = shape(plays[0], trump, level)
    led = lead_shape[1]
    best, best_rank = 0, (led == TRUMP, lead_shape[2])
    for i in range(1, len(plays)):
        s = shape(plays[i], trump, level)
        if s is None or s[0] != lead_shape[0]:
            continue
        void = all(effective_suit(k, trump, level) != led for k in hands_before[i].elements())
        if s[1] == led or (s[1] == TRUMP and void):
            rank = (s[1] == TRUMP, s[2])
            if rank > best_rank:  # strictly higher: ties stay with the earlier play
                best, best_rank = i, rank
    return best


def level_change(attacker_points: int) -> tuple[int, int, bool]:
    """``(defenders' gain, attackers' gain, attackers become defenders)``."""
    table = [(0, 0, 3), (5, 35, 2), (40, 75, 1)]
    for low, high, gain in table:
        if low <= attacker_points <= high:
            return gain, 0, False
    if attacker_points < 120:
        return 0, 0, True
    gain = 0
    while attacker_points >= 80 + 40 * (gain + 1):
        gain += 1
    return 0, gain, True


def declaration_calls(hand: Counter, level: int, standing: int) -> list[tuple[int, ...]]:
    """Calls stronger than ``standing`` (0 none, 1 single level card, 2 level pair, 3 SJ pair, 4 BJ
    pair) that ``hand`` can make, sorted, without the pass."""
    calls = []
    for s in range(4):
        k = s * 13 + level
        if hand[k] >= 1 and standing < 1:
            calls.append((k,))
        if hand[k] == 2 and standing < 2:
            calls.append((k, k))
    if hand[SJ] == 2 and standing < 3:
        calls.append((SJ, SJ))
    if hand[BJ] == 2 and standing < 4:
        calls.append((BJ, BJ))
    return sorted(calls)


def call_strength(call: tuple[int, ...]) -> int:
    if call[0] == BJ:
        return 4
    if call[0] == SJ:
        return 3
    return len(call)


def legal_leads(hand: Counter, trump: int, level: int) -> list[list[int]]:
    """Every lead in the random policy's order: singles, pairs, tractors (suit, low step, high step,
    chosen kind)."""
    kinds = sorted(hand)
    leads = [[k] for k in kinds]
    leads += [[k, k] for k in kinds if hand[k] == 2]
    for e in range(5):
        steps = [[k for k in step if hand[k] == 2] for step in suit_order(e, trump, level)]
        for lo in range(len(steps)):
            for hi in range(lo + 1, len(steps)):
                if not all(steps[lo : hi + 1]):
                    break
                for choice in product(*steps[lo : hi + 1]):
                    leads.append(sorted(k for k in choice for _ in range(2)))
    return leads


def _physical(hand: Counter, rng: Rng) -> int:
    """A random physical card: index over the distinct kinds, then the kinds held twice, ascending."""
    order = sorted(hand) + sorted(k for k in hand if hand[k] == 2)
    return order[rng.below(len(order))]


def random_follow(hand: Counter, lead: list[int], trump: int, level: int, rng: Rng) -> list[int]:
    e = effective_suit(lead[0], trump, level)
    suit = Counter({k: v for k, v in hand.items() if effective_suit(k, trump, level) == e})
    n = len(lead)
    play: list[int] = []
    if sum(suit.values()) <= n:
        play = list(suit.elements())
        rest = hand - suit
        for _ in range(n - len(play)):
            k = _physical(rest, rng)
            rest[k] -= 1
            rest += Counter()  # drop zero counts
            play.append(k)
        return play
    lead_pairs = sum(1 for v in Counter(lead).values() if v == 2)
    for _ in range(min(lead_pairs, sum(1 for v in suit.values() if v == 2))):
        pairs = sorted(k for k in suit if suit[k] == 2)
        k = pairs[rng.below(len(pairs))]
        del suit[k]
        play += [k, k]
    while len(play) < n:
        k = _physical(suit, rng)
        suit[k] -= 1
        suit += Counter()
        play.append(k)
    return play


def next_levels(levels: tuple[int, int], dealer: int, attacker_points: int) -> tuple[tuple[int, int], int, int]:
    """``(levels after (13 = past A), next dealer, match winner or -1)``."""
    d_gain, a_gain, take_over = level_change(attacker_points)
    defenders = dealer % 2
    after = list(levels)
    after[defenders] += d_gain
    after[1 - defenders] += a_gain
    next_dealer = (dealer + 1) % 4 if take_over else (dealer + 2) % 4
    winner = next((t for t in (0, 1) if after[t] > 12), -1)
    return (after[0], after[1]), next_dealer, winner


def random_deal(seed: int, levels: tuple[int, int] = (0, 0), dealer: int = -1, declare_first: int = 0) -> list[int]:
    """One random deal with the policy of the compiled ``play_random_deal`` and the same RNG stream;
    returns its 13 outcome numbers in the same order."""
    rng = Rng(seed)
    deck = [i % 54 for i in range(108)]
    rng.shuffle(deck)
    hands = [Counter(deck[25 * s : 25 * s + 25]) for s in range(4)]
    kitty = deck[100:]
    level = levels[dealer % 2] if dealer >= 0 else levels[0]
    standing, caller, trump, passes, calls, seat = 0, -1, -1, 0, 0, declare_first
    while True:
        options = [()] + declaration_calls(hands[seat], level, standing)
        call = options[rng.below(len(options))]
        if not call:
            passes += 1
            if passes == (4 if standing == 0 else 3):
                break
        else:
            standing, caller, passes, calls = call_strength(call), seat, 0, calls + 1
            trump = NO_TRUMP if call[0] >= 52 else call[0] // 13
        seat = (seat + 1) % 4
    if standing == 0:
        trump = next(k // 13 for k in kitty if k < 52)
    if dealer < 0:
        dealer = caller if caller >= 0 else declare_first
    hands[dealer] += Counter(kitty)
    buried = []
    for _ in range(8):
        kinds = sorted(hands[dealer])
        k = kinds[rng.below(len(kinds))]
        hands[dealer][k] -= 1
        hands[dealer] += Counter()
        buried.append(k)
    leader, attackers, bonus = dealer, 0, 0
    tricks = 0
    while hands[leader]:
        tricks += 1
        leads = legal_leads(hands[leader], trump, level)
        plays = [leads[rng.below(len(leads))]]
        before = [hands[leader].copy()]
        hands[leader] -= Counter(plays[0])
        for j in range(1, 4):
            s = (leader + j) % 4
            before.append(hands[s].copy())
            plays.append(random_follow(hands[s], plays[0], trump, level, rng))
            hands[s] -= Counter(plays[-1])
        winner = (leader + trick_winner(plays, before, trump, level)) % 4
        if winner % 2 != dealer % 2:
            attackers += sum(card_points(k) for p in plays for k in p)
            if not hands[leader]:  # everyone has played out: the last trick
                bonus = sum(card_points(k) for k in buried) * 2 * len(plays[0])
                attackers += bonus
        leader = winner
    after, next_dealer, match_winner = next_levels(levels, dealer, attackers)
    gains = (after[0] - levels[0], after[1] - levels[1])
    return [
        trump,
        level,
        dealer,
        calls,
        attackers,
        bonus,
        gains[0],
        gains[1],
        after[0],
        after[1],
        next_dealer,
        match_winner,
        tricks,
    ]
