"""Solver positions from game states and records (``Position.from_state``, ``state_at``) and the queries a
search bot asks of them (``card_values``, ``can_reach``, ``solve``), for Feskot, Tekka and Satat.

Two oracles, both written here and independent of the solver's kernels:

* ``Brute``: plain minimax over every remaining card with the *rules'* pure-Python twins
  (``reference.feskot`` / ``reference.satat``) for legal cards and trick winners, on a position read from
  the state's observation (its shared ``trump``/``tricks`` fields), tricks won counted from those tricks;
* ``reach_by_rules``: minimax over the game State itself (``clone``/``legal_actions``/``apply_action``),
  where the deal stops as the rules say (Feskot and Satat at 7 tricks, Tekka once decided), checking that
  "can this side still reach k tricks" means the same for the solver, which plays every card.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.errors import OptionError, RecordError
from tekkasim.rules import get_game
from tekkasim.rulesets.satat import reference as ref_satat
from tekkasim.rulesets.trick52 import reference as ref_feskot
from tekkasim.solver import Position, Solver, can_reach, card_values, solve, state_at

RULESETS = ("feskot", "tekka", "satat")


@pytest.fixture(scope="module")
def solver():
    return Solver(tt_bits=16)


# --- the brute-force oracle -----------------------------------------------------------------------------


class Brute:
    """Minimax over all remaining cards; values are tricks of team A among the remaining ones."""

    def __init__(self, ruleset: str, trump: int):
        self.satat = ruleset == "satat"
        self.trump = trump
        self.memo: dict = {}

    def next(self, seat: int) -> int:
        return (seat + 3) % 4 if self.satat else (seat + 1) % 4

    def legal(self, hand: frozenset, table: tuple) -> list[int]:
        if self.satat:
            return sorted(ref_satat.legal_plays(hand, table[0] if table else None, self.trump))
        return ref_feskot.legal_cards(sorted(hand), list(table))

    def winner(self, leader: int, cards: list[int]) -> int:
        if self.satat:
            return (leader + 3 * ref_satat.trick_winner(cards, self.trump)) % 4
        return ref_feskot.trick_winner(cards, leader, self.trump)

    def to_move(self, leader: int, table: tuple) -> int:
        seat = leader
        for _ in table:
            seat = self.next(seat)
        return seat

    def value(self, hands: tuple, leader: int, table: tuple) -> int:
        key = (hands, leader, table)
        if key in self.memo:
            return self.memo[key]
        if len(table) == 4:
            w = self.winner(leader, list(table))
            v = (w % 2 == 0) + self.value(hands, w, ())
        else:
            seat = self.to_move(leader, table)
            if not hands[seat]:
                v = 0
            else:
                vals = [self.after(hands, leader, table, c) for c in self.legal(hands[seat], table)]
                v = max(vals) if seat % 2 == 0 else min(vals)
        self.memo[key] = v
        return v

    def after(self, hands: tuple, leader: int, table: tuple, c: int) -> int:
        seat = self.to_move(leader, table)
        nh = tuple(h - {c} if i == seat else h for i, h in enumerate(hands))
        return self.value(nh, leader, table + (c,))


def read_state(state):
    """(ruleset, trump, hands, leader, table, won) from the state's hands and its observation's shared
    fields, tricks won recounted with the rules' twins."""
    name = state.game.name
    public = state.observation(0).public
    trump = public["trump"]
    brute = Brute(name, trump)
    tricks = public["tricks"]
    won = [0, 0]
    for t in tricks:
        if len(t["plays"]) == 4:
            won[brute.winner(t["leader"], [c for _, c in t["plays"]]) % 2] += 1
    last = tricks[-1] if tricks else None
    if last is not None and len(last["plays"]) < 4:
        leader, table = last["leader"], tuple(c for _, c in last["plays"])
    elif last is not None:
        leader, table = brute.winner(last["leader"], [c for _, c in last["plays"]]), ()
    else:
        leader, table = state.current_player(), ()
    hands = tuple(frozenset(c for c in range(52) if state.hand(s) >> c & 1) for s in range(4))
    return name, trump, hands, leader, table, tuple(won)


