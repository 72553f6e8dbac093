"""Engines (spec/engine.md): engine:COMMAND as a bot, tekkasim engine BOT, the reference engine, faults,
bad input, and engines never outliving their host. Fake engines are small Python scripts in tmp_path."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tekkasim.bits import below, new_rng
from tekkasim.bots import View, decide, get_bot, mix_seed
from tekkasim.bots.engines import decide_message, host, observation_json, stop_engines
from tekkasim.errors import BotError, TekkasimError
from tekkasim.rules import get_game
from tekkasim.rulesets.trick52 import _kernels as k52
from tekkasim.rulesets.trick52.engine_loop import play_deal as play_deal52
from tekkasim.rulesets.trick52.engine_messages import call_decide_message, play_decide_message, prime_decide_message
from tekkasim.tournament import Config, iter_records
from tekkasim.tournament.play import Job, play_block, play_deal_state

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "examples" / "engine_first_legal.py"
RULESETS = ("feskot", "tekka", "satat", "shengji")
PY = sys.executable


def cli(*args, check_one_line=True, cwd=None, env=None):
    done = subprocess.run(
        [PY, "-m", "tekkasim", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=300,
    )
    return done


def fake(tmp_path: Path, name: str, body: str, hello: str | None = None) -> str:
    """A tiny engine: answers hello (``hello`` overrides it), then runs ``body`` for each decide message
    ``m`` (with ``n`` the count of decisions so far), which sets ``answer`` (a dict) or does anything else."""
    every = ["feskot", "tekka", "satat", "shengji"]
    hello = hello or json.dumps({"type": "hello", "protocol": 1, "name": name, "rulesets": every})
    script = tmp_path / f"{name}.py"
    script.write_text(
        textwrap.dedent(
            """\
            import json, sys, time
            n = 0
            for line in sys.stdin:
                m = json.loads(line)
                if m["type"] == "hello":
                    print(%r, flush=True)
                elif m["type"] == "quit":
                    break
                elif m["type"] == "decide":
                    n += 1
                    answer = {"type": "action", "id": m["id"], "action": None if m["optional"] else m["legal"][0]}
            %s
                    print(json.dumps(answer), flush=True)
            """
        )
        % (hello, textwrap.indent(textwrap.dedent(body), " " * 8))
    )
    return f"engine:{PY} {script}"


def states(ruleset: str, seeds=range(3)):
    """Every state of a few GREEDY deals, with the seats that act in it."""
    game = get_game(ruleset)
    bot = get_bot("GREEDY", ruleset=ruleset)
    for seed in seeds:
        state = game.new_deal(seed)
        k = 0
        while not state.is_terminal():
            yield state, state.actors()
            mover = state.current_player()
            state.apply_action(decide(bot, state, mover, mix_seed(seed, 0, k)))
            k += 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_observation_is_the_same_in_every_world_the_seat_cannot_tell_apart(ruleset):
    """No hidden card reaches an engine: a world resampled from the seat's view gives the same message."""
    checked = 0
    for state, actors in states(ruleset, seeds=range(2)):
        for seat in actors:
            world = state.resample(seat, new_rng(checked))
            mine = observation_json(View(state, seat))
            assert mine == observation_json(View(world, seat))
            assert list(mine["record"]["hands"]) == [mine["seat"]]
            assert "seed" not in mine["record"]
            json.dumps(mine)
            checked += 1
    assert checked > 20


