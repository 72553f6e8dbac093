"""Cards, seats and card sets: the notation of ``records.md`` and the bitboard layout of the engine.

Layout (shared by every ruleset and every kernel):

* A card of the 52-card deck is an integer ``suit * 13 + rank``: suits ``C D H S`` are 0..3 (the order
  also breaks ties where rules.md needs one), ranks ``2 3 4 5 6 7 8 9 T J Q K A`` are 0..12.
* A set of 52-card cards is one ``uint64`` with bit ``card`` set (``mask``). Bits 52..63 are always 0.
* Shengji adds the jokers as kinds 52 (``SJ``, small, black) and 53 (``BJ``, big, red): a 108-card
  multiset is two 54-bit masks, ``one`` (at least one copy held) and ``two`` (both copies held), with
  ``two`` a subset of ``one``. See :class:`CardMultiset`.
* Seats are 0..3 = bottom, right, top, left, so counter-clockwise play is ``(s + 1) % 4`` and clockwise
  (Satat) is ``(s + 3) % 4``. Team ``s & 1``: 0 = A (bottom + top), 1 = B (right + left).

Two faces, as in python-chess: raw integers for speed, :class:`CardSet` for people.

>>> parse_card("10♥"), card_name(parse_card("th"))
(34, 'TH')
>>> CardSet.parse("AS KS 2C")
CardSet.parse('AS KS 2C')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .errors import CardError, SeatError, shorten

SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
N_CARDS = 52
SMALL_JOKER = 52
BIG_JOKER = 53
N_KINDS = 54  # Shengji card kinds: 52 suited + two jokers

FULL_DECK = (1 << 52) - 1
SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
TWO_OF_HEARTS = HEARTS * 13 + 0

SEATS = ("bottom", "right", "top", "left")
BOTTOM, RIGHT, TOP, LEFT = range(4)
TEAMS = "AB"
_SEAT_ALIASES = {name: i for i, name in enumerate(SEATS)} | {name[0]: i for i, name in enumerate(SEATS)}
_SUIT_ALIASES = {c: i for i, c in enumerate(SUITS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
_SUIT_ALIASES |= {"\u2661": HEARTS, "\u2662": DIAMONDS, "\u2664": SPADES, "\u2667": CLUBS}  # outline symbols
# Emoji and text variation selectors: phones and chat apps write "T♥️" (♥ + U+FE0F) for "T♥".
_VARIATION_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")


def card(rank: int, suit: int) -> int:
    """The card index of ``rank`` (0 = 2 ... 12 = A) in ``suit`` (0..3)."""
    return suit * 13 + rank


def suit_of(c: int) -> int:
    return c // 13


def rank_of(c: int) -> int:
    return c % 13


def parse_suit(text: str) -> int:
    """``"S"``, ``"s"`` or ``"♠"`` -> 3."""
    key = text.translate(_VARIATION_SELECTORS).strip().upper() if isinstance(text, str) else None
    if key in _SUIT_ALIASES:
        return _SUIT_ALIASES[key]
    raise CardError(f"unknown suit {_shown(text)} (expected one of C D H S or ♣ ♦ ♥ ♠)")


def parse_card(text: str, jokers: bool = False) -> int:
    """Parse one card: rank then suit, ``10`` for ``T`` and suit symbols accepted, any case.

    With ``jokers=True`` (Shengji) ``SJ`` and ``BJ`` parse to 52 and 53. An emoji variation selector
    after a suit symbol (``"T♥️"``) is ignored.

    >>> parse_card("T\u2665\ufe0f") == parse_card("TH")
    True
    """
    if not isinstance(text, str):
        raise CardError(f"a card must be text like 'TS', not {_shown(text)}")
    t = text.translate(_VARIATION_SELECTORS).strip().upper()
    if t in ("SJ", "BJ"):
        if jokers:
            return SMALL_JOKER if t == "SJ" else BIG_JOKER
        raise CardError(f"jokers are not cards of a 52-card deck: {_shown(text)}")
    if len(t) < 2:
        raise CardError(f"malformed card {_shown(text)} (expected rank then suit, like 'TS' or '10♠')")
    rank_text, suit_text = t[:-1], t[-1]
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise CardError(f"malformed card {_shown(text)}: unknown rank {_shown(rank_text)}")
    if suit_text not in _SUIT_ALIASES:
        raise CardError(f"malformed card {_shown(text)}: unknown suit {_shown(suit_text)}")
    return _SUIT_ALIASES[suit_text] * 13 + RANKS.index(rank_text)


def card_name(c: int) -> str:
    """``34`` -> ``"TH"``; 52/53 -> ``"SJ"``/``"BJ"``."""
    if c == SMALL_JOKER:
        return "SJ"
    if c == BIG_JOKER:
        return "BJ"
    if not 0 <= c < 52:
        raise CardError(f"no card has index {c}")
    return RANKS[c % 13] + SUITS[c // 13]


def card_symbol(c: int) -> str:
    """Readable form with a suit symbol: ``"T♥"``."""
    if c >= 52:
        return card_name(c)
    return RANKS[c % 13] + SUIT_SYMBOLS[c // 13]


def parse_cards(text: str | Iterable[str], jokers: bool = False) -> list[int]:
    """A list of cards from space/comma separated text or from a list of card strings (order kept)."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t, jokers) for t in items]