def brute_card_values(state) -> tuple[dict[int, int], int, tuple[int, int], int]:
    """Per legal card of the seat to move, its side's tricks in the deal; that side; won; tricks left."""
    name, trump, hands, leader, table, won = read_state(state)
    brute = Brute(name, trump)
    mover = brute.to_move(leader, table)
    side = mover % 2
    n_left = len(hands[mover])
    out = {}
    for c in brute.legal(hands[mover], table):
        a = brute.after(hands, leader, table, c)
        out[c] = won[side] + (a if side == 0 else n_left - a)
    return out, side, won, n_left


# --- states near the end of a deal ------------------------------------------------------------------------


def cards_left(state) -> int:
    return sum(state.hand(s).bit_count() for s in range(4))


def ending(name: str, rnd: random.Random, left: int, renonces: bool = False):
    """A state of ``name`` with ``left`` cards in the hands, by random legal play (retrying deals that end
    earlier; a deal that ends exactly there is kept: positions of finished deals with cards left count)."""
    game = get_game(name)
    while True:
        state = game.new_deal(rnd.randrange(1 << 30))
        while not state.is_terminal() and cards_left(state) > left:
            actions = state.legal_actions()
            if renonces and state.phase() == "play" and rnd.random() < 0.15:
                actions = state.possible_actions()  # a Satat Renonce now and then
            if state.phase() == "auction" and rnd.random() < 0.8:
                actions = actions[:1]  # mostly passes: low Tekka targets, decided late, fewer retries
            state.apply_action(rnd.choice(actions))
        if cards_left(state) == left and state.phase() not in ("prime", "troupe", "redeal-or-troupe", "auction"):
            return state


def check_queries(solver, state):
    want, side, won, n_left = brute_card_values(state)
    p = Position.from_state(state)
    assert (p.side, p.won, p.n_left) == (side, won, n_left)
    assert solver.card_values(state) == want
    best = max(want.values())
    assert solver.solve(state) == best
    assert solver.solve(state, side=1 - side) == sum(won) + n_left - best
    for k in range(sum(won) + n_left + 2):
        assert solver.can_reach(state, k) == (best >= k), k
        assert solver.can_reach(state, k, side=1 - side) == (sum(won) + n_left - best >= k), k


@pytest.mark.parametrize("name", RULESETS)
def test_queries_match_brute_force_on_endings(solver, name):
    rnd = random.Random(f"endings {name}")
    for i in range(40):
        left = rnd.randint(1, 13) if i % 8 else 16  # up to 4 tricks, often in the middle of one
        check_queries(solver, ending(name, rnd, left, renonces=name == "satat"))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 2**32), st.integers(1, 12))
def test_queries_match_brute_force_hypothesis(name, seed, left):
    check_queries(Solver(tt_bits=12), ending(name, random.Random(seed), left, renonces=name == "satat"))


# --- the deal as the rules play it ------------------------------------------------------------------------


def reach_by_rules(state, side: int, k: int) -> bool:
    """Whether ``side`` can make its tricks in the deal reach ``k`` as the rules play the deal out (which
    may stop early), by minimax over the State's own legal cards."""
    won = state.observation(0).public["won"]
    if won[side] >= k:
        return True
    if state.is_terminal() or cards_left(state) == 0:
        return False
    actions = [a for a in state.legal_actions() if ":" not in state.action_to_string(a)]  # signals change nothing
    results = []
    for a in actions:
        nxt = state.clone()
        nxt.apply_action(a)
        results.append(reach_by_rules(nxt, side, k))
    mover = state.current_player()
    return any(results) if mover % 2 == side else all(results)


