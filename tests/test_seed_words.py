"""The seeds' words about the bots, each tested on concrete deals (issue 25, item 4; the table of sentences,
seed files, ladder levels and results is ``docs/seed-words.md``).

Levels: the Feskot and Tekka seeds name the ladder "Easy -> Advanced" (KADO .. ZELZELA). The Satat seed has
two difficulties: Normal ("remember one hand") is POCHAQ and PUCHOQ (``memory=trick``) and the personalities
at ``difficulty=normal``; Hard ("public cards from the whole round", partner winners, round pressure) is TANA
and JANGARA (``memory=full``, ``kot_pressure``), the search bots TANOOR .. ZELZELA (JANGARA's accusations,
worlds from every public card) and the personalities at ``difficulty=hard``. SADA has Hard memory without
the pressure; KADO, below Normal, never accuses.

The deals are built from records (``build``): the tricks as played, the cards a seat still holds where they
decide the action, every other card dealt to a seat that has not shown a void in its suit. Card decisions are
asked of the bots with ``mistake_rate=0`` (what the policy does); the mistakes are the first sentence's."""

from __future__ import annotations

import pytest

from tekkasim.bots import choose, decide, get_bot
from tekkasim.cards import card_name
from tekkasim.rules import get_game
from tekkasim.rulesets.satat.bots import play_rounds
from tekkasim.rulesets.satat.game import accuse_action
from tekkasim.tournament.play import Job, context, play_table, replay_table

B, R, T, L = 0, 1, 2, 3  # bottom, right, top, left
SEATS = ("bottom", "right", "top", "left")
LADDER = ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA", "TANOOR", "TIZAB", "ZELZELA")
SATAT_NORMAL = ("PUCHOQ", "ATOUTE", "ZORGE")  # Normal memory with partner play (POCHAQ has none)
SATAT_HARD = ("TANA", "JANGARA", "ATOUTE:difficulty=hard", "ZORGE:difficulty=hard")
SATAT_HARD_SEARCH = ("TANOOR", "TIZAB", "ZELZELA")


def build(ruleset: str, tricks: list, holds: dict, trump: str = "S", give: dict | None = None, **fields):
    """The state after ``tricks`` (each a list of (seat, card) in play order): a seat in ``holds`` holds
    exactly those cards besides the ones it played, a seat in ``give`` at least those; the rest of the deck
    goes, in card order, to the first other seat with room that has not failed to follow that suit."""
    give = give or {}
    hands = {
        s: [c for trick in tricks for seat, c in trick if seat == s] + list(holds.get(s, ())) + list(give.get(s, ()))
        for s in range(4)
    }
    dealt = [c for h in hands.values() for c in h]
    assert len(dealt) == len(set(dealt))
    voids: dict[int, set] = {s: set() for s in range(4)}
    for trick in tricks:
        lead = trick[0][1]
        need = trump if (ruleset == "satat" and lead == "2H") else lead[1]
        for seat, c in trick[1:]:
            if c[1] != need and not (ruleset == "satat" and c == "2H"):
                voids[seat].add(need)
    for c in (card_name(i) for i in range(52)):
        if c in dealt:
            continue
        seat = next(s for s in range(4) if s not in holds and len(hands[s]) < 13 and c[1] not in voids[s])
        hands[seat].append(c)
    record = {
        "format": 1,
        "ruleset": ruleset,
        **fields,
        "hands": {SEATS[s]: hands[s] for s in range(4)},
        "trump": trump,
        "tricks": [[c for _, c in trick] for trick in tricks],
        "unfinished": True,
    }
    state, actions = get_game(ruleset).from_record(record)
    for a in actions:
        state.apply_action(state.string_to_action(a))
    return state


def satat(tricks: list, holds: dict | None = None, give: dict | None = None):
    """A Satat round, Troupe ♠, bottom the caller (clockwise: bottom, left, top, right)."""
    return build("satat", tricks, holds or {}, give=give, dealer="right", caller="bottom")


def card(state, name: str, seed: int = 1, **params) -> str:
    return state.action_to_string(choose(name, state, seed, **params))


# --- Feskot, Tekka: "Harder bots count cards and play more strategically; easier bots make more mistakes."


