"""Pure-Python twin of the Feskot and Tekka rules (``tekkasim.rulesets.trick52._kernels`` and the two rulesets).

Written from rules.md, not from the kernels: lists of cards, plain loops, no bit tricks. Cards are
ints ``suit * 13 + rank`` as in ``tekkasim.cards``; seats 0..3 counter-clockwise; team = seat % 2.
Actions use the same integers as the engine (see ``tekkasim.rulesets.trick52._kernels``) so that the two can be
compared action by action. Randomness comes from ``reference.bits.Rng``, which gives the same stream
as the compiled RNG, so a seeded reference deal equals the kernel's.
"""

from __future__ import annotations

from tekkasim.reference.bits import Rng

PRIME_BASE = 156
CALL_BASE = 160
D13 = 14
RAISE_BASE = 180
ACCEPT = 196
REJECT = 197


def suit(c: int) -> int:
    return c // 13


def rank(c: int) -> int:
    return c % 13


def shuffled_deck(rng: Rng) -> list[int]:
    deck = list(range(52))
    rng.shuffle(deck)
    return deck


def deal_packets(deck: list[int], first: int) -> list[list[int]]:
    """Feskot: 5 each, then 4 each, then 4 each, counter-clockwise from ``first``; hands in order dealt."""
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for size in (5, 4, 4):
        for i in range(4):
            seat = (first + i) % 4
            hands[seat].extend(deck[pos : pos + size])
            pos += size
    return hands


def deal_thirteen(deck: list[int], first: int) -> list[list[int]]:
    """Tekka: 13 at once to each seat counter-clockwise from ``first``."""
    hands: list[list[int]] = [[], [], [], []]
    for i in range(4):
        hands[(first + i) % 4] = deck[13 * i : 13 * i + 13]
    return hands


def cut(deck: list[int], rng: Rng) -> list[int]:
    """One cut at a uniformly random point 1..51."""
    k = 1 + rng.below(51)
    return deck[k:] + deck[:k]


def legal_cards(hand: list[int], trick: list[int]) -> list[int]:
    """Cards of ``hand`` playable to ``trick`` (cards so far): follow the led suit if able, else any."""
    if trick:
        led = suit(trick[0])
        same = [c for c in hand if suit(c) == led]
        if same:
            return sorted(same)
    return sorted(hand)


def trick_winner(cards: list[int], leader: int, prime: int) -> int:
    """Highest Prime wins; with no Prime, the highest card of the led suit."""
    led = suit(cards[0])
    primes = [j for j in range(4) if suit(cards[j]) == prime]
    if primes:
        best = max(primes, key=lambda j: rank(cards[j]))
    else:
        followers = [j for j in range(4) if suit(cards[j]) == led]
        best = max(followers, key=lambda j: rank(cards[j]))
    return (leader + best) % 4


def legal_calls(calls: list[int]) -> list[int]:
    """Call codes allowed after ``calls``: pass (0), a number above the standing high bid, or D13 (14)."""
    numbers = [c for c in calls if 8 <= c <= 13]
    if D13 in calls:
        return [0, D13]
    low = max(numbers) + 1 if numbers else 8
    return [0] + list(range(low, 14)) + [D13]


def auction_contract(calls: list[int], first: int) -> tuple[int, int, bool]:
    """``(declarer, target, mandatory)`` after four calls from ``first``."""
    holder, best = None, 0
    for i, c in enumerate(calls):
        seat = (first + i) % 4
        if c == D13:
            holder, best = seat, D13  # D13 is re-callable: the last caller holds it
        elif c != 0 and c > best:
            holder, best = seat, c
    if holder is None:
        return first, 8, True
    return holder, best, False


def tekka_points(declarer: int, target: int, mandatory: bool, winners: list[int]) -> tuple[bool, list[int]]:
    """``(made, [points A, points B])`` from the trick winners (seats)."""
    team = declarer % 2
    score = [0, 0]
    if target == D13:
        made = len(winners) == 13 and all(w == declarer for w in winners)
        if made:
            score[team] = 26
        else:
            score[1 - team] = 52
        return made, score
    ours = sum(1 for w in winners if w % 2 == team)
    made = ours >= target
    if made:
        score[team] = target
    else:
        score[1 - team] = 8 if mandatory else 2 * target
    return made, score