@pytest.mark.parametrize("name", RULESETS)
def test_can_reach_means_what_the_rules_mean(solver, name):
    """Feskot and Satat stop at 7 tricks, Tekka once its result is decided; "can the side still reach 7"
    (a Tekka target for the bidders, 14 - target for the defenders: the thresholds that decide the deal)
    is the same question over every card, as the solver asks it."""
    rnd = random.Random(f"rules {name}")
    checked = 0
    while checked < 12:  # a few of them are D13 deals, skipped: the bidder alone must take every trick
        state = ending(name, rnd, rnd.randint(1, 10))
        if state.is_terminal():
            continue
        checked += 1
        need = {0: 7, 1: 7}
        if name == "tekka":  # the bidders' target, or enough for the defenders to beat it
            contract = state.contract()
            if contract["target"] == "D13":
                continue
            bidders = contract["declarer"] % 2
            need = {bidders: contract["target"], 1 - bidders: 14 - contract["target"]}
        for side, k in need.items():
            assert solver.can_reach(state, k, side=side) == reach_by_rules(state, side, k), (side, k)


# --- agreement with whole-deal results ------------------------------------------------------------------


@pytest.mark.parametrize("name", RULESETS)
def test_full_deals_agree_with_the_hands_api(solver, name):
    """At the first card of a deal, and a few cards later, the state's answers are the hands-based
    answers (checked against DDS in test_dd_oracle) plus the tricks already won."""
    rnd = random.Random(f"full {name}")
    game = get_game(name)
    for _ in range(3):
        state = game.new_deal(rnd.randrange(1 << 30))
        while state.phase() != "play":
            state.apply_action(rnd.choice(state.legal_actions()))
        for _ in range(rnd.choice([0, 5, 9])):
            if not state.is_terminal():
                state.apply_action(rnd.choice(state.legal_actions()))
        name_, trump, hands, leader, table, won = read_state(state)
        masks = [sum(1 << c for c in h) for h in hands]
        p = Position(masks, trump, leader, table, name)
        values = solver.card_values(state)
        assert values == {c: v + won[p.side] for c, v in solver.card_values(p).items()}
        best = solver.solve(state)
        assert best == max(values.values()) == solver.solve(masks, trump, leader, table, name) + won[p.side]
        assert solver.can_reach(state, best) and not solver.can_reach(state, best + 1)


def test_module_functions_use_one_process_wide_solver():
    from tekkasim.solver import default_solver

    state = ending("feskot", random.Random(1), 8)
    values = card_values(state)
    assert solve(state) == max(values.values())
    assert can_reach(state, solve(state)) and not can_reach(state, solve(state) + 1)
    assert default_solver() is default_solver()


# --- records --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", RULESETS)
def test_record_positions_are_the_states_positions(solver, name):
    """``Position.from_record(record, trick, play)`` is the position of the state that played that far."""
    rnd = random.Random(f"records {name}")
    game = get_game(name)
    for _ in range(3):
        state = game.new_deal(rnd.randrange(1 << 30))
        snapshots = {}
        while not state.is_terminal():
            played = 52 - cards_left(state)
            if state.phase() in ("play", "collect") and played < 52:
                snapshots.setdefault(played, state.clone())
            state.apply_action(rnd.choice(state.legal_actions()))
        record = state.to_record()
        for played, snap in snapshots.items():
            trick, play = divmod(played, 4)
            p = Position.from_record(record, trick + 1, play)
            q = Position.from_state(snap)
            assert (p.hands, p.trump, p.leader, p.table, p.won) == (q.hands, q.trump, q.leader, q.table, q.won)
        start = state_at(record)
        assert start.phase() == "play" and cards_left(start) == 52


def test_record_errors_are_one_line():
    state = ending("feskot", random.Random(2), 40)  # three tricks played
    record = state.to_record()
    with pytest.raises(RecordError, match="the record stops after 3 tricks: no trick 5"):
        state_at(record, 5)
    with pytest.raises(RecordError, match="stops after 3 tricks: no trick 4, play 2"):
        state_at(record, 4, 1)
    with pytest.raises(OptionError, match="trick must be an integer 1..13"):
        state_at(record, 0)
    with pytest.raises(OptionError, match="play must be an integer 0..3"):
        state_at(record, 2, 4)
    with pytest.raises(RecordError, match="not 'shengji'"):
        state_at(record | {"ruleset": "shengji"})
    with pytest.raises(RecordError, match="options"):
        state_at(record | {"options": {"colour": 1}})
    with pytest.raises(RecordError, match="JSON object"):
        state_at([record])