@pytest.mark.parametrize("ruleset", ["feskot", "tekka", "satat", "shengji"])
def test_easier_bots_make_more_mistakes(ruleset):
    """Easy -> Advanced is the ladder's rank order, each level's ``mistake_rate`` is at most the one below
    it, and KADO's is above ZELZELA's. (The cost of those mistakes, measured double dummy and falling down
    the ladder: ``docs/blunders.md``.)"""
    bots = [get_bot(name, ruleset=ruleset) for name in LADDER]
    assert [b.rank for b in bots] == list(range(9))
    rates = [b.params.get("mistake_rate", 0.0) for b in bots]
    assert all(a >= b for a, b in zip(rates[:-1], rates[1:], strict=True)), rates
    assert rates[0] > rates[-1], rates


def _second_hand_diamonds(ruleset: str, ace_gone: bool):
    """Feskot/Tekka (Prime ♠, counter-clockwise from bottom): right takes trick 1 with the A♦ (or, when the
    A♦ stays out, with the A♥), trick 2 with a heart, and leads 5♦; top, second hand, holds K♦ 4♦."""
    if ace_gone:
        tricks = [[(B, "2D"), (R, "AD"), (T, "3D"), (L, "6D")], [(R, "AH"), (T, "4H"), (L, "5H"), (B, "6H")]]
    else:
        tricks = [[(B, "2H"), (R, "AH"), (T, "3H"), (L, "6H")], [(R, "KH"), (T, "4H"), (L, "5H"), (B, "7H")]]
    extra = {"first": "bottom"}
    if ruleset == "tekka":
        extra["auction"] = ["8", "pass", "pass", "pass"]
    top = ["KD", "4D", "5S", "7C", "8C", "9C", "TC", "JC", "8H", "9H", "TH"]
    return build(ruleset, [*tricks, [(R, "5D")]], {T: top}, **extra)


@pytest.mark.parametrize("ruleset", ["feskot", "tekka"])
def test_harder_bots_count_cards(ruleset):
    """The A♦ fell in the first trick; in the third, top is second hand to 5♦ holding K♦ 4♦. A bot that
    counts the honours (SADA ``memory=high``, TANA and JANGARA ``full``) knows its K♦ is now the master and
    takes the trick; PUCHOQ, seeing only the current trick, plays second hand low, and so do the counting
    bots when the A♦ is still out (so it is the count that decides). KADO plays blind (Aces, else low) and
    POCHAQ beats the trick cheaply whatever is out."""
    gone, out = _second_hand_diamonds(ruleset, True), _second_hand_diamonds(ruleset, False)
    for name in ("SADA", "TANA", "JANGARA"):
        assert card(gone, name, mistake_rate=0.0) == "KD", name
        assert card(out, name, mistake_rate=0.0) == "4D", name
    assert card(gone, "PUCHOQ", mistake_rate=0.0) == "4D"
    assert card(gone, "KADO", mistake_rate=0.0) == "4D"


# --- Satat: "Normal bots remember one hand. Hard bots remember public cards from the whole round."


def _satat_second_hand(ace_trick: int):
    """Left takes trick 1 with the A♦ (and, when ``ace_trick`` is 2, trick 2 with the A♥), then leads 5♦;
    top, second hand, holds K♦ 4♦. ``ace_trick``: how many hands before the current one the A♦ fell (1: the
    hand just gathered, 2: the one before that)."""
    tricks = [[(B, "2D"), (L, "AD"), (T, "3D"), (R, "6D")]]
    if ace_trick == 2:
        tricks.append([(L, "AH"), (T, "9H"), (R, "TH"), (B, "3H")])
    tricks.append([(L, "5D")])
    top = ["KD", "4D", "5S", "7C", "8C", "9C", "TC", "JC", "4H", "5H", "6H", "7H"][: 13 - len(tricks) + 1]
    return satat(tricks, {T: top})


def test_normal_bots_remember_one_hand():
    """Top, second hand to 5♦ with K♦ 4♦: when the A♦ fell in the hand just gathered, a Normal bot knows its
    K♦ is the master and takes the trick; when it fell the hand before that (two hands ago), it has forgotten
    it and plays low."""
    one, two = _satat_second_hand(1), _satat_second_hand(2)
    for name in SATAT_NORMAL:
        assert card(one, name, mistake_rate=0.0) == "KD", name
        assert card(two, name, mistake_rate=0.0) == "4D", name


def test_hard_bots_remember_the_whole_round():
    """The same deals: the Hard bots remember the A♦ two hands back as well, and SADA (Hard memory)."""
    for ace_trick in (1, 2):
        state = _satat_second_hand(ace_trick)
        for name in (*SATAT_HARD, "SADA"):
            assert card(state, name, mistake_rate=0.0) == "KD", (name, ace_trick)