def mask_of(cards: Iterable[int]) -> int:
    """The 52-card mask of distinct cards; a duplicate is an error."""
    m = 0
    for c in cards:
        bit = 1 << c
        if m & bit:
            raise CardError(f"duplicate card {card_name(c)}")
        m |= bit
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest index first."""
    out = []
    m = int(mask)
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def parse_seat(text: str | int) -> int:
    """``"bottom"``/``"B"``/``0`` -> 0 ... ``"left"``/``"L"``/``3`` -> 3."""
    if isinstance(text, int) and not isinstance(text, bool) and 0 <= text < 4:
        return text
    if isinstance(text, str) and text.strip().lower() in _SEAT_ALIASES:
        return _SEAT_ALIASES[text.strip().lower()]
    raise SeatError(f"unknown seat {_shown(text)} (expected bottom, right, top or left)")


def _shown(value: object) -> str:
    """The repr of a bad input for a message, cut when long."""
    return shorten(repr(value))


def seat_name(s: int) -> str:
    return SEATS[s]


def team_of(seat: int) -> int:
    """0 = team A (bottom + top), 1 = team B (right + left)."""
    return seat & 1


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


def next_ccw(seat: int) -> int:
    """Next seat counter-clockwise: bottom -> right -> top -> left (Feskot, Tekka, Shengji)."""
    return (seat + 1) % 4


def next_cw(seat: int) -> int:
    """Next seat clockwise: bottom -> left -> top -> right (Satat)."""
    return (seat + 3) % 4


class CardSet:
    """A set-like, immutable view over a 52-card mask.

    >>> hand = CardSet.parse("AS 10s 2C")
    >>> len(hand), parse_card("TS") in hand, str(hand)
    (3, True, 'A♠ T♠ 2♣')
    >>> int(hand - CardSet.parse("2c")) == int(CardSet.parse("AS TS"))
    True
    """

    __slots__ = ("mask",)

    def __init__(self, mask: int | Iterable[int] = 0):
        if isinstance(mask, int):
            if mask < 0 or mask >> 52:
                raise CardError(f"not a 52-card mask: {mask:#x}")
            self.mask = mask
        else:
            self.mask = mask_of(mask)

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        return cls(mask_of(parse_cards(text)))

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __iter__(self) -> Iterator[int]:
        """Cards in display order: suits S H D C, high rank first."""
        for s in (SPADES, HEARTS, DIAMONDS, CLUBS):
            for r in range(12, -1, -1):
                if self.mask >> (s * 13 + r) & 1:
                    yield s * 13 + r

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, c: object) -> bool:
        return isinstance(c, int) and 0 <= c < 52 and bool(self.mask >> c & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | int(other))

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & int(other))

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~int(other))

    def suit(self, s: int) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[s])

    def names(self) -> list[str]:
        return [card_name(c) for c in self]

    def __str__(self) -> str:
        return " ".join(card_symbol(c) for c in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({' '.join(self.names())!r})"

    def by_suit(self) -> str:
        """One line per suit, the way a hand is shown: ``♠ A K 2``."""
        lines = []
        for s in (SPADES, HEARTS, DIAMONDS, CLUBS):
            ranks = [RANKS[r] for r in range(12, -1, -1) if self.mask >> (s * 13 + r) & 1]
            lines.append(f"{SUIT_SYMBOLS[s]} {' '.join(ranks) if ranks else '-'}")
        return "\n".join(lines)


class CardMultiset:
    """A 108-card (Shengji) multiset: ``one`` = kinds held at least once, ``two`` = kinds held twice.

    Kinds are 0..51 as in the 52-card deck, 52 = SJ, 53 = BJ. ``two`` is always a subset of ``one``.

    >>> m = CardMultiset.parse("5H 5H SJ 2C")
    >>> len(m), m.count(parse_card("5H")), str(m)
    (4, 2, 'SJ 5♥ 5♥ 2♣')
    """

    __slots__ = ("one", "two")

    def __init__(self, one: int = 0, two: int = 0):
        if two & ~one or one >> N_KINDS:
            raise CardError("not a valid 108-card multiset (two must be a subset of one, 54 kinds)")
        self.one, self.two = one, two

    @classmethod
    def from_cards(cls, cards: Iterable[int]) -> CardMultiset:
        one = two = 0
        for c in cards:
            bit = 1 << c
            if two & bit:
                raise CardError(f"more than two copies of {card_name(c)}")
            if one & bit:
                two |= bit
            one |= bit
        return cls(one, two)

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardMultiset:
        return cls.from_cards(parse_cards(text, jokers=True))

    def count(self, kind: int) -> int:
        return (self.one >> kind & 1) + (self.two >> kind & 1)

    def __len__(self) -> int:
        return self.one.bit_count() + self.two.bit_count()

    def cards(self) -> list[int]:
        """Every card with multiplicity, display order (jokers, then S H D C high first)."""
        out = []
        for k in (BIG_JOKER, SMALL_JOKER, *(s * 13 + r for s in (3, 2, 1, 0) for r in range(12, -1, -1))):
            out.extend([k] * self.count(k))
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardMultiset) and (other.one, other.two) == (self.one, self.two)

    def __hash__(self) -> int:
        return hash((self.one, self.two))

    def __str__(self) -> str:
        return " ".join(card_symbol(c) for c in self.cards())

    def __repr__(self) -> str:
        return f"CardMultiset.parse({' '.join(card_name(c) for c in self.cards())!r})"
