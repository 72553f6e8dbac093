"""Pure-Python twin of ``tekkasim.rulesets.satat._kernels``: slow, plain, obviously correct.

Hands are Python sets or lists of card indexes, tricks are lists; no bit tricks. The tests play the
compiled engine and this twin side by side and compare them state by state. The RNG is
``reference.bits.Rng``, whose stream equals the compiled RNG's for the same seed, so a whole random
round of :func:`play_random` equals the kernel's ``play_random`` deal for deal.

Rules as in ``tekkasim.rulesets.satat.game`` (whose module docstring states every decision).
"""

from __future__ import annotations

from tekkasim.reference.bits import Rng

TWO_HEARTS = 26  # 2♥: hearts (2) * 13 + rank 0
JACK, QUEEN, KING, ACE = 9, 10, 11, 12
NONE, SEVEN, KOT, KOT52, RENONCE = 0, 1, 2, 3, 4


def rank(c: int) -> int:
    return c % 13


def suit(c: int) -> int:
    return c // 13


def draw_value(c: int) -> int:
    """Rank in the draw for the first caller: K high, then Q, J, T, 9 ... 2, and A lowest."""
    return -1 if rank(c) == ACE else rank(c)


def draw_caller(rng: Rng) -> tuple[int, list[dict[int, int]]]:
    """The draw: with the whole deck back each round, the drawing seats in seat order each take a random
    card of those left (the j-th takes position ``j + below(52 - j)`` and swaps it to the front); the tied
    highest draw again. Returns the caller and every round of the draw (seat -> card)."""
    seats = [0, 1, 2, 3]
    log = []
    while True:
        deck = list(range(52))
        drawn = {}
        for j, s in enumerate(seats):
            k = j + rng.below(52 - j)
            deck[j], deck[k] = deck[k], deck[j]
            drawn[s] = deck[j]
        log.append(drawn)
        best = max(draw_value(c) for c in drawn.values())
        tied = [s for s in seats if draw_value(drawn[s]) == best]
        if len(tied) == 1:
            return tied[0], log
        seats = tied