def test_normal_memory_at_the_lead_includes_the_trick_on_the_table():
    """Where "one hand" is counted from: at a lead the trick just completed is still on the table (it can
    still be accused, rules.md), and a Normal bot remembers the hand before it too. Top leads trick 3 holding
    K♦ 4♦ and a short club: with the A♦ in trick 1 (before the trick on the table) PUCHOQ leads the K♦ as a
    master; with it one trick further back, it leads low from its short suit."""
    first = [(B, "2D"), (L, "AD"), (T, "3D"), (R, "6D")]
    clubs = [(L, "2C"), (T, "AC"), (R, "3C"), (B, "4C")]
    hearts = [(T, "AH"), (R, "9H"), (B, "TH"), (L, "3H")]
    near = satat([first, clubs], {T: ["KD", "4D", "5C", "5S", "6S", "8H", "9D", "7H", "6H", "5H", "4H"]})
    far = satat([first, clubs, hearts], {T: ["KD", "4D", "5C", "5S", "6S", "8H", "9D", "7H", "6H", "5H"]})
    assert card(near, "PUCHOQ", mistake_rate=0.0) == "KD"
    assert card(far, "PUCHOQ", mistake_rate=0.0) == "5C"
    assert card(far, "TANA", mistake_rate=0.0) == "KD"


# --- Satat: "They call Renonce when a newly played card proves an earlier failure to follow suit, including
# Troupe after a 2♥ lead."


RENONCE = [(B, "AC"), (L, "2C"), (T, "3C"), (R, "9D")]  # right fails to follow ♣ while holding the 6♣
PROOF = [(B, "KC"), (L, "4C"), (T, "5C"), (R, "6C")]  # right's 6♣: the newly played card that proves it
NEUTRAL = [(B, "AH"), (L, "3H"), (T, "4H"), (R, "5H")]


def _accuses(state, name: str) -> bool:
    """Whether ``name`` at bottom (to move, leading the next trick) accuses right's newly played card."""
    a = choose(name, state, 1)
    if a == accuse_action(R, B, state.table()[-1][1]):
        return True
    assert a < 52, (name, state.action_to_string(a))  # never another accusation
    return False


def test_no_accusation_before_the_proof():
    """Right's failure to follow alone proves nothing (right may be void): nobody accuses it."""
    state = satat([RENONCE, NEUTRAL], give={R: ["6C"]})
    assert state.renonces() == [(0, R)]
    for name in ("POCHAQ", *SATAT_NORMAL, "SADA", *SATAT_HARD, *SATAT_HARD_SEARCH):
        assert not _accuses(state, name), name


def test_bots_call_renonce_on_the_newly_played_proof():
    """Right's 6♣ (the newly played card) proves its earlier failure to follow ♣: the Normal bots call it
    when the failure was in the hand they remember, the Hard bots whatever hand it was in; KADO never
    accuses."""
    near, far = satat([RENONCE, PROOF]), satat([RENONCE, NEUTRAL, PROOF])
    for name in ("POCHAQ", *SATAT_NORMAL, "SADA", *SATAT_HARD, *SATAT_HARD_SEARCH):
        assert _accuses(near, name), name
    for name in ("SADA", *SATAT_HARD, *SATAT_HARD_SEARCH):
        assert _accuses(far, name), name
    for name in ("POCHAQ", *SATAT_NORMAL):  # two hands back: forgotten
        assert not _accuses(far, name), name
    assert not _accuses(near, "KADO")


def test_troupe_after_a_two_of_hearts_lead_proves_the_renonce():
    """The seed's example: bottom leads 2♥, right plays a ♦ while holding Troupe (♠); bottom then leads A♠
    and right follows with the 8♠: that newly played Troupe card proves the Renonce and is accused."""
    state = satat([[(B, "2H"), (L, "3S"), (T, "4S"), (R, "9D")], [(B, "AS"), (L, "6S"), (T, "7S"), (R, "8S")]])
    assert state.renonces() == [(0, R)]
    for name in ("POCHAQ", *SATAT_NORMAL, "SADA", *SATAT_HARD, *SATAT_HARD_SEARCH):
        assert _accuses(state, name), name


# --- Satat: "Hard tracks public cards, protects useful partner winners, and responds to round and match
# pressure." (tracking public cards: the memory tests above)