# --- states the solver refuses, and odd corners ------------------------------------------------------------


def test_states_without_a_position_are_one_line_errors():
    feskot = get_game("feskot").new_deal(3)
    with pytest.raises(OptionError, match="Prime is not chosen yet"):
        Position.from_state(feskot)
    satat = get_game("satat").new_deal(3)
    with pytest.raises(OptionError, match="Troupe is not chosen yet"):
        Position.from_state(satat)
    with pytest.raises(OptionError, match="a shengji state"):
        Position.from_state(get_game("shengji").new_deal(3))
    with pytest.raises(OptionError, match="feskot, tekka and satat states"):
        Position.from_state("not a state")
    with pytest.raises(OptionError, match="give a Position"):
        Solver(10).solve([1, 2, 4, 8])
    # a Satat round ended by an accusation: its last trick counts for nobody
    rnd = random.Random(4)
    s = get_game("satat").new_deal(rnd.randrange(1 << 30))
    while s.phase() != "play" or len(s.table()) < 2:
        s.apply_action(rnd.choice(s.legal_actions()))
    s.apply_action(s.accusations(s.current_player())[0])  # the seat to move accuses the last card's player
    assert s.is_terminal()
    with pytest.raises(OptionError, match="accusation"):
        Position.from_state(s)


def test_a_finished_deal_with_cards_left_and_one_without():
    rnd = random.Random(6)
    game = get_game("feskot")
    while True:
        state = game.new_deal(rnd.randrange(1 << 30))
        while not state.is_terminal():
            state.apply_action(rnd.choice(state.legal_actions()))
        if cards_left(state):
            break
    p = Position.from_state(state)
    assert max(p.won) == 7 and p.table == () and p.n_left == cards_left(state) // 4
    assert can_reach(state, 7, side=p.won.index(7)) and not can_reach(state, 7, side=1 - p.won.index(7))
    done = get_game("feskot", play_out=True).new_deal(5)
    while not done.is_terminal():
        done.apply_action(done.legal_actions()[0])
    with pytest.raises(OptionError, match="no cards left"):
        Position.from_state(done)


def test_a_tekka_raise_waiting_for_its_answer():
    """With raises on, the declarer may ask for a raise before its card: the position is the declarer's
    card, whoever answers the raise."""
    rnd = random.Random(7)
    game = get_game("tekka", raises=True)
    found = 0
    while found < 5:
        state = game.new_deal(rnd.randrange(1 << 30))
        while not state.is_terminal() and state.phase() != "raise":
            state.apply_action(rnd.choice(state.legal_actions()))
        if state.phase() != "raise":
            continue
        p = Position.from_state(state)
        declarer = state.contract()["declarer"]
        assert p.to_move == declarer != state.current_player()
        state.apply_action(rnd.choice(state.legal_actions()))  # accept or reject
        if not state.is_terminal():  # an accepted D13 may already be lost
            found += 1
            assert state.current_player() == declarer
            assert Position.from_state(state).legal_cards() == p.legal_cards()


def test_satat_renonce_on_the_table_stands():
    rnd = random.Random(8)
    while True:
        state = ending("satat", rnd, rnd.randint(20, 40))
        if state.phase() != "play" or not state.table() or len(state.table()) == 4:
            continue
        renonces = [c for c in state.possible_actions() if state.is_renonce(c)]
        if renonces:
            state.apply_action(renonces[0])
            break
    p = Position.from_state(state)
    assert p.table[-1] == renonces[0]
    assert solve(state) == max(card_values(state).values())


def test_side_may_be_a_seat_or_a_team_letter(solver):
    state = ending("satat", random.Random(9), 9)
    p = Position.from_state(state)
    k = solver.solve(state, side="A")
    assert k == solver.solve(state, side=0) == solver.solve(state, side="top") == solver.solve(state, side=2)
    assert solver.solve(state, side="B") == sum(p.won) + p.n_left - k
    with pytest.raises(OptionError, match="target must be an integer"):
        solver.can_reach(state, 7.0)