def test_tekka_raises_are_in_every_seats_observation():
    """A raise request and its answer are public actions: every seat's observation holds the record's
    ``raises`` (the request awaiting its answer in phase ``raise``), the same in every world it cannot tell
    apart; a person at the table is shown them."""
    from tekkasim.bots.engines.person import render

    game = get_game("tekka", raises=True)
    seen = pending = 0
    for seed in range(120):
        state, rng = game.new_deal(seed), new_rng(seed)
        while not state.is_terminal():
            raises = state.to_record().get("raises")
            for seat in range(4):
                obs = observation_json(View(state, seat))
                assert obs["record"].get("raises") == raises
                assert obs == observation_json(View(state.resample(seat, rng), seat))
            if raises:
                seen += 1
                who = [[s for s, _ in t["plays"]] for t in state.observation(3).public["tricks"]]
                shown = render({"ruleset": "tekka", "observation": obs}, who)
                assert f"raise by {raises[-1]['by']} to {raises[-1]['target']}" in shown
                if state.phase() == "raise":
                    assert "accepted" not in raises[-1] and "awaiting an answer" in shown
                    pending += 1
            legal = state.legal_actions()
            state.apply_action(legal[int(below(rng, len(legal)))])
    assert seen > 50 and pending > 8


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(
        [
            ("feskot", {}),
            ("feskot", {"play_out": True}),
            ("feskot", {"signals": False}),
            ("feskot", {"deal": "cut"}),
            ("tekka", {}),
            ("tekka", {"raises": True}),
            ("satat", {}),
            ("shengji", {}),
        ]
    ),  # fmt: skip
    seed=st.integers(0, 2**40),
)
def test_decide_lines_kept_up_to_date_are_the_lines_built_afresh(variant, seed):
    """The host brings each seat's observation up to date between its decisions (decide_message's cache):
    every line, and the map of allowed actions, is the one built from the full record, byte for byte,
    along whole deals of random possible actions (signals and Tekka raises included)."""
    ruleset, options = variant
    game = get_game(ruleset, **options)
    state = game.new_deal(seed)
    rng = new_rng(seed)
    cache: dict = {}
    table_cache: dict = {}  # the table52 loop's: play_decide_message only, from the legal cards' mask
    kept = plays = by_mask = 0  # kept up to date; decisions in the play; built by play_decide_message
    while not state.is_terminal():
        for seat in state.actors():
            known = cache.get(seat)
            kept += known is not None and known.update(View(state, seat)) is not None
            plays += state.phase() in ("play", "raise")
            line, allowed = decide_message(View(state, seat), 9, ruleset, game.options, 50, seed, cache=cache)
            assert (line, allowed) == decide_message(View(state, seat), 9, ruleset, game.options, 50, seed)
            if ruleset in ("feskot", "tekka") and state.phase() in ("play", "raise"):
                world = by_mask % 5 == 0  # a world drawn from the seat's view too, now and then
                built = _play_message(table_cache, state, seat, game, seed, world)
                assert built == decide_message(View(state, seat), 9, ruleset, game.options, 50, seed, world)
                by_mask += 1
            if ruleset in ("feskot", "tekka") and state.phase() in ("prime", "auction"):
                message = prime_decide_message if state.phase() == "prime" else call_decide_message
                for world in (False, True):
                    built = message(state, 9, ruleset, game.options, 50, seed, world)
                    assert built == decide_message(View(state, seat), 9, ruleset, game.options, 50, seed, world)
        possible = state.possible_actions()
        actors = state.actors()
        if ruleset == "satat" and len(actors) > 1 and below(rng, 8) == 0:  # an accusation ends the round
            possible = state.legal_actions_for(actors[1 + int(below(rng, len(actors) - 1))])
        action = possible[int(below(rng, len(possible)))]
        state.apply_action(action)
    if ruleset in ("feskot", "tekka", "satat"):  # in the play, every seat's decision after its first
        assert kept >= plays - 4
        assert by_mask > 0 or ruleset == "satat"
    else:  # Shengji: built afresh every time
        assert kept == 0


def _play_message(cache: dict, state, seat: int, game, seed: int, world: bool):
    """play_decide_message for the decision of ``seat`` in the play of ``state``, given what table52's
    kernel gives it: the mask of legal cards and the number of raise requests allowed."""
    legal = state.legal_actions()
    mask = sum(1 << a for a in legal if a < 52)
    raises = sum(k52.RAISE_BASE <= a < k52.ACCEPT for a in legal)
    return play_decide_message(cache, state, seat, mask, 9, game.name, game.options, 50, seed, world, raises)


@pytest.mark.parametrize("signals", [True, False])
def test_tekka_raise_decisions_messaged_in_the_play_are_the_lines_built_afresh(signals):
    """Tekka with option raises, the table52 loop's messages (play_decide_message: the observation kept up
    to date from the action log, raises included) against the full build, byte for byte, at every decision
    of the play of many deals: the declarer's card plays with raise requests among the legal actions, the
    answers to them, and every decision after a raise; raise requests drawn often."""
    game = get_game("tekka", raises=True, signals=signals)
    asked = answered = after = 0
    for seed in range(150):
        state, rng = game.new_deal(seed), new_rng(seed)
        table_cache: dict = {}  # kept along the deal, as the host keeps it
        while not state.is_terminal():
            seat = state.current_player()
            possible = state.possible_actions()
            if state.phase() in ("play", "raise"):
                world = below(rng, 7) == 0
                full = decide_message(View(state, seat), 9, "tekka", game.options, 50, seed, world)
                assert _play_message(table_cache, state, seat, game, seed, world) == full
                asked += any(k52.RAISE_BASE <= a < k52.ACCEPT for a in possible)
                answered += state.phase() == "raise"
                after += "raises" in state.to_record()
            requests = [a for a in possible if k52.RAISE_BASE <= a < k52.ACCEPT]
            if requests and below(rng, 3) == 0:  # ask for a raise now and then
                possible = requests
            elif state.phase() == "auction":  # no D13 call, which leaves no raise to ask for
                possible = possible[:-1]
            state.apply_action(possible[int(below(rng, len(possible)))])
    assert asked > 200 and answered > 80 and after > 500


def _first_legal(view, rng):
    """The reference engine's rule, in process."""
    return None if view.optional else view.legal[0]