def test_hard_bots_protect_partner_winners():
    """Bottom leads A♦ (the master), left follows: top, third hand, neither overtakes nor ruffs its
    partner's winner. Holding K♦ 4♦ it plays the 4♦ (keeping the K♦, now the master); void in ♦ it throws a
    low side card instead of ruffing. KADO and POCHAQ (no partner play) ruff the partner's Ace, POCHAQ with
    its cheapest Troupe, KADO with its highest (``ruff_high``)."""
    lead = [(B, "AD"), (L, "2D")]
    follow = satat([lead], {T: ["KD", "4D", "5S", "7C", "8C", "9C", "TC", "JC", "4H", "5H", "6H", "7H", "8H"]})
    void = satat([lead], {T: ["3S", "5S", "7C", "8C", "9C", "TC", "JC", "4H", "5H", "6H", "7H", "8H", "9H"]})
    for name in SATAT_HARD:
        assert card(follow, name, mistake_rate=0.0) == "4D", name
        assert card(void, name, mistake_rate=0.0) == "4H", name
    assert card(void, "POCHAQ", mistake_rate=0.0) == "3S"
    assert card(void, "KADO", mistake_rate=0.0) == "5S"


def _kot_state():
    """Bottom's team takes the first seven tricks (a KOT: 2 points already won); right failed to follow ♣ in
    trick 1 and its 4♣ in trick 8 proves it."""
    return satat(
        [
            RENONCE,
            [(B, "AD"), (L, "2D"), (T, "3D"), (R, "4D")],
            [(B, "KD"), (L, "5D"), (T, "6D"), (R, "7D")],
            [(B, "QD"), (L, "8D"), (T, "TD"), (R, "JD")],
            [(B, "AH"), (L, "3H"), (T, "4H"), (R, "5H")],
            [(B, "KH"), (L, "6H"), (T, "7H"), (R, "8H")],
            [(B, "QH"), (L, "9H"), (T, "TH"), (R, "JH")],
            [(B, "KC"), (L, "5C"), (T, "6C"), (R, "4C")],
        ]
    )


def test_hard_bots_keep_their_kot_rather_than_accuse():
    """Round pressure: on its own KOT (2 points, 3 with all 13) a correct accusation (1 point, and the round
    ends) is worth less, and the Hard bots play on; SADA, without the pressure, accuses."""
    state = _kot_state()
    assert state.observation(B).public["kot"] == 0 and state.renonces() == [(0, R)]
    for name in (*SATAT_HARD, *SATAT_HARD_SEARCH):
        assert not _accuses(state, name), name
    assert _accuses(state, "SADA")