def deal(rng: Rng, caller: int) -> list[list[int]]:
    """Shuffle and deal 5 then 8 to each seat, clockwise from the caller; hands in the order dealt."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(4)]
    for k in range(4):
        seat = (caller + 3 * k) % 4
        hands[seat] = deck[5 * k : 5 * k + 5] + deck[20 + 8 * k : 28 + 8 * k]
    return hands


def may_redeal(first_five) -> bool:
    """The caller may ask for a redeal when its first five hold no J, Q or K."""
    return not any(rank(c) in (JACK, QUEEN, KING) for c in first_five)


def legal_plays(hand, lead: int | None, troupe: int) -> set[int]:
    """The rule-following plays from ``hand`` when ``lead`` was led (None: this play leads)."""
    hand = set(hand)
    if lead is None:
        return hand
    need = troupe if lead == TWO_HEARTS else suit(lead)
    follow = {c for c in hand if suit(c) == need and c != TWO_HEARTS}
    if not follow:
        return hand
    return follow | (hand & {TWO_HEARTS})


def is_renonce(hand, lead: int | None, troupe: int, card: int) -> bool:
    return card not in legal_plays(hand, lead, troupe)


def trick_winner(cards: list[int], troupe: int) -> int:
    """Position (0 = leader) of the winning card of a full trick."""
    if TWO_HEARTS in cards:
        return cards.index(TWO_HEARTS)
    trumps = [i for i, c in enumerate(cards) if suit(c) == troupe]
    if trumps:
        return max(trumps, key=lambda i: rank(cards[i]))
    led = [i for i, c in enumerate(cards) if suit(c) == suit(cards[0])]
    return max(led, key=lambda i: rank(cards[i]))


def exchange_gives(hand, troupe: int, k: int, losing: bool) -> list[int]:
    """The ``k`` cards a seat gives in the exchange, in the order given."""
    eligible = [c for c in hand if c != TWO_HEARTS]
    if losing:
        trumps = sorted((c for c in eligible if suit(c) == troupe), key=rank, reverse=True)
        rest = sorted((c for c in eligible if suit(c) != troupe), key=lambda c: (rank(c), suit(c)), reverse=True)
        return (trumps + rest)[:k]
    plain = sorted((c for c in eligible if suit(c) != troupe), key=lambda c: (rank(c), suit(c)))
    left = {s: sum(1 for c in plain if suit(c) == s) for s in range(4)}
    chosen: list[int] = []
    for c in plain:
        if len(chosen) < k and left[suit(c)] > 1:
            chosen.append(c)
            left[suit(c)] -= 1
    for c in sorted((c for c in eligible if suit(c) == troupe), key=rank):
        if len(chosen) < k:
            chosen.append(c)
    for c in plain:
        if len(chosen) < k and c not in chosen:
            chosen.append(c)
    return chosen


def exchange(hands: list[list[int]], troupe: int, k: int, loser: int) -> list[tuple[int, int, int]]:
    """The whole exchange as ``(from, to, card)``: each seat of team ``loser`` swaps with the next seat
    clockwise; both give from the hands as dealt."""
    out = []
    for seat in range(4):
        if seat % 2 == loser:
            opp = (seat + 3) % 4
            out += [(seat, opp, c) for c in exchange_gives(hands[seat], troupe, k, True)]
            out += [(opp, seat, c) for c in exchange_gives(hands[opp], troupe, k, False)]
    return out


class Round:
    """The play of one round, step by step: plays (renonces allowed), accusations and the collect.

    The trick that decides the round (the 7th trick of a team not on a KOT run, the trick that breaks a
    KOT, the 13th of a KOT 52) leaves the round *decided* (``decided`` holds its result) but not over:
    the trick stays on the table, its winner is to move and may only :meth:`collect`, and anyone may
    still accuse an opponent's card on it.
    """

    def __init__(self, hands, troupe: int, caller: int):
        self.hands = [set(h) for h in hands]
        self.troupe = troupe
        self.to_move = caller
        self.table: list[tuple[int, int]] = []  # (seat, card) of the trick on the table
        self.trick_no = 0
        self.winners: list[int | None] = []  # seat winning each completed trick (None: counts for nobody)
        self.won = [0, 0]
        self.kot: int | None = None
        self.over = False
        self.kind = NONE
        self.decided = NONE  # the result of the deciding trick still on the table
        self.points = [0, 0]
        self.renonces: list[tuple[int, int]] = []

    def lead(self) -> int | None:
        return self.table[0][1] if 0 < len(self.table) < 4 else None

    def legal(self) -> set[int]:
        return legal_plays(self.hands[self.to_move], self.lead(), self.troupe)

    def play(self, card: int) -> None:
        seat = self.to_move
        if len(self.table) == 4:
            self.table = []
            self.trick_no += 1
        if is_renonce(self.hands[seat], self.lead(), self.troupe, card):
            self.renonces.append((self.trick_no, seat))
        self.hands[seat].remove(card)
        self.table.append((seat, card))
        if len(self.table) < 4:
            self.to_move = (seat + 3) % 4
            return
        winner = self.table[trick_winner([c for _, c in self.table], self.troupe)][0]
        self.winners.append(winner)
        team = winner % 2
        self.won[team] += 1
        self.to_move = winner
        if self.kot is not None:
            if team != self.kot:
                self.decided = KOT
            elif len(self.winners) == 13:
                self.decided = KOT52
        elif self.won[team] == 7:
            if all(w % 2 == team for w in self.winners):
                self.kot = team
            else:
                self.decided = SEVEN

    def collect(self) -> None:
        """The deciding trick's winner collects it: the round ends with the decided result."""
        kind, self.decided = self.decided, NONE
        if kind == SEVEN:
            self._end(SEVEN, self.winners[-1] % 2, 1)
        else:
            self._end(kind, self.kot, 2 if kind == KOT else 3)

    def accuse(self, by: int, card: int) -> bool:
        """``by`` accuses the player of ``card`` on the table; the round ends. Returns correctness."""
        accused = next(s for s, c in self.table if c == card)
        correct = any(s == accused for _, s in self.renonces)
        if len(self.table) == 4:  # accused right after the fourth card: the trick counts for nobody
            self.won[self.winners[-1] % 2] -= 1
            self.winners[-1] = None
        self.decided = NONE
        self._end(RENONCE, by % 2 if correct else 1 - by % 2, 1)
        return correct

    def _end(self, kind: int, team: int, points: int) -> None:
        self.over, self.kind = True, kind
        self.points[team] = points
        self.to_move = -1


def play_random(n_deals: int, seed: int) -> dict[str, list]:
    """The twin of ``Satat.play_random``: deal i from seed + i, the draw, a random Troupe, random
    rule-following plays until the round is decided, then the collect."""
    out: dict[str, list] = {"tricks": [], "kind": [], "points": [], "caller": [], "troupe": []}
    for i in range(n_deals):
        rng = Rng(seed + i)
        caller, _ = draw_caller(rng)
        hands = deal(rng, caller)
        troupe = rng.below(4)
        game = Round(hands, troupe, caller)
        while not game.over:
            if game.decided != NONE:  # random players never accuse: collect at once, no RNG draw
                game.collect()
                break
            legal = 0
            for c in game.legal():
                legal |= 1 << c
            game.play(rng.random_card(legal))
        out["tricks"].append(list(game.won))
        out["kind"].append(game.kind)
        out["points"].append(list(game.points))
        out["caller"].append(caller)
        out["troupe"].append(troupe)
    return out
