"""Issue 39, the new-user probe: engines' own child processes never outlive a tournament or an sprt (its
workers end normally or are stopped by Ctrl-C), and the engine host's and ``tekkasim engine``'s answers to
bad input. Fake engines are small Python scripts in tmp_path."""

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

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


def _env():
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _spawner(tmp_path: Path, pids: Path, pause: float = 0.0) -> str:
    """An engine that starts ``sleep 299`` (its pid appended to ``pids``) and then plays the first legal
    action, ``pause`` seconds a decision."""
    script = tmp_path / "spawner.py"
    script.write_text(
        textwrap.dedent(
            f"""\
            import json, subprocess, sys, time
            child = subprocess.Popen(["sleep", "299"])
            with open({str(pids)!r}, "a") as f:
                f.write(f"{{child.pid}}\\n")
            for line in sys.stdin:
                m = json.loads(line)
                if m["type"] == "hello":
                    print(json.dumps({{"type": "hello", "protocol": 1, "name": "SPAWNER",
                                       "rulesets": ["feskot", "tekka", "satat", "shengji"]}}), flush=True)
                elif m["type"] == "quit":
                    break
                elif m["type"] == "decide":
                    time.sleep({pause})
                    action = None if m["optional"] else m["legal"][0]
                    print(json.dumps({{"type": "action", "id": m["id"], "action": action}}), flush=True)
            """
        )
    )
    return f"engine:{PY} {script}"


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie left unreaped by a container's init counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True


def _read_pids(path: Path) -> list[int]:
    try:
        return [int(x) for x in path.read_text().split()]
    except FileNotFoundError:
        return []


def _all_gone(pids: list[int], wait: float = 10.0) -> list[int]:
    end = time.monotonic() + wait
    while time.monotonic() < end:
        left = [p for p in pids if _alive(p)]
        if not left:
            return []
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


def _kill_strays(pids: list[int]) -> None:
    for pid in pids:
        if _alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