@pytest.mark.parametrize(
    "ruleset, options", [("feskot", {}), ("feskot", {"signals": False}), ("tekka", {}), ("tekka", {"raises": True})]
)
def test_engine_deals_on_the_arrays_play_what_the_state_api_loop_plays(ruleset, options):
    """play_deal hands a Feskot or Tekka deal with engines and compiled seats to table52's loop: the
    reference engine gives the same actions, record and returns as its rule in process through the State
    API loop, beside compiled seats that draw decision seeds (RANDOM, JANGARA with mistakes) or not."""
    game = get_game(ruleset, **options)
    engine = get_bot(f"engine:{PY} {REFERENCE}", ruleset=ruleset)
    local = get_bot(_first_legal)
    for spec in ("RANDOM", "GREEDY", "JANGARA:mistake_rate=0.3"):
        other = get_bot(spec, ruleset=ruleset)
        for seed in range(6):
            for table in (0, 1):  # the engine chooses Prime at table 0, a compiled seat at table 1
                seats = [engine, other] * 2 if table == 0 else [other, engine] * 2
                mine = game.new_deal(seed)
                assert play_deal52(mine, seats, seed, table)
                in_process = [local, other] * 2 if table == 0 else [other, local] * 2
                theirs = play_deal_state(game.new_deal(seed), in_process, seed, table)  # no engine: State API
                assert mine.history() == theirs.history(), (spec, seed, table)
                assert mine.to_record() == theirs.to_record() and mine.returns() == theirs.returns()
    # a seat whose bot has no compiled form (here a Python function): the State API loop plays the deal
    assert not play_deal52(game.new_deal(1), [engine, local, engine, local], 1, 0)
    assert play_deal_state(game.new_deal(1), [engine, local, engine, local], 1, 0).is_terminal()


def test_engine_raises_and_answers_on_the_arrays_play_what_the_state_api_loop_plays(tmp_path, monkeypatch):
    """Tekka with option raises: an engine that picks any of its legal actions by its decision's seed (raise
    requests, answers to them, signals, calls) plays in table52's loop what its rule plays in process
    through the State API loop, beside compiled seats that ask for raises (RANDOM) or not; every one of its
    decisions messaged without a View (the loop's fallback to decide is never taken)."""
    from tekkasim.rulesets.trick52 import engine_loop as table52

    def no_fallback(*args):
        raise AssertionError("table52 fell back to decide")

    monkeypatch.setattr(table52, "decide", no_fallback)
    game = get_game("tekka", raises=True)
    engine = get_bot(fake(tmp_path, "BYSEED", 'answer["action"] = m["legal"][m["seed"] % len(m["legal"])]'))

    def by_seed(view, rng):
        return view.possible[int(rng[0]) % len(view.possible)]

    local = get_bot(by_seed)
    asked = answered = 0
    for spec in ("RANDOM", "JANGARA:mistake_rate=0.3"):
        other = get_bot(spec, ruleset="tekka")
        for seed in range(30):
            for table in (0, 1):
                seats = [engine, other] * 2 if table == 0 else [other, engine] * 2
                mine = game.new_deal(seed)
                assert play_deal52(mine, seats, seed, table)
                in_process = [local, other] * 2 if table == 0 else [other, local] * 2
                theirs = play_deal_state(game.new_deal(seed), in_process, seed, table)
                assert mine.history() == theirs.history(), (spec, seed, table)
                assert mine.to_record() == theirs.to_record() and mine.returns() == theirs.returns()
                engine_seats = (0, 2) if table == 0 else (1, 3)
                for a, who, _, _ in mine._log:
                    asked += k52.RAISE_BASE <= a < k52.ACCEPT and who in engine_seats
                    answered += a in (k52.ACCEPT, k52.REJECT) and who in engine_seats
    assert asked > 15 and answered > 5
    stop_engines()


def _rows(job: Job) -> list:
    rows = [r for p in range(len(job.pairings)) for r in play_block(job, (p, 0, 2))]
    return [(p, b, t, x, y, n, play_payload) for p, b, t, x, y, n, play_payload in rows]


def test_a_bot_served_as_an_engine_stores_what_it_plays_in_process_in_every_ruleset():
    """``engine:python -m tekkasim engine BOT`` against GREEDY: the same stored rows as BOT in process,
    with a mistake rate so that the decision seeds matter too (one engine process for all rulesets)."""
    served = "JANGARA:mistake_rate=0.2"
    engine = f"engine:{PY} -m tekkasim engine {served}"
    for ruleset in RULESETS:
        in_process = Config.build(ruleset=ruleset, bots=[served, "GREEDY"], boards=2, seed=11)
        by_engine = Config.build(ruleset=ruleset, bots=[engine, "GREEDY"], boards=2, seed=11)
        assert by_engine.teams[0].name == in_process.teams[0].name == served
        want = _rows(Job.from_config(in_process, use_compiled=False))
        assert _rows(Job.from_config(by_engine)) == want, ruleset