def tekka_decided(declarer: int, target: int, winners: list[int]) -> bool:
    team = declarer % 2
    if target == D13:
        return any(w != declarer for w in winners) or len(winners) == 13
    ours = sum(1 for w in winners if w % 2 == team)
    theirs = len(winners) - ours
    return ours >= target or ours + (13 - len(winners)) < target or theirs > 13 - target


def feskot_next_first(first: int, winner_team: int) -> int:
    """The first-dealt seat's team won: same seat again; else the next seat counter-clockwise."""
    return first if first % 2 == winner_team else (first + 1) % 4


def tekka_next_first(first: int, score: list[int]) -> int:
    """The first-asked seat's team did not score: same seat; else the next seat counter-clockwise."""
    return first if score[first % 2] == 0 else (first + 1) % 4


class RefDeal:
    """One Feskot or Tekka deal, kept in lists; ``actions()`` and ``apply()`` mirror the engine's State.

    ``plays`` is a list of tricks, each a list of ``(seat, card, signal)``.
    """

    def __init__(self, ruleset: str, hands: list[list[int]], first: int, play_all: bool = False, raises: bool = False):
        self.ruleset = ruleset
        self.dealt = [list(h) for h in hands]
        self.held = [list(h) for h in hands]
        self.first = first
        self.play_all = play_all
        self.raises = raises
        self.prime: int | None = None
        self.calls: list[int] = []
        self.declarer = first if ruleset == "feskot" else None
        self.target = None
        self.mandatory = False
        self.tricks: list[list[tuple[int, int, int]]] = []
        self.winners: list[int] = []
        self.raised_this_turn = False
        self.pending = None
        self.raise_log: list[tuple[int, int, int, bool]] = []
        self.over = False

    # -- whose turn --
    def phase(self) -> str:
        if self.over:
            return "terminal"
        if self.ruleset == "tekka" and len(self.calls) < 4:
            return "auction"
        if self.prime is None:
            return "prime"
        if self.pending is not None:
            return "raise"
        return "play"

    def to_move(self) -> int:
        ph = self.phase()
        if ph == "terminal":
            return -1
        if ph == "auction":
            return (self.first + len(self.calls)) % 4
        if ph == "prime":
            return self.declarer
        if ph == "raise":
            return (self.declarer + 1) % 4
        trick = self.current_trick()
        if trick:
            return (trick[0][0] + len(trick)) % 4
        return self.winners[-1] if self.winners else self.declarer

    def current_trick(self) -> list:
        if self.tricks and len(self.tricks[-1]) < 4:
            return self.tricks[-1]
        return []

    def decided(self) -> bool:
        if self.ruleset == "feskot":
            return any(sum(1 for w in self.winners if w % 2 == team) >= 7 for team in (0, 1))
        return tekka_decided(self.declarer, self.target, self.winners)

    # -- what may be done --
    def actions(self) -> list[int]:
        ph = self.phase()
        if ph == "terminal":
            return []
        if ph == "auction":
            return [CALL_BASE + c for c in legal_calls(self.calls)]
        if ph == "prime":
            return [PRIME_BASE + s for s in range(4)]
        if ph == "raise":
            return [ACCEPT, REJECT]
        seat = self.to_move()
        out = legal_cards(self.held[seat], [c for _, c, _ in self.current_trick()])
        if (
            self.raises
            and seat == self.declarer
            and not self.raised_this_turn
            and not self.decided()
            and self.target != D13
        ):
            out += [RAISE_BASE + t for t in range(max(self.target + 1, 9), 14)] + [RAISE_BASE + D13]
        return out

    def apply(self, a: int) -> None:
        if not (a in self.actions() or (a < 156 and a % 52 in self.actions())):
            raise ValueError(f"illegal action {a} in the reference deal")
        ph = self.phase()
        if ph == "auction":
            self.calls.append(a - CALL_BASE)
            if len(self.calls) == 4:
                self.declarer, self.target, self.mandatory = auction_contract(self.calls, self.first)
        elif ph == "prime":
            self.prime = a - PRIME_BASE
        elif ph == "raise":
            if a == ACCEPT:
                self.target = self.pending
                self.mandatory = False
            self.raise_log.append(
                (
                    len(self.tricks) if not self.current_trick() else len(self.tricks) - 1,
                    len(self.current_trick()),
                    self.pending,
                    a == ACCEPT,
                )
            )
            self.pending = None
            if a == ACCEPT:
                self._maybe_end()
        elif a >= RAISE_BASE:
            self.pending = a - RAISE_BASE
            self.raised_this_turn = True
        else:
            seat, card, signal = self.to_move(), a % 52, a // 52
            if not self.current_trick():
                self.tricks.append([])
            self.tricks[-1].append((seat, card, signal))
            self.held[seat].remove(card)
            self.raised_this_turn = False
            if len(self.tricks[-1]) == 4:
                trick = self.tricks[-1]
                self.winners.append(trick_winner([c for _, c, _ in trick], trick[0][0], self.prime))
                self._maybe_end()

    def _maybe_end(self) -> None:
        if len(self.winners) == 13 or (self.decided() and not self.play_all):
            self.over = True

    # -- outcome --
    def team_tricks(self) -> list[int]:
        return [sum(1 for w in self.winners if w % 2 == team) for team in (0, 1)]

    def seat_tricks(self) -> list[int]:
        return [self.winners.count(s) for s in range(4)]

    def voids(self) -> list[set[int]]:
        """Suits each seat showed void in by not following."""
        out: list[set[int]] = [set(), set(), set(), set()]
        for trick in self.tricks:
            led = suit(trick[0][1])
            for seat, card, _ in trick[1:]:
                if suit(card) != led:
                    out[seat].add(led)
        return out

    def tekka_result(self) -> tuple[bool, list[int]]:
        return tekka_points(self.declarer, self.target, self.mandatory, self.winners)