@pytest.mark.parametrize("command", ["tournament", "sprt"])
def test_an_engines_children_do_not_outlive_a_run_that_ends_normally(tmp_path, command):
    pids = tmp_path / "pids"
    engine = _spawner(tmp_path, pids)
    if command == "tournament":
        args = ["tournament", "-r", "feskot", "-b", f"{engine},RANDOM", "-n", "4", "--block", "1"]
    else:
        args = ["sprt", "--bot", engine, "--bot", "RANDOM", "--elo0", "0", "--elo1", "50", "--max-pairs", "4"]
    try:
        done = subprocess.run(
            [PY, "-m", "tekkasim", *args, "-w", "2", "-q", "-O", str(tmp_path / "run")],
            capture_output=True,
            text=True,
            env=_env(),
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        started = _read_pids(pids)
        assert len(started) >= 2  # the parent's engine (its hello) and at least one worker's
        assert _all_gone(started) == []
    finally:
        _kill_strays(_read_pids(pids))


@pytest.mark.parametrize("command", ["tournament", "sprt"])
def test_an_engines_children_do_not_outlive_a_run_stopped_by_ctrl_c(tmp_path, command):
    pids = tmp_path / "pids"
    engine = _spawner(tmp_path, pids, pause=0.02)
    if command == "tournament":
        args = ["tournament", "-r", "feskot", "-b", f"{engine},RANDOM", "-n", "400", "--block", "1"]
    else:
        args = ["sprt", "--bot", engine, "--bot", "RANDOM", "--elo0", "0", "--elo1", "5", "--max-pairs", "400"]
    run = subprocess.Popen(
        [PY, "-m", "tekkasim", *args, "-w", "2", "-q", "-O", str(tmp_path / "run")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        start_new_session=True,  # its own process group, as a terminal's job: Ctrl-C goes to the group
    )
    try:
        end = time.monotonic() + 120
        while len(_read_pids(pids)) < 3 and time.monotonic() < end and run.poll() is None:
            time.sleep(0.1)  # the parent's engine and both workers' have started
        assert len(_read_pids(pids)) >= 3, run.stderr.read() if run.poll() is not None else "not started"
        time.sleep(0.5)
        os.killpg(run.pid, signal.SIGINT)
        _out, err = run.communicate(timeout=60)
        assert run.returncode != 0 and "interrupted" in err, err
        assert _all_gone(_read_pids(pids)) == []
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
        _kill_strays(_read_pids(pids))


def _engine(tmp_path: Path, name: str, hello: dict | None = None, body: str = "") -> str:
    """A tiny engine that says ``hello`` (named ``name`` by default), runs ``body`` for each decide message
    ``m`` and plays the first legal action."""
    hello = hello or {"type": "hello", "protocol": 1, "name": name, "rulesets": ["feskot", "tekka", "satat", "shengji"]}
    script = tmp_path / f"{name.strip() or 'engine'}.py".replace("\n", "_")
    script.write_text(
        textwrap.dedent(
            """\
            import json, sys
            for line in sys.stdin:
                m = json.loads(line)
                if m["type"] == "hello":
                    print(%r, flush=True)
                elif m["type"] == "quit":
                    break
                elif m["type"] == "decide":
            %s
                    action = None if m["optional"] else m["legal"][0]
                    print(json.dumps({"type": "action", "id": m["id"], "action": action}), flush=True)
            """
        )
        % (json.dumps(hello), textwrap.indent(textwrap.dedent(body or "pass"), " " * 8))
    )
    return f"engine:{PY} {script}"


@pytest.mark.parametrize(
    "name, words",
    [("RANDOM", "built-in bot"), ("greedy", "built-in bot"), ("TWO\nLINES", "control character"), ("A\tB", "control")],
)
def test_an_engine_may_not_take_a_built_in_bots_name_or_put_control_characters_in_its_name(tmp_path, name, words):
    from tekkasim.bots import get_bot
    from tekkasim.bots.engines import stop_engines
    from tekkasim.errors import BotError

    spec = _engine(tmp_path, "engine", hello={"type": "hello", "protocol": 1, "name": name, "rulesets": ["feskot"]})
    with pytest.raises(BotError) as err:
        get_bot(spec, ruleset="feskot")
    assert "\n" not in str(err.value) and words in str(err.value)
    stop_engines()


def test_an_engines_time_ms_is_a_parameter_of_its_spec_on_the_command_line_and_in_toml(tmp_path):
    from tekkasim.bots import get_bot
    from tekkasim.bots.engines import stop_engines
    from tekkasim.errors import BotError

    seen = tmp_path / "time_ms"
    spec = _engine(tmp_path, "TIMED", body=f'open({str(seen)!r}, "a").write(str(m["time_ms"]) + "\\n")')
    bot = get_bot(spec + ",time_ms=250", ruleset="feskot")
    assert bot.params["time_ms"] == 250 and bot.command == spec.split(":", 1)[1]
    with pytest.raises(BotError, match="time_ms"):
        get_bot(spec + ",time_ms=0", ruleset="feskot")
    stop_engines()
    out = tmp_path / "run"
    done = subprocess.run(
        [PY, "-m", "tekkasim", "tournament", "-b", f"{spec},time_ms=250,RANDOM", "-n", "1", "-w", "1", "-q", "-O", out],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert set(seen.read_text().split()) == {"250"}
    seen.unlink()
    toml = tmp_path / "run.toml"
    toml.write_text(f"ruleset = 'feskot'\nboards = 1\nbots = [{json.dumps(spec + ',time_ms=300')}, 'RANDOM']\n")
    done = subprocess.run(
        [PY, "-m", "tekkasim", "tournament", "--config", toml, "-w", "1", "-q", "-O", tmp_path / "run2"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert set(seen.read_text().split()) == {"300"}


@pytest.mark.parametrize("command", ["tournament", "sprt"])
def test_the_log_of_an_engine_that_fails_to_start_is_kept_in_the_run_directory(tmp_path, command):
    broken = tmp_path / "broken.py"
    broken.write_text("import sys\nprint('cannot load my model', file=sys.stderr)\nsys.exit(2)\n")
    spec = f"engine:{PY} {broken}"
    if command == "tournament":
        args = ["tournament", "-b", f"{spec},RANDOM", "-n", "1"]
    else:
        args = ["sprt", "--bot", spec, "--bot", "RANDOM", "--elo0", "0", "--elo1", "50", "--max-pairs", "2"]
    # -O run, relative: the log's path in the one line is short enough not to be cut
    command_line = [PY, "-m", "tekkasim", *args, "-w", "1", "-q", "-O", "run"]
    done = subprocess.run(command_line, capture_output=True, text=True, env=_env(), timeout=300, cwd=tmp_path)
    assert done.returncode != 0 and "cannot load my model" in done.stderr, done.stderr
    logs = list((tmp_path / "run" / "engines").glob("broken.py-*.log"))
    assert len(logs) == 1 and f"(log: run/engines/{logs[0].name})" in done.stderr, done.stderr
    broken.write_text(_spawner_free_engine())  # fixed: the same command plays into the same directory
    done = subprocess.run(command_line, capture_output=True, text=True, env=_env(), timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def _spawner_free_engine() -> str:
    return (ROOT / "examples" / "engine_first_legal.py").read_text()


def _served(lines: list[str]) -> list[dict]:
    import io

    from tekkasim.bots.engines import serve

    out = io.BytesIO()
    serve("RANDOM", io.BytesIO("".join(line + "\n" for line in lines).encode()), out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def test_tekkasim_engine_answers_each_bad_message_with_one_clear_error():
    from tekkasim.rules import get_game

    good = {
        "type": "decide",
        "id": 1,
        "ruleset": "feskot",
        "seat": "bottom",
        "world": get_game("feskot").new_deal(3).to_record(),
        "seed": 1,
    }
    cases = [
        ("5", "not a JSON object"),
        ('"decide"', "not a JSON object"),
        ("null", "not a JSON object"),
        ("[1, 2]", "not a JSON object"),
        ('{"type": "decide"}', "needs 'ruleset'"),
        (json.dumps(good | {"ruleset": 7}), "'ruleset'"),
        (json.dumps(good | {"seed": "12"}), "'seed' must be an integer"),
        (json.dumps(good | {"seed": 1.5}), "'seed' must be an integer"),
        (json.dumps(good | {"seed": True}), "'seed' must be an integer"),
        (json.dumps(good | {"seed": -1}), "0 .. 2**63-1"),
        (json.dumps(good | {"seed": 2**63}), "0 .. 2**63-1"),
    ]
    answers = _served([line for line, _ in cases] + [json.dumps(good)])
    assert len(answers) == len(cases) + 1
    for (line, words), answer in zip(cases, answers, strict=False):
        assert answer["type"] == "error", line
        message = answer["message"]
        assert words in message and "\n" not in message, (line, message)
        assert "ValueError" not in message and "None" not in message, (line, message)
    assert answers[-1]["type"] == "action" and answers[-1]["action"] in "CDHS"  # and it goes on