def test_a_served_bot_plays_whole_matches_as_in_process():
    """Later deals of a match (scores, Satat's exchanges, Shengji's levels) reach the engine's view too."""
    served = "JANGARA:mistake_rate=0.2"
    engine = f"engine:{PY} -m tekkasim engine {served}"
    for ruleset in ("tekka", "satat"):
        in_process = Config.build(ruleset=ruleset, bots=[served, "GREEDY"], boards=1, seed=21, unit="match")
        by_engine = Config.build(ruleset=ruleset, bots=[engine, "GREEDY"], boards=1, seed=21, unit="match")
        want = play_block(Job.from_config(in_process, use_compiled=False), (0, 0, 1))
        assert min(row[5] for row in want) > 3  # several deals per table
        assert play_block(Job.from_config(by_engine), (0, 0, 1)) == want, ruleset


def test_reference_engine_plays_a_tournament_resumes_and_keeps_its_stderr(tmp_path):
    engine = f"engine:{PY} {REFERENCE}"
    out = tmp_path / "run"
    args = ["tournament", "-r", "tekka", "-b", f"{engine},RANDOM", "-n", "3", "-w", "1", "-q", "-O", str(out)]
    first = cli(*args)
    assert first.returncode == 0, first.stderr
    assert "FIRST_LEGAL" in first.stdout
    assert list((out / "engines").glob("*.log"))
    again = cli(*args)  # a rerun resumes: nothing is missing, nothing is played twice
    assert again.returncode == 0, again.stderr
    records = list(iter_records(out))
    assert len(records) == 3 * 2 and {r["players"]["bottom"] for r in records} == {"FIRST_LEGAL", "RANDOM"}
    # the reference engine plays the first legal action: the lowest card it may play
    record = next(r for r in records if r["players"]["bottom"] == "FIRST_LEGAL")
    state, texts = get_game("tekka").from_record(record)
    for text in texts:
        if state.current_player() == 0 and state.phase() == "play":
            assert state.string_to_action(text) == state.legal_actions()[0]
        state.apply_action(state.string_to_action(text))


def test_an_sprt_run_keeps_its_engines_stderr_in_its_run_directory(tmp_path):
    engine = fake(tmp_path, "TALKER", 'print("thinking", n, file=sys.stderr, flush=True)')
    out = tmp_path / "sprt"
    args = ["sprt", "--bot", engine, "--bot", "RANDOM", "--elo0", "0", "--elo1", "50", "--max-pairs", "4", "-w", "1"]
    done = cli(*args, "-q", "-O", str(out))
    assert done.returncode == 0, done.stderr
    assert "thinking 1" in "".join(log.read_text() for log in (out / "engines").glob("TALKER.py-*.log"))


@pytest.mark.parametrize(
    "body, fault",
    [
        ("if n == 3: time.sleep(30)", "no answer in time"),
        ("if n == 3: sys.exit(3)", "exited with status 3"),
        ("if n == 3: answer = 'hello world'", "not an action message"),
        ("if n == 3: answer['id'] += 1", "to decision id"),
        ("if n == 3: answer['action'] = 'XX'", "not among the allowed actions"),
    ],
)
def test_a_fault_is_one_line_naming_engine_decision_seat_and_fault_and_the_engine_is_stopped(tmp_path, body, fault):
    spec = fake(tmp_path, "FAULTY", body)
    bot = get_bot(spec, ruleset="feskot", time_ms=50)
    other = get_bot("RANDOM")
    proc = host.engine_process(bot.command)
    first_pid = proc.proc.pid
    with pytest.raises(BotError) as err:
        play_deal_state(get_game("feskot").new_deal(1), [bot, other, other, other], 1, 0)
    message = str(err.value)
    assert "\n" not in message and fault in message and "engine FAULTY" in message
    assert "seat bottom" in message and "trick" in message
    assert not proc.running()
    assert _gone(first_pid)
    # restarted on the next use
    assert decide(bot, get_game("feskot").new_deal(2), 0, 5) is not None
    stop_engines()


def _gone(pid: int, wait: float = 5.0) -> bool:
    end = time.monotonic() + wait
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:  # a zombie child of this process is gone for our purpose once reaped
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return True
        except ChildProcessError:
            pass
        time.sleep(0.05)
    return False


def test_a_tournament_stopped_by_a_fault_keeps_its_tables_and_resumes_once_fixed(tmp_path):
    bad = fake(
        tmp_path,
        "FLAKY",
        'if len(m["observation"]["record"]["tricks"]) == 6 and m["seed"] % 11 == 0: sys.exit(1)',
    )
    script = bad.split()[-1]
    out = tmp_path / "run"
    args = [
        "tournament",
        "-r",
        "feskot",
        "-b",
        f"{bad},RANDOM",
        "-n",
        "8",
        "-w",
        "1",
        "--block",
        "1",
        "-q",
        "-O",
        str(out),
    ]
    broken = cli(*args)
    assert broken.returncode != 0
    line = broken.stderr.strip()
    assert "\n" not in line and "engine FLAKY" in line and "board" in line and "exited with status 1" in line
    assert "Traceback" not in broken.stderr
    kept = len(list(iter_records(out)))
    assert 0 < kept < 16
    Path(script).write_text(Path(script).read_text().replace("sys.exit(1)", "pass"))
    fixed = cli(*args)
    assert fixed.returncode == 0, fixed.stderr
    fresh = cli(*args[:-1], str(tmp_path / "fresh"))
    assert fresh.returncode == 0
    assert list(iter_records(out)) == list(iter_records(tmp_path / "fresh"))


