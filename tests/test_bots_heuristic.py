"""What GREEDY and the heuristic ladder do in hand-built positions, and properties of their signals and
hand evaluation."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_bots_compiled import random_state

from tekkasim.bits import new_rng
from tekkasim.bots import choose
from tekkasim.bots.compiled import compiled_params
from tekkasim.cards import mask_of, parse_card
from tekkasim.rules import get_game
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.rulesets.trick52 import _policy as pk

HANDS = {  # hearts split bottom/right/left, top void in hearts with Prime clubs
    "bottom": "AH 2H 5H 8H JH 2S 3S 4S 5S 6S 7S 8S 9S",
    "right": "3H 7H 9H KH 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "top": "2C 3C 4C 5C 6C TS JS QS KS AS JD QD KD",
    "left": "4H 6H TH QH 7C 8C 9C TC JC QC KC AC AD",
}
CLUBS, HEARTS, SPADES = 0, 2, 3


def c(text):
    return parse_card(text)


def feskot_after(*plays, prime=CLUBS):
    state = get_game("feskot").from_hands(HANDS, first="bottom")
    state.apply_action(k.PRIME_BASE + prime)
    for p in plays:
        state.apply_action(c(p))
    return state


def test_prime_from_the_first_five():
    state = get_game("feskot").from_hands(HANDS, first="bottom")
    for bot in ("GREEDY", "KADO", "JANGARA"):
        assert choose(bot, state, seed=1) == k.PRIME_BASE + HEARTS  # five hearts
    hands = dict(HANDS, bottom="2S 3S 2H 5H 8H AH JH 4S 5S 6S 7S 8S 9S")  # two spades, three hearts
    state = get_game("feskot").from_hands(hands, first="bottom")
    assert choose("GREEDY", state, seed=1) == k.PRIME_BASE + HEARTS
    hands = dict(
        HANDS,
        bottom="2S 3S AH 2H 2C 5H 8H JH 4S 5S 6S 7S 8S",  # spades and hearts two each
        top="9S 3C 4C 5C 6C TS JS QS KS AS JD QD KD",
    )
    state = get_game("feskot").from_hands(hands, first="bottom")
    assert choose("GREEDY", state, seed=1) == k.PRIME_BASE + HEARTS  # ties by high cards: A 2 beat 3 2


def test_second_hand_low_against_greedy_cheapest_winner():
    state = feskot_after("5H")
    assert choose("GREEDY", state, seed=1) == c("7H")  # the cheapest card that wins
    assert choose("POCHAQ:mistake_rate=0", state, seed=1) == c("7H")  # no partner play: beats it too
    assert choose("JANGARA", state, seed=1) == c("3H")  # second hand low (the Ace is out)
    assert choose("PUCHOQ:mistake_rate=0", state, seed=1) == c("3H")


def test_no_ruff_of_partners_sure_winner():
    state = feskot_after("AH", "3H")  # top, void in hearts, sees partner's Ace winning
    assert choose("GREEDY", state, seed=1) == c("2C")  # ruffs with its lowest Prime
    assert choose("POCHAQ:mistake_rate=0", state, seed=1) == c("2C")
    # JANGARA throws instead, from its non-winning diamonds (its spades T..A are all masters)
    assert choose("JANGARA", state, seed=1) == c("JD")


def test_last_hand_wins_cheaply_unless_blind():
    state = feskot_after("5H", "3H", "JD")
    assert choose("JANGARA", state, seed=1) == c("6H")
    assert choose("GREEDY", state, seed=1) == c("6H")
    # KADO sees no cards of the trick: its top heart is not the top of the suit, so it plays low
    assert choose("KADO:mistake_rate=0", state, seed=1) == c("4H")


def test_draws_prime_with_its_master():
    # top wins trick 1 and leads: it holds the Prime (spades) master A, so it draws Prime
    state = get_game("feskot").from_hands(HANDS, first="top")
    state.apply_action(k.PRIME_BASE + SPADES)
    assert choose("JANGARA", state, seed=1) % 52 == c("AS")  # with or without a signal
    assert choose("GREEDY", state, seed=1) == c("AS")  # GREEDY leads an Ace too (its only one)


def tekka(hands, raises=False):
    return get_game("tekka", raises=raises).from_hands(hands, first="bottom")


def test_tekka_calls():
    all_spades = {
        "bottom": " ".join(r + "S" for r in "23456789TJQKA"),
        "right": " ".join(r + "H" for r in "23456789TJQKA"),
        "top": " ".join(r + "D" for r in "23456789TJQKA"),
        "left": " ".join(r + "C" for r in "23456789TJQKA"),
    }
    state = tekka(all_spades)
    assert choose("JANGARA", state, seed=1) == k.CALL_BASE + k.D13  # takes all 13 on its own
    assert choose("GREEDY", state, seed=1) == k.CALL_BASE + k.PASS  # 10 high-card points: pass
    weak = "2S 3S 4S 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C".split()
    rest = [x for x in (r + s for s in "CDHS" for r in "23456789TJQKA") if x not in weak]
    state = tekka({"bottom": weak, "right": rest[:13], "top": rest[13:26], "left": rest[26:]})
    assert choose("JANGARA", state, seed=1) == k.CALL_BASE + k.PASS
    assert choose("GREEDY", state, seed=1) == k.CALL_BASE + k.PASS
    # eight Prime and two voids: JANGARA bids (its own estimate is ten tricks); GREEDY counts 5 points
    state = tekka(HANDS)
    assert k.CALL_BASE + 8 <= choose("JANGARA", state, seed=1) <= k.CALL_BASE + 13
    assert choose("GREEDY", state, seed=1) == k.CALL_BASE + k.PASS


def test_tekka_raise_request_and_answer():
    all_spades = {
        "bottom": " ".join(r + "S" for r in "23456789TJQKA"),
        "right": " ".join(r + "H" for r in "23456789TJQKA"),
        "top": " ".join(r + "D" for r in "23456789TJQKA"),
        "left": " ".join(r + "C" for r in "23456789TJQKA"),
    }
    state = tekka(all_spades, raises=True)
    for call in (8, 0, 0, 0):
        state.apply_action(k.CALL_BASE + call)
    state.apply_action(k.PRIME_BASE + SPADES)
    assert choose("JANGARA", state, seed=1) == k.RAISE_BASE + k.D13  # every card is a sure trick
    assert choose("SADA:raises=false,mistake_rate=0", state, seed=1) < 52  # no raises: a card
    state.apply_action(k.RAISE_BASE + k.D13)
    assert choose("JANGARA", state, seed=1) == k.REJECT  # right holds no sure trick against it
    assert choose("GREEDY", state, seed=1) == k.REJECT


def test_partner_of_a_d13_declarer_never_takes_a_trick():
    state = tekka(HANDS)
    for call in (14, 0, 0, 0):  # bottom calls D13
        state.apply_action(k.CALL_BASE + call)
    state.apply_action(k.PRIME_BASE + CLUBS)
    state.apply_action(c("5H"))
    state.apply_action(c("3H"))
    # top, void in hearts: never ruffs; throws its highest card that cannot win, keeping low cards
    assert choose("JANGARA", state, seed=1) % 52 == c("AS")  # with or without a signal


@settings(max_examples=60)
@given(
    st.sampled_from(["feskot", "tekka"]),
    st.integers(0, 2**40),
    st.integers(0, 70),
    st.sampled_from(["TANA", "JANGARA"]),
)
def test_signals_are_honest(name, seed, steps, bot):
    """Where the game accepts signalled cards (``cansig`` 1), a drop is sent only on one's last card of a
    suit and a slam only while still holding the suit's top unplayed card; with ``signals`` off, none."""
    state = random_state(get_game(name), seed, steps)
    if state.is_terminal() or state.phase() != "play":
        return
    a = int(pk.decide_arrays(compiled_params(bot, name), state.arrays, 1, new_rng(seed)))
    if a >= k.PRIME_BASE:
        return
    card, signal = a % 52, a // 52
    seat = state.current_player()
    after = state.hand(seat) & ~(1 << card)
    suit = (1 << 13) - 1 << (13 * (card // 13))
    if signal == k.DROP:
        assert after & suit == 0
    elif signal == k.SLAM:
        played = mask_of([p for t in state.observation(seat).public["tricks"] for _, p in t["plays"]])
        out = suit & ~played & ~after & ~(1 << card)
        top = (after & suit).bit_length() - 1
        assert after & suit and not out >> top  # nothing above our top card is still out
    off = int(pk.decide_arrays(compiled_params(bot + ":signals=false", name), state.arrays, 1, new_rng(seed)))
    assert off < 52 or off >= k.PRIME_BASE


@settings(max_examples=80)
@given(st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True), st.integers(0, 3))
def test_sure_all_hands_take_every_trick(cards, trump):
    """A hand ``sure_all`` calls a D13 for really is: it has the top Prime run covering the Prime out and
    every side suit solid; checked by brute force on the hand's structure."""
    hand = mask_of(cards)
    assert pk.sure_all(np.uint64(hand), trump) == _sure_all_twin(hand, trump)


def _sure_all_twin(hand, trump):
    def length(s):
        return sum(hand >> (13 * s + r) & 1 for r in range(13))

    def top_run(s):
        n = 0
        for r in range(12, -1, -1):
            if not hand >> (13 * s + r) & 1:
                break
            n += 1
        return n

    lt = length(trump)
    if top_run(trump) < min(lt, 13 - lt):
        return False
    return all(
        length(s) == 0 or top_run(s) >= length(s) or top_run(s) >= 13 - length(s) for s in range(4) if s != trump
    )


def test_est_tricks_grows_with_honours_and_length():
    weak = mask_of([c(x) for x in "2S 3S 4S 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C".split()])
    strong = mask_of([c(x) for x in "AS KS QS JS TS 9S AH KH AD KD AC 2C 3C".split()])
    assert pk.est_tricks(np.uint64(weak), SPADES) < 2
    assert pk.est_tricks(np.uint64(strong), SPADES) >= 10


def test_a_slam_is_followed_only_while_it_stands():
    """JANGARA on lead with partner's slam set to each suit in turn: a suit with no card left out (every
    card played or in its own hand), or one an opponent is shown void in while Prime is out, is not led
    for the slam (the lead is the one without a slam); a standing ask for a held suit is led. Counted: the
    stale asks that would have changed the lead (the old rule followed every slam for the whole deal)."""
    from tekkasim.rulesets.trick52.view import policy_view

    p = compiled_params("JANGARA")
    changed = 0
    for seed in range(240):
        name = ("feskot", "tekka")[seed & 1]
        state = random_state(get_game(name), 7919 * seed, 12 + seed % 48)
        if state.is_terminal() or state.phase() != "play" or state.arrays.info[k.I_PLAY] != 0:
            continue
        seat = state.current_player()
        legal = np.asarray(state.legal_actions(), np.int64)
        v, m = policy_view(state.observation(seat), get_game(name).options, 1)
        v[pk.V_SLAM + (seat ^ 2)] = -1
        plain = int(pk.decide(p, v.copy(), m.copy(), legal, len(legal), new_rng(1))) % 52
        hand = state.hand(seat)
        played = mask_of([c for t in state.observation(seat).public["tricks"] for _, c in t["plays"]])
        voids = int(pk.known_voids(p, v))
        trump = int(v[pk.V_TRUMP])
        trumps_out = trump >= 0 and ((1 << 13) - 1 << 13 * trump) & ~(played | hand) != 0
        for s in range(4):
            suit = (1 << 13) - 1 << (13 * s)
            v[pk.V_SLAM + (seat ^ 2)] = s
            lead = int(pk.decide(p, v.copy(), m.copy(), legal, len(legal), new_rng(1))) % 52
            ruff = trumps_out and any(voids >> (4 * o + s) & 1 for o in ((seat + 1) & 3, (seat + 3) & 3))
            if suit & ~(played | hand) == 0 or ruff:
                assert lead == plain
                changed += bool(hand & suit) and plain // 13 != s
            elif hand & suit:
                assert lead // 13 == s
    assert changed >= 3