def new_deal(
    ruleset: str, seed: int, first: int = 0, play_all: bool = False, raises: bool = False, deck: list[int] | None = None
) -> tuple[RefDeal, Rng]:
    """A seeded deal and the RNG after dealing (a ``deck`` given is cut instead of shuffled)."""
    rng = Rng(seed)
    if deck is None:
        deck = shuffled_deck(rng)
    else:
        deck = cut(list(deck), rng)
    hands = deal_packets(deck, first) if ruleset == "feskot" else deal_thirteen(deck, first)
    return RefDeal(ruleset, hands, first, play_all, raises), rng


def random_deal(ruleset: str, seed: int, first: int = 0, play_all: bool = False, raises: bool = False) -> RefDeal:
    """A deal played to its end with uniformly random legal actions (index ``below(n)`` of the sorted list)."""
    deal, rng = new_deal(ruleset, seed, first, play_all, raises)
    while not deal.over:
        legal = deal.actions()
        deal.apply(legal[rng.below(len(legal))])
    return deal


def next_deck(deal: RefDeal) -> list[int]:
    """Feskot ``deal="cut"``: cards in the order played, then unplayed cards by seat, each in order dealt."""
    played = [c for trick in deal.tricks for _, c, _ in trick]
    rest = [c for seat in range(4) for c in deal.dealt[seat] if c not in played]
    return played + rest


def resample_by_rejection(deal: RefDeal, seat: int, rng: Rng, tries: int) -> list[list[int]] | None:
    """Twin of ``_trick52.resample_hidden``: the hands in order dealt after redealing every card ``seat``
    cannot see (other seats' unplayed cards; in Feskot before Prime also its own last eight), rejecting
    deals that break a shown void; None if all ``tries`` failed."""
    played = {c for trick in deal.tricks for _, c, _ in trick}
    before_prime = deal.ruleset == "feskot" and deal.prime is None
    places = [
        (s, i)
        for s in range(4)
        for i in range(13)
        if deal.dealt[s][i] not in played and (s != seat or (before_prime and i >= 5))
    ]
    pool = [deal.dealt[s][i] for s, i in places]
    voids = deal.voids()
    for _ in range(tries):
        rng.shuffle(pool)
        if all(suit(c) not in voids[s] for (s, _), c in zip(places, pool, strict=True)):
            hands = [list(h) for h in deal.dealt]
            for (s, i), c in zip(places, pool, strict=True):
                hands[s][i] = c
            return hands
    return None