def test_bad_engines_are_one_line_and_a_nonzero_exit(tmp_path):
    not_exec = tmp_path / "engine.sh"
    not_exec.write_text("#!/bin/sh\n")
    silent = tmp_path / "silent.py"
    silent.write_text("import sys\nsys.stdin.readline()\n")
    nameless = fake(tmp_path, "NAMELESS", "", hello='{"type": "hello", "protocol": 1, "rulesets": ["feskot"]}')
    feskot_only = fake(
        tmp_path,
        "ONLYFESKOT",
        "",
        hello='{"type": "hello", "protocol": 1, "name": "ONLYFESKOT", "rulesets": ["feskot"]}',
    )
    twin_a = fake(tmp_path, "TWIN", "")
    (tmp_path / "b").mkdir()
    twin_b = fake(tmp_path / "b", "TWIN", "")
    cases = [
        (f"engine:{tmp_path}/nope", "feskot", "does not exist"),
        (f"engine:{not_exec}", "feskot", "is not executable"),
        (f"engine:{PY} {silent}", "feskot", "gave no hello"),
        (nameless, "feskot", "no name"),
        (feskot_only, "tekka", "does not play tekka"),
        (f"{twin_a},{twin_b}", "feskot", "both call themselves 'TWIN'"),
        # a script the interpreter cannot open: why is in the engine's stderr, which the line shows
        (f"engine:{PY} {tmp_path}/missing.py", "feskot", "[Errno 2] No such file or directory"),
    ]
    for bots, ruleset, words in cases:
        done = cli("tournament", "-r", ruleset, "-b", f"{bots},RANDOM", "-n", "1", "-q", "-O", str(tmp_path / "r"))
        assert done.returncode != 0 and words in done.stderr, (bots, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "r" / "results.sqlite").exists()


def test_an_engine_that_never_says_hello_times_out(tmp_path, monkeypatch):
    mute = tmp_path / "mute.py"
    mute.write_text("import time\ntime.sleep(60)\n")
    monkeypatch.setattr(host, "HELLO_TIMEOUT", 0.5)
    with pytest.raises(BotError, match="gave no hello: no answer in time"):
        get_bot(f"engine:{PY} {mute}")


def test_engines_die_with_their_host_even_after_kill_9(tmp_path):
    starter = tmp_path / "starter.py"
    starter.write_text(
        f"from tekkasim.bots.engines import engine_process\n"
        f"p = engine_process({PY + ' ' + str(REFERENCE)!r})\n"
        f"print(p.proc.pid, flush=True)\n"
        f"import time; time.sleep(60)\n"
    )
    parent = subprocess.Popen(
        [PY, str(starter)], stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}
    )
    pid = int(parent.stdout.readline())
    os.kill(pid, 0)  # running
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    assert _gone(pid)


def test_an_engine_bot_is_stopped_at_exit_and_quits_on_request():
    bot = get_bot(f"engine:{PY} {REFERENCE}")
    assert bot.label == "FIRST_LEGAL" and set(bot.rulesets) == set(RULESETS)
    pid = host.engine_process(bot.command).proc.pid
    t = time.monotonic()
    stop_engines()
    assert _gone(pid) and time.monotonic() - t < 2.0  # it quit on the message, no kill needed


def test_one_engine_bot_plays_deals_of_every_ruleset_in_turn():
    """A notebook's ``get_bot("engine:...")`` (no ruleset) seated in a Feskot or Tekka deal, then in Satat and
    Shengji: what it keeps to bring a seat's observation up to date belongs to the last deal's state and is
    not read as the new one's (it was, and a Satat decision failed)."""
    bot = get_bot(f"engine:{PY} {REFERENCE}")
    for ruleset in ("tekka", "satat", "feskot", "shengji", "tekka"):
        greedy = get_bot("GREEDY", ruleset=ruleset)
        state = play_deal_state(get_game(ruleset).new_deal(5), [bot, greedy] * 2, 5, 0)
        assert state.is_terminal(), ruleset
    stop_engines()