def _run_state(tricks_won_by_bottom: int):
    """Bottom's team has taken every trick so far (``tricks_won_by_bottom`` of them, bottom leading each);
    bottom leads 5♦ and left, second hand, holds Q♦ 3♦ (the K♦ is out: the Q♦ is no master)."""
    cash = [
        [(B, "AC"), (L, "2C"), (T, "3C"), (R, "4C")],
        [(B, "AD"), (L, "2D"), (T, "4D"), (R, "6D")],
        [(B, "AH"), (L, "3H"), (T, "4H"), (R, "5H")],
        [(B, "KC"), (L, "5C"), (T, "6C"), (R, "7C")],
    ][:tricks_won_by_bottom]
    left = ["QD", "3D", "8C", "9C", "TC", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"]
    left = [c for c in left if c not in {c for t in cash for s, c in t if s == L}][: 13 - len(cash)]
    return satat([*cash, [(B, "5D")]], {L: left})


def test_hard_bots_stop_the_other_sides_kot():
    """Round pressure: from the fourth trick on, while the other side has taken every trick (a KOT in the
    making), the Hard bots second hand play to win the trick (Q♦ over 5♦) where they would otherwise play
    low; earlier in the round, or with the pressure off (PUCHOQ), second hand plays low."""
    run, early = _run_state(4), _run_state(2)
    for name in SATAT_HARD:
        assert card(run, name, mistake_rate=0.0) == "QD", name
        assert card(early, name, mistake_rate=0.0) == "3D", name
    assert card(run, "PUCHOQ", mistake_rate=0.0) == "3D"


# --- Satat: "Madame Atoute and Ton Zorge may bluff as opponents from the fourth hand onward: at most once each
# per match, with a shared opposition limit of one bluff on Normal or two on Hard. Other personalities play
# legally." (and "Your partner always plays legally")

BLUFF_TEAMS = {
    "normal": ("ATOUTE", "ZORGE"),
    "hard": ("ATOUTE:difficulty=hard", "ZORGE:difficulty=hard"),
}


def _boards_with_first_round_bluffs(team, against, seed, n, want):
    """The first ``want`` boards (of ``n`` from ``seed``) on which ``team`` bluffs in the first round at
    either table (the compiled first-round loop, the same play as the matches'), and as many without."""
    x = [get_bot(s, ruleset="satat") for s in team]
    y = get_bot(against, ruleset="satat")
    game = get_game("satat")
    hit = set()
    for table in (0, 1):
        res = play_rounds(x[0], y, list(range(seed, seed + n)), table)  # the first round: bottom/right decides
        for i in range(n):
            state = game.new_deal(seed + i)
            for a in res["actions"][i, : res["n_actions"][i]]:
                state.apply_action(int(a))
            if state.renonces():
                hit.add(i)
    hits = sorted(hit)[:want]
    return hits + [i for i in range(n) if i not in hit][:want]


@pytest.mark.parametrize("difficulty", ["normal", "hard"])
def test_bluffs_over_whole_matches_within_the_limits(difficulty):
    """Whole matches (the tournament's match unit, counted from the replayed records) of Madame Atoute and
    Ton Zorge as one team against TANA: every Renonce is a bluffer's, from the fourth hand on; at most one per
    bluffer per match, at most one per team and match on Normal, two on Hard; TANA never fails to follow.
    Half the boards are ones on which they bluff in the first round, so the limits are tested where a second
    bluff could come."""
    team = BLUFF_TEAMS[difficulty]
    seed = 610_000
    boards = _boards_with_first_round_bluffs(team, "TANA", seed, 400, 6)
    job = Job("satat", {}, "match", seed, (team, ("TANA", "TANA")), (team, ("TANA", "TANA")), ((0, 1),), False)
    ctx = context(job)
    game = get_game("satat")
    limit = 1 if difficulty == "normal" else 2
    bluffs = 0
    for board in boards:
        for table in (0, 1):
            states = replay_table(game, play_table(ctx, 0, board, table)[6])
            bluffers = {B, T} if table == 0 else {R, L}
            per_seat: dict[int, int] = {}
            for state in states:
                for trick, seat in state.renonces():
                    assert seat in bluffers and trick >= 3, (board, table, trick, seat)
                    per_seat[seat] = per_seat.get(seat, 0) + 1
            assert all(n == 1 for n in per_seat.values()), (board, table, per_seat)
            assert sum(per_seat.values()) <= limit, (board, table, per_seat)
            bluffs += sum(per_seat.values())
    assert bluffs >= 3, bluffs


def test_bluff_limits_in_a_later_round_of_the_match():
    """With the bluff round moved into the match (``bluff_round=2``: the round played at a match total of 2),
    the Hard pair still bluffs at most once each and twice together per match, and only in that round."""
    team = ("ATOUTE:difficulty=hard,bluff_round=2", "ZORGE:difficulty=hard,bluff_round=2")
    job = Job(
        "satat", {}, "match", 620_000, (team, ("PUCHOQ", "PUCHOQ")), (team, ("PUCHOQ", "PUCHOQ")), ((0, 1),), False
    )
    ctx = context(job)
    game = get_game("satat")
    bluffs = 0
    for board in range(40):
        for table in (0, 1):
            per_seat: dict[int, int] = {}
            for state in replay_table(game, play_table(ctx, 0, board, table)[6]):
                for trick, seat in state.renonces():
                    assert sum(state.score_before) == 2 and trick >= 3, (board, table, state.score_before)
                    per_seat[seat] = per_seat.get(seat, 0) + 1
            assert all(n == 1 for n in per_seat.values()) and sum(per_seat.values()) <= 2, (board, per_seat)
            bluffs += sum(per_seat.values())
    assert bluffs >= 1, bluffs


def test_a_normal_teams_second_seat_never_bluffs_where_a_hard_one_does():
    """The shared limit at the table: top (the team's second seat) bluffs at Hard on some boards, never at
    Normal, in the same first rounds."""
    game = get_game("satat")
    seen = {"normal": 0, "hard": 0}
    for difficulty in ("normal", "hard"):
        x = get_bot(f"ZORGE:difficulty={difficulty}", ruleset="satat")
        res = play_rounds(x, get_bot("TANA", ruleset="satat"), list(range(630_000, 630_600)), 0)
        for i in range(600):
            state = game.new_deal(630_000 + i)
            for a in res["actions"][i, : res["n_actions"][i]]:
                state.apply_action(int(a))
            seen[difficulty] += sum(seat == T for _, seat in state.renonces())
    assert seen["normal"] == 0 and seen["hard"] > 0, seen


def test_other_bots_play_legally_in_every_seat():
    """The ladder, GREEDY and the personalities' partners never fail to follow: in 150 first rounds of each
    ladder bot against ATOUTE Hard, every Renonce is the personality's."""
    game = get_game("satat")
    for name in ("GREEDY", "KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA"):
        for table in (0, 1):
            res = play_rounds(
                get_bot(name, ruleset="satat"), get_bot("ATOUTE:difficulty=hard"), list(range(640_000, 640_150)), table
            )
            for i in range(150):
                state = game.new_deal(640_000 + i)
                for a in res["actions"][i, : res["n_actions"][i]]:
                    state.apply_action(int(a))
                ladder = {B, T} if table == 0 else {R, L}
                assert not any(seat in ladder for _, seat in state.renonces()), (name, table, i)


def test_search_bots_play_legally():
    """TANOOR (the search bots' one card path) on 6 first rounds against ZORGE Hard: no Renonce of its own."""
    game = get_game("satat")
    tanoor, zorge = get_bot("TANOOR", ruleset="satat"), get_bot("ZORGE:difficulty=hard")
    from tekkasim.bots.loop import play_deal

    for seed in range(650_000, 650_006):
        state = play_deal(game.new_deal(seed), [tanoor, zorge, tanoor, zorge], seed, 0)
        assert not any(seat in (B, T) for _, seat in state.renonces()), seed


def _pressure_decisions(bot, scores, n=200):
    """Per mid-round state (one of ``n``, seeded 660,000 on), the decisions of ``bot`` at each match score
    of ``scores`` (team A's, team B's points), the round played up to it by the same bot."""
    from tekkasim.bits import below, new_rng

    game, rng, out = get_game("satat"), new_rng(660_000), []
    for i in range(n):
        seed, steps = 660_000 + i, 8 + int(below(rng, 40))
        actions = []
        for a, b in scores:
            state = game.new_deal(seed, score={"A": a, "B": b})
            for _ in range(steps):
                if state.is_terminal():
                    break
                state.apply_action(decide(bot, state, state.current_player(), seed))
            if state.is_terminal():
                break
            actions.append(decide(bot, state, state.current_player(), 1))
        if len(actions) == len(scores):
            out.append(actions)
    return out


@pytest.mark.parametrize("name", ["TANA", "JANGARA"])
def test_hard_bots_respond_to_match_pressure(name):
    """Match pressure (``match_pressure``, ``_satat_policy.kot_chase_from``): on some of 200 mid-round
    states a Hard bot decides differently at match scores 0-0, 3-0, 0-3, 4-0 and 0-4 (one side's KOT would
    win it the match; one side is one point from the match); with ``match_pressure=false`` never."""
    scores = [(0, 0), (3, 0), (0, 3), (4, 0), (0, 4)]
    bot = get_bot(name, ruleset="satat", mistake_rate=0.0)
    assert sum(len(set(a)) > 1 for a in _pressure_decisions(bot, scores)) > 0
    calm = get_bot(name, ruleset="satat", mistake_rate=0.0, match_pressure=False)
    assert all(len(set(a)) == 1 for a in _pressure_decisions(calm, scores))


def test_kot_chase_follows_the_match_score():
    """The trick from which second hand plays to win against the other side's KOT in the making: the
    fourth at 0-0; the second when their KOT would win them the match and their seven would not; never
    when their seven wins it; the fourth whatever the score without match pressure."""
    from tekkasim.rulesets.satat import _policy as sp

    p = get_bot("TANA", ruleset="satat").compiled_form("satat")
    assert sp.kot_chase_from(p, 0, (0, 0)) == 3
    assert sp.kot_chase_from(p, 0, (0, 3)) == 1  # seat 0 is team A: the other side (B) is at 3
    assert sp.kot_chase_from(p, 1, (0, 3)) == 3  # for team B the other side is at 0
    assert sp.kot_chase_from(p, 0, (4, 4)) == 13
    assert sp.kot_chase_from(p, 1, (4, 2)) == 13
    assert sp.kot_chase_from(p, 1, (2, 4)) == 3
    q = get_bot("TANA", ruleset="satat", match_pressure=False).compiled_form("satat")
    assert all(sp.kot_chase_from(q, s, (a, b)) == 3 for s in range(4) for a in range(6) for b in range(6))
