"""Pure-Python twin of the double-dummy solver: plain minimax over every legal card, for small positions.

Obviously correct and slow: no pruning, no equivalent cards, no bounds; a memo keyed on the whole
position only avoids re-searching identical positions. Values are tricks of team A (bottom + top)
among the tricks left, the current one included. Rules: see ``tekkasim.solver.dd``.
"""

from __future__ import annotations

H2 = 26  # 2 of hearts


def _suit(c: int) -> int:
    return c // 13


def next_seat(seat: int, satat: bool) -> int:
    return (seat + 3) % 4 if satat else (seat + 1) % 4


def legal(hand: frozenset, table: tuple, lead_suit: int | None, satat: bool) -> list[int]:
    """The cards of ``hand`` that may be played, with ``table`` the cards already in the trick."""
    if not table or lead_suit is None or lead_suit == 4:
        return sorted(hand)
    follow = [c for c in hand if _suit(c) == lead_suit and not (satat and c == H2)]
    if not follow:
        return sorted(hand)
    if satat and H2 in hand:
        follow.append(H2)
    return sorted(follow)


def led_suit(card: int, trump: int, satat: bool) -> int:
    if satat and card == H2:
        return trump  # a 2♥ lead asks for Troupe (4 = no suit without trump)
    return _suit(card)


def trick_winner(plays: list[tuple[int, int]], trump: int, satat: bool) -> int:
    """The seat that wins a complete trick given as (seat, card) in play order."""
    if satat:
        for seat, c in plays:
            if c == H2:
                return seat
    lead = led_suit(plays[0][1], trump, satat)
    trumps = [(c, s) for s, c in plays if _suit(c) == trump]
    if trumps:
        return max(trumps)[1]
    return max((c, s) for s, c in plays if _suit(c) == lead)[1]


def team_a_tricks(hands, trump: int, leader: int, table=(), satat: bool = False) -> int:
    """Tricks of team A with perfect play by all from the position (``hands`` as 4 sets of cards,
    ``table`` the cards of the current trick in play order, led by ``leader``)."""
    memo: dict = {}
    hs = tuple(frozenset(h) for h in hands)
    plays = []
    seat = leader
    for c in table:
        plays.append((seat, c))
        seat = next_seat(seat, satat)
    return _value(hs, trump, satat, leader, tuple(plays), memo)


def _value(hands, trump, satat, leader, plays, memo) -> int:
    key = (hands, leader, plays)
    if key in memo:
        return memo[key]
    if len(plays) == 4:
        w = trick_winner(list(plays), trump, satat)
        v = (1 if w % 2 == 0 else 0) + _value(hands, trump, satat, w, (), memo)
        memo[key] = v
        return v
    seat = leader
    for _ in plays:
        seat = next_seat(seat, satat)
    if not hands[seat]:
        memo[key] = 0
        return 0
    lead = led_suit(plays[0][1], trump, satat) if plays else None
    table = tuple(c for _, c in plays)
    values = []
    for c in legal(hands[seat], table, lead, satat):
        nh = tuple(h - {c} if i == seat else h for i, h in enumerate(hands))
        values.append(_value(nh, trump, satat, leader, plays + ((seat, c),), memo))
    v = max(values) if seat % 2 == 0 else min(values)
    memo[key] = v
    return v


def card_values(hands, trump: int, leader: int, table=(), satat: bool = False) -> dict[int, int]:
    """Team A tricks after the seat to move plays each of its legal cards."""
    hs = tuple(frozenset(h) for h in hands)
    plays = []
    seat = leader
    for c in table:
        plays.append((seat, c))
        seat = next_seat(seat, satat)
    lead = led_suit(plays[0][1], trump, satat) if plays else None
    memo: dict = {}
    out = {}
    for c in legal(hs[seat], tuple(table), lead, satat):
        nh = tuple(h - {c} if i == seat else h for i, h in enumerate(hs))
        out[c] = _value(nh, trump, satat, leader, tuple(plays) + ((seat, c),), memo)
    return out