def test_tekkasim_engine_answers_an_app_that_sends_its_true_deal():
    """An app drives ``tekkasim engine`` itself: hello, then decisions with its true deal as ``world``."""
    game = get_game("feskot")
    state = game.new_deal(4)
    view = View(state, state.current_player())
    from tekkasim.bots.engines import decide_message

    line, allowed = decide_message(view, 1, "feskot", game.options, 100, 77)
    msg = json.loads(line) | {"world": state.to_record()}
    feed = json.dumps({"type": "hello", "protocol": 1}) + "\n" + json.dumps(msg) + "\n" + '{"type": "quit"}\n'
    done = subprocess.run(
        [PY, "-m", "tekkasim", "engine", "TANA"],
        input=feed,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    hello, answer = map(json.loads, done.stdout.splitlines())
    assert hello["name"] == "TANA" and "feskot" in hello["rulesets"] and hello["world"] is True
    assert answer["id"] == 1 and allowed[answer["action"]] == decide(
        get_bot("TANA", ruleset="feskot"), state, view.seat, 77
    )
    assert done.returncode == 0


def test_tekkasim_engine_tells_an_app_what_is_wrong_with_its_decide_message():
    """A seat that is not to move in the app's ``world``, or a ``world`` whose deal is over: an error
    message that says so (the bot's answer refused as illegal would be a puzzle), and the engine goes on."""
    from tekkasim.bots.engines.serve import _Server

    game = get_game("feskot")
    over = game.new_deal(4)
    while not over.is_terminal():
        over.apply_action(over.legal_actions()[0])
    server = _Server("RANDOM")
    fresh = {"type": "decide", "id": 1, "ruleset": "feskot", "world": game.new_deal(3).to_record(), "seed": 1}
    with pytest.raises(TekkasimError, match=r"seat right is not to move in 'world' \(next: prime choice \(bottom\)\)"):
        server.decide(fresh | {"seat": "right"})
    with pytest.raises(TekkasimError, match="the deal in 'world' is over"):
        server.decide(fresh | {"seat": "bottom", "world": over.to_record()})
    assert server.decide(fresh | {"seat": "bottom"}) in "CDHS"


def _engine_processes(marker: str) -> list[int]:
    """Pids of running processes whose command line holds ``marker``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    pids.append(int(entry.name))
            except OSError:  # gone meanwhile
                pass
    return pids


def test_engines_play_on_the_dask_backend_and_none_is_left_behind(tmp_path):
    """``--backend dask`` with the local cluster the runner starts: each Dask worker starts its own engine,
    the results are those of a local run, the engines' stderr is kept in the run directory, and no engine
    process outlives the run."""
    pytest.importorskip("distributed")
    engine_file = tmp_path / "dask_first_legal.py"  # a path of its own: its processes are told apart by it
    engine_file.write_text(REFERENCE.read_text())
    bots = f"engine:{PY} {engine_file},GREEDY"
    common = ["tournament", "-r", "feskot", "-b", bots, "-n", "8", "--block", "2", "-s", "21", "-q"]
    dask = cli(*common, "--backend", "dask", "-w", "2", "-O", str(tmp_path / "dask"))
    assert dask.returncode == 0, dask.stderr
    local = cli(*common, "-w", "1", "-O", str(tmp_path / "local"))
    assert local.returncode == 0, local.stderr

    def played(out):
        return sorted(json.dumps(r, sort_keys=True) for r in iter_records(out))

    assert played(tmp_path / "dask") == played(tmp_path / "local") and len(played(tmp_path / "local")) == 16
    logs = list((tmp_path / "dask" / "engines").glob("dask_first_legal.py-*.log"))
    assert logs  # started in the workers (each its own), their stderr kept with the run
    deadline = time.monotonic() + 10
    while _engine_processes(str(engine_file)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _engine_processes(str(engine_file)) == []


@settings(max_examples=200, deadline=None)
@given(legal=st.integers(1, (1 << 52) - 1), signals=st.booleans())
def test_card_plays_is_the_map_of_allowed_actions_read_from_the_mask(legal, signals):
    """play_decide_message's allowed actions (CardPlays) answer as the dict a full build makes: each legal
    card, with signals also each with slam and with drop, in that order; nothing else."""
    from tekkasim.rulesets.trick52.engine_messages import CardPlays, _legal_json
    from tekkasim.rulesets.trick52.game import action_text

    cards = [c for c in range(52) if legal >> c & 1]
    actions = cards + ([c + 52 for c in cards] + [c + 104 for c in cards] if signals else [])
    want = {action_text(a): a for a in actions}
    plays = CardPlays(legal, signals)
    assert plays == want and list(plays) == list(want) and len(plays) == len(want)
    assert _legal_json(legal, signals) == ",".join(json.dumps(t) for t in want)
    for a in range(k52.PRIME_BASE):
        assert plays.get(action_text(a)) == want.get(action_text(a))
    assert plays.get("pass") is None and plays.get("C") is None


def test_answers_are_read_in_every_layout_and_faults_still_caught():
    """The host reads json.dumps' layouts of an allowed action without json.loads; any other layout,
    case or key order goes through json.loads to the same action; a wrong id or action is a fault."""
    from tekkasim.rulesets.trick52.engine_messages import CardPlays

    allowed = CardPlays((1 << 0) | (1 << 51), True)  # 2C, AS
    for answer in (
        b'{"type": "action", "id": 7, "action": "AS"}',
        b'{"type":"action","id":7,"action":"AS"}',
        b'{"id": 7, "type": "action", "action": "as"}',
        b'{"type": "action", "id": 7, "action": "\\u0041S"}',
        b'{"type": "action", "id": 7, "action": " AS ", "note": "x"}',
    ):
        assert host._action(answer, 7, allowed, False) == 51, answer
    assert host._action(b'{"type": "action", "id": 7, "action": "2c:SLAM"}', 7, allowed, False) == 52
    for answer, fault in (
        (b'{"type": "action", "id": 8, "action": "AS"}', "to decision id 7"),
        (b'{"type": "action", "id": 7, "action": "KS"}', "not among the allowed actions"),
        (b'{"type": "action", "id": 7, "action": "AS"', "not an action message"),
    ):
        with pytest.raises(host.EngineFault, match=fault):
            host._action(answer, 7, allowed, False)


def test_the_watchdog_takes_a_slow_answer_in_time_and_stops_a_late_one_soon_after_its_deadline(tmp_path, monkeypatch):
    """The host waits in a plain read; its watchdog stops an engine only once the deadline has passed."""
    monkeypatch.setattr(host, "GRACE_MS", 300)
    slow = get_bot(fake(tmp_path, "SLOW", "if n == 2: time.sleep(0.2)"), ruleset="feskot", time_ms=10)
    other = get_bot("RANDOM")
    assert play_deal_state(get_game("feskot").new_deal(3), [slow, other, other, other], 3, 0).is_terminal()
    late = get_bot(fake(tmp_path, "LATE", "if n == 2: time.sleep(30)"), ruleset="feskot", time_ms=10)
    t = time.monotonic()
    with pytest.raises(BotError, match="engine LATE at .*no answer in time"):
        play_deal_state(get_game("feskot").new_deal(3), [late, other, other, other], 3, 0)
    assert 0.3 < time.monotonic() - t < 0.3 + 5 * host.WATCH_TICK + 1.0  # deadline, a tick, the first answer
    stop_engines()


# An engine that writes, at its first decision, its CPUs and its host's (its parent's) to its stderr
_WHERE = """\
if n == 1:
    import os
    mine, host = sorted(os.sched_getaffinity(0)), sorted(os.sched_getaffinity(os.getppid()))
    print("cpus", mine, host, file=sys.stderr, flush=True)
"""


def _cpus_logged(run: Path) -> list[tuple[list[int], list[int]]]:
    """(engine's CPUs, its host's) from each engine log of a run that made a decision."""
    out = []
    for log in sorted((run / "engines").glob("*.log")):
        for line in log.read_text().splitlines():
            if line.startswith("cpus "):
                engine, host_cpus = line[5:].split("] [")
                out.append((json.loads(engine + "]"), json.loads("[" + host_cpus)))
    return out


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="sched_setaffinity is Linux's")
def test_each_worker_seating_an_engine_runs_with_it_on_a_core_of_its_own_and_plays_the_same(tmp_path, monkeypatch):
    from tekkasim.bots.engines import affinity
    from tekkasim.tournament import run_tournament

    cores = sorted(os.sched_getaffinity(0))
    engine = fake(tmp_path, "WHERE", _WHERE)

    def run(name: str) -> tuple[list, list]:
        cfg = Config.build(ruleset="feskot", bots=[engine, "RANDOM"], boards=4, seed=5, workers=2)
        run_tournament(cfg, tmp_path / name, quiet=True)
        records = sorted(json.dumps(r, sort_keys=True) for r in iter_records(tmp_path / name))
        return records, _cpus_logged(tmp_path / name)

    pinned, where = run("pinned")
    assert len(where) == 2  # one engine per worker (the parent's, started for its hello, decides nothing)
    for engine_cpus, host_cpus in where:
        assert engine_cpus == host_cpus and len(engine_cpus) == 1
    # round robin over the cores the run may use: worker 0 on the first, worker 1 on the second
    assert sorted(c for (c,), _ in where) == sorted(affinity.core_for(i, cores) for i in range(2))
    monkeypatch.setenv(affinity.PIN_ENV, "0")
    free, where = run("free")
    assert [cpus for cpus, _ in where] == [cores, cores]
    assert free == pinned  # the same stored deals, pinned or not


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="sched_setaffinity is Linux's")
def test_each_dask_worker_seating_an_engine_runs_with_it_on_a_core_of_its_own_and_plays_the_same(tmp_path):
    """``--backend dask`` with the runner's local cluster: each worker plays its blocks with its engine on
    one core (worker i, named i, on the i-th core the run may use), as local workers do; with
    TEKKASIM_PIN_ENGINES=0 they are left to the scheduler; the stored deals are the same either way."""
    pytest.importorskip("distributed")
    from tekkasim.bots.engines import affinity

    cores = sorted(os.sched_getaffinity(0))
    engine = fake(tmp_path, "WHERE", _WHERE)
    common = ["tournament", "-r", "feskot", "-b", f"{engine},RANDOM", "-n", "12", "--block", "1", "-s", "5"]

    def run(name: str, pin: str) -> tuple[list, list]:
        done = cli(
            *common, "-q", "--backend", "dask", "-w", "2", "-O", str(tmp_path / name), env={affinity.PIN_ENV: pin}
        )
        assert done.returncode == 0, done.stderr
        records = sorted(json.dumps(r, sort_keys=True) for r in iter_records(tmp_path / name))
        return records, _cpus_logged(tmp_path / name)

    pinned, where = run("pinned", "1")
    assert len(where) == 2  # an engine in each worker, started in its first block
    for engine_cpus, host_cpus in where:  # the worker (its every thread) and its engine on one core
        assert engine_cpus == host_cpus and len(engine_cpus) == 1
    assert sorted(c for (c,), _ in where) == sorted(affinity.core_for(i, cores) for i in range(2))
    free, where = run("free", "0")
    assert [cpus for cpus, _ in where] == [cores, cores]
    assert free == pinned and len(pinned) == 24


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="sched_setaffinity is Linux's")
def test_a_run_in_one_process_is_pinned_with_its_engines_for_its_duration(monkeypatch):
    """``pinned()``: this process (every thread) and its engines on one core while inside, their CPUs back
    after; with a worker ``index`` (a Dask worker's slot) its core round robin; off, or where
    sched_setaffinity is missing, nothing changes."""
    import threading

    from tekkasim.bots.engines import affinity

    before = os.sched_getaffinity(0)
    bot = get_bot(f"engine:{PY} {REFERENCE}")
    pid = host.engine_process(bot.command).proc.pid
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)  # a thread of the process, as a Dask worker's event loop
    other.start()
    try:
        with affinity.pinned() as core:
            assert core in before and os.sched_getaffinity(0) == {core} == os.sched_getaffinity(pid)
            assert os.sched_getaffinity(other.native_id) == {core}
        assert os.sched_getaffinity(0) == before == os.sched_getaffinity(pid) == os.sched_getaffinity(other.native_id)
        for index in range(3):
            with affinity.pinned(index=index) as core:
                assert core == affinity.core_for(index, sorted(before))
                assert os.sched_getaffinity(0) == {core} == os.sched_getaffinity(pid)
                assert os.sched_getaffinity(other.native_id) == {core}
            assert os.sched_getaffinity(0) == before == os.sched_getaffinity(other.native_id)
        with affinity.pinned(seats_engine=False) as core:
            assert core is None and os.sched_getaffinity(0) == before
        with monkeypatch.context() as patched:
            patched.delattr(os, "sched_setaffinity")
            with affinity.pinned(index=1) as core:
                assert core is None
        assert os.sched_getaffinity(0) == before
        monkeypatch.setenv(affinity.PIN_ENV, "off")
        with affinity.pinned() as core:
            assert core is None and os.sched_getaffinity(0) == before
    finally:
        stop.set()
        other.join()
        os.sched_setaffinity(0, before)
        stop_engines()


def test_dask_workers_take_slots_on_their_machine():
    """A Dask worker's slot is its place among its machine's workers (numbered names first, then by name
    and address); the runner asks the scheduler once, older distributed versions included."""
    from tekkasim.tournament.backends import _dask_slot, _dask_slots

    workers = {
        "tcp://10.0.0.2:4001": {"host": "10.0.0.2", "name": 1},
        "tcp://10.0.0.2:4000": {"host": "10.0.0.2", "name": 0},
        "tcp://10.0.0.3:4100": {"host": "10.0.0.3", "name": "b-0"},
        "tcp://10.0.0.3:4001": {"host": "10.0.0.3", "name": "b-1"},
        "tcp://10.0.0.2:4010": {"host": "10.0.0.2", "name": "tcp://10.0.0.2:4010"},
    }

    class Client:
        def __init__(self, asked: bool):
            self.asked = asked

        def scheduler_info(self, **kwargs):
            if kwargs and not self.asked:
                raise TypeError("unexpected keyword argument 'n_workers'")
            return {"workers": workers}

    want = {
        "tcp://10.0.0.2:4000": 0,
        "tcp://10.0.0.2:4001": 1,
        "tcp://10.0.0.2:4010": 2,
        "tcp://10.0.0.3:4100": 0,
        "tcp://10.0.0.3:4001": 1,
    }
    assert _dask_slots(Client(True)) == want == _dask_slots(Client(False))
    assert _dask_slot(want) is None  # not in a Dask worker: left as is


def test_workers_take_the_cores_round_robin():
    from tekkasim.bots.engines.affinity import core_for

    assert [core_for(i, [2, 5, 7]) for i in range(5)] == [2, 5, 7, 2, 5]
    assert core_for(3, []) is None
