"""What a new user runs into: output paths, pathological record lines, seeds, stdin, --first, deal --json,
the common rendering and the start-up imports. Every bad input is one line and a non-zero exit."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tekkasim.bots import Bot
from tekkasim.cli import COMMANDS, cli
from tekkasim.records import iter_records, write_records
from tekkasim.rules import get_game, ruleset_names
from tekkasim.tournament import Config, TournamentError
from tekkasim.tournament.config import inseparable_bots

RULESETS = ruleset_names()
TEKKASIM = [sys.executable, "-m", "tekkasim"]


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


def one_line_error(result, *words):
    """Exit non-zero with exactly one non-blank output line, holding ``words``."""
    assert result.exit_code != 0, result.output
    lines = [line for line in result.output.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert all(w in lines[0] for w in words), lines[0]


# --- output paths -----------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["/proc/x/y.jsonl", "under-a-file", ""])
def test_unwritable_out_is_one_line(tmp_path, where):
    if where == "under-a-file":
        (tmp_path / "plain").write_text("")
        where = str(tmp_path / "plain" / "y.jsonl")
    one_line_error(run("play", "-n", 2, "-O", where), "Error:")
    one_line_error(run("smoke", "-r", "feskot", "--deals", 1000, "--records", 2, "--out-dir", where), "Error:")


def test_out_is_a_directory(tmp_path):
    one_line_error(run("play", "-n", 1, "-O", tmp_path), "directory")


def test_out_writes_through_a_symlink(tmp_path):
    target = tmp_path / "real.jsonl"
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert run("play", "-n", 3, "-O", link).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert len(target.read_text().splitlines()) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "real.jsonl"]


def test_out_to_dev_stdout_and_dash_prints_the_records():
    for out in ("/dev/stdout", "-"):
        proc = subprocess.run(TEKKASIM + ["play", "-n", "2", "-O", out], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert [json.loads(line)["seed"] for line in proc.stdout.splitlines()] == [1, 2]


def test_out_to_a_fifo_is_written_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    assert write_records(fifo, [{"format": 1, "n": i} for i in range(4)]) == 4
    reader.join(10)
    assert len(got[0].splitlines()) == 4
    assert fifo.is_fifo() and sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_sigterm_leaves_no_part_file(tmp_path):
    out = tmp_path / "many.jsonl"
    proc = subprocess.Popen(
        TEKKASIM + ["play", "-n", "1000000", "-O", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    part = tmp_path / ".many.jsonl.part.jsonl"
    deadline = time.monotonic() + 120
    while not (part.exists() and part.stat().st_size > 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert part.exists(), "the writer never started"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0 and b"Traceback" not in err
    assert list(tmp_path.iterdir()) == []


# --- pathological record lines --------------------------------------------------------------------------


def test_deep_and_huge_json_are_one_error_each(tmp_path):
    good = get_game("feskot").new_deal(3).to_record()
    path = tmp_path / "nasty.jsonl"
    path.write_text(
        "[" * 100_000 + "\n" + '{"seed": ' + "7" * 5000 + "}\n" + "9" * 5000 + "\n" + json.dumps(good) + "\n"
    )
    items = list(iter_records(path))  # the reader verify, replay and dd share
    assert [i for i, _ in items] == [0, 1, 2, 3] and items[3][1] == good
    assert "nested too deeply" in str(items[0][1]) and "line 1" in str(items[0][1])
    assert "too long" in str(items[1][1]) and "too long" in str(items[2][1])
    result = run("verify", path)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.count("ERROR") == 3 and "deal 3: ok (unfinished)" in result.output
    shown = run("replay", path)
    assert shown.exit_code == 1 and "deal 3 · feskot" in shown.output


# --- seeds ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2**63, 2**64])
def test_seeds_outside_the_range_are_refused(seed):
    for command in ("deal", "play"):
        one_line_error(run(command, "--seed", seed), "outside 0 .. 2**63-1")


def test_last_seed_of_a_run_must_fit():
    assert run("deal", "--seed", 2**63 - 1).exit_code == 0
    assert run("play", "-n", 1, "--seed", 2**63 - 1).exit_code == 0
    one_line_error(run("play", "-n", 2, "--seed", 2**63 - 1), "passes 2**63-1")


# --- messages --------------------------------------------------------------------------------------------


def test_long_values_are_cut_in_messages(tmp_path):
    huge = "Q" * 10_000
    for args in (
        ("deal", "-r", huge),
        ("deal", "-o", huge),
        ("deal", "-o", f"{huge}=1"),
        ("play", "--first", huge),
        (huge,),
    ):
        result = run(*args)
        assert result.exit_code != 0 and len(result.output) < 600, (args[:1], len(result.output))
    rec = get_game("feskot").new_deal(3).to_record() | {"trump": "S", "tricks": [[huge]]}
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    result = run("verify", path)
    assert result.exit_code == 1 and len(result.output) < 600


# --- conveniences -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", RULESETS)
def test_stdin_pipes_into_verify_and_replay(name):
    records = run("play", "-r", name, "-n", 3, "--seed", 5, "--match").output
    result = run("verify", "-", input=records)
    assert result.exit_code == 0 and result.output.count(": ok") == 3
    shown = run("replay", "-", "--deal", 1, input=records)
    assert shown.exit_code == 0 and shown.output.startswith("deal 1 · ")
    one_line_error(run("replay", "-", input=""), "standard input holds no records")


def test_gzip_on_stdin(tmp_path):
    path = tmp_path / "x.jsonl.gz"
    assert run("play", "-n", 2, "-O", path).exit_code == 0
    proc = subprocess.run(TEKKASIM + ["verify", "-"], input=path.read_bytes(), capture_output=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.count(b": ok") == 2


@pytest.mark.parametrize("name", RULESETS)
def test_deal_json_is_a_record_verify_reads(tmp_path, name):
    out = run("deal", "-r", name, "--seed", 9, "--json")
    assert out.exit_code == 0
    rec = json.loads(out.output)
    assert rec["ruleset"] == name and rec["seed"] == 9 and rec["unfinished"] is True
    assert rec == get_game(name).new_deal(9).to_record() | {"seed": 9}
    result = run("verify", "-", input=out.output)
    assert result.exit_code == 0 and "ok (unfinished)" in result.output


def test_deal_json_is_read_by_dd():
    out = run("deal", "-r", "feskot", "--seed", 9, "--json").output
    result = run("dd", "-", "--json", input=out)
    assert result.exit_code == 0, result.output
    table = json.loads(result.output.splitlines()[0])["tricks"]
    assert set(table) == {"S", "H", "D", "C"}


FIRST_FIELD = {"feskot": "first", "tekka": "first", "satat": "caller", "shengji": "declare_first"}


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("seat", ["right", "top", "L"])
def test_first_seat_from_the_cli(name, seat):
    full = {"right": "right", "top": "top", "L": "left"}[seat]
    rec = json.loads(run("deal", "-r", name, "--seed", 4, "--first", seat, "--json").output)
    assert rec[FIRST_FIELD[name]] == full
    played = [json.loads(line) for line in run("play", "-r", name, "-n", 2, "--first", seat).output.splitlines()]
    assert all(r[FIRST_FIELD[name]] == full for r in played)  # independent deals all start there
    matched = run("play", "-r", name, "-n", 2, "--first", seat, "--match").output.splitlines()
    matched = [json.loads(line) for line in matched]
    assert matched[0][FIRST_FIELD[name]] == full
    one_line_error(run("deal", "-r", name, "--first", "north"), "unknown seat 'north'")


def test_deal_shows_the_first_five_as_dealt():
    for name in ("feskot", "tekka"):
        rec = get_game(name).new_deal(11).to_record()
        shown = run("deal", "-r", name, "--seed", 11).output
        for seat, cards in rec["hands"].items():
            line = next(row for row in shown.splitlines() if row.strip().startswith(seat + " "))
            five = line.split("first five ")[1].split()
            assert [c[:-1] + "SHDC"["♠♥♦♣".index(c[-1])] for c in five] == cards[:5]


@pytest.mark.parametrize("name", RULESETS)
def test_one_layout_for_every_ruleset(name):
    """Header line, four hand lines by seat, the calls, a trump line, one line per trick with exactly one
    winning play marked, then the result."""
    records = run("play", "-r", name, "-n", 1, "--seed", 21).output
    rec = json.loads(records)
    lines = run("replay", "-", input=records).output.strip().splitlines()
    assert lines[0].startswith(f"deal 0 · {name} · seed 21")
    for i, seat in enumerate(("bottom", "right", "top", "left")):
        assert re.match(rf"  {seat} +\((A|B)\)  .*♠ .*  ♥ .*  ♦ .*  ♣ ", lines[1 + i]), lines[1 + i]
    trump = next(i for i, line in enumerate(lines) if line.startswith("trump: "))
    tricks = lines[trump + 1 : -1]
    assert len(tricks) == len(rec["tricks"])
    for number, line in enumerate(tricks, 1):
        assert re.match(rf" *{number}  (bottom|right|top|left) ", line), line
    complete = [line for line, t in zip(tricks, rec["tricks"], strict=True) if len(t) == 4]
    assert all(line.count("*") == 1 for line in complete)
    assert lines[-1].startswith("result: ")
    shown = run("deal", "-r", name, "--seed", 21).output.splitlines()
    assert shown[0].startswith(f"{name} · seed 21") and shown[1:5] == lines[1:5]  # the same hands lines


# --- start-up -----------------------------------------------------------------------------------------


def _modules_after(args: list[str]) -> set[str]:
    code = (
        "import sys; from tekkasim.cli import cli\n"
        f"try:\n    cli.main({args!r}, prog_name='tekkasim')\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    return set(proc.stderr.split())


def test_help_imports_no_subcommand_numba_or_pandas():
    loaded = _modules_after(["--help"])
    assert "click" in loaded
    assert not {m for m in loaded if m.split(".")[0] in ("numba", "pandas", "numpy")}
    assert not {m for m in loaded if m.startswith("tekkasim.cli.")} - {"tekkasim.cli.__init__"}


def test_deal_does_not_import_pandas_or_the_solver():
    loaded = _modules_after(["deal"])
    assert "tekkasim.rulesets.feskot.game" in loaded
    assert not {m for m in loaded if m.split(".")[0] == "pandas" or m.startswith("tekkasim.solver")}


def test_deal_skips_numbas_scipy_blas_probe_and_scipy_still_imports_after():
    loaded = _modules_after(["deal"])
    assert "numba.np.arraymath" in loaded and "scipy.linalg" not in loaded
    code = (
        "import sys; from tekkasim.cli import _skip_blas_probe; _skip_blas_probe(); "
        "import scipy.linalg; print(scipy.linalg.solve([[2.0]], [1.0])[0])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "0.5"


def test_every_command_has_short_help_in_the_table():
    shown = run("--help").output
    for name in COMMANDS:
        assert re.search(rf"^  {name} +\S", shown, re.M), name


def test_render_shows_an_accusation_where_it_was_made():
    from test_satat import D1, accuse, deal, play

    from tekkasim.render import render_state

    state = deal(D1, "bottom", "S")
    play(state, "AH JD 3H 2C")  # left fails to follow: a Renonce, accused at once; the trick counts for nobody
    accuse(state, "left", "top", "JD")
    lines = render_state(state).splitlines()
    assert lines[-2] == "   1  bottom A♥  left J♦  top 3♥  right 2♣  [top accuses left of J♦]"
    assert lines[-1] == "result: tricks A 0 - B 0 · kind renonce · points A 1 - B 0 · renonces trick 1 left"


def test_ruleset_names_in_any_case_everywhere():
    record = run("play", "-r", "FESKOT", "-n", 1).output
    assert json.loads(record)["ruleset"] == "feskot"
    assert run("deal", "-r", "Tekka").exit_code == 0
    shouted = json.dumps(json.loads(record) | {"ruleset": "FESKOT"})
    assert run("verify", "-", input=shouted).exit_code == 0
    assert run("replay", "-", input=shouted).output.startswith("deal 0 · feskot")
    assert run("bench", "-r", "FESKOT", "--deals", 1000, "--seconds", 0.1, "--json").exit_code == 0


def test_tekka_raises_are_rendered_counting_from_one():
    records = run("play", "-r", "tekka", "-o", "raises=true", "-n", 200, "--seed", 2).output.splitlines()
    raised = next(json.loads(line) for line in records if json.loads(line).get("raises"))
    first = raised["raises"][0]
    shown = run("replay", "-", input=json.dumps(raised)).output
    line = next(row for row in shown.splitlines() if row.startswith("raises: "))
    assert line.startswith(
        f"raises: {first['by']} asks {first['target']} before trick {first['trick'] + 1}, play {first['play'] + 1} ("
    )


# --- usage errors, impossible sizes, output paths checked before the work (issue 23, section 6) -------------


@pytest.mark.parametrize(
    "argv, words",
    [
        (["tournament", "--bogus"], "No such option '--bogus'"),
        (["deal", "--seed", "abc"], "'--seed'"),
        (["nosuch"], "No such command 'nosuch'"),
        (["sprt", "--bot", "A"], "Missing option '--elo0'"),
        (["deal", "extra"], "unexpected extra argument"),
        (["--bogus"], "No such option"),
    ],
)
def test_usage_errors_are_one_line_pointing_at_help(argv, words):
    result = run(*argv)
    one_line_error(result, "Error:", words, "--help'")
    assert result.exit_code == 2 and "Usage:" not in result.output


def test_bare_command_still_shows_help():
    assert "Commands:" in run().output


LONG = "n" * 300


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "-b", "RANDOM,GREEDY", "-n", 1, "--out", LONG],
        ["tournament", "-b", "RANDOM,GREEDY", "-n", 1, "--out", f"{LONG}/run"],
        ["bidding", "--bot", "GREEDY", "-n", 1, "--out", LONG],
        ["calibrate", "--bots", "KADO", "--pairs", 2, "--out", f"{LONG}.md"],
        ["sprt", "--bot", "GREEDY", "--bot", "KADO", "--elo0", 0, "--elo1", 10, "--out", LONG],
    ],
)
def test_names_too_long_for_the_filesystem_are_one_line(tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    one_line_error(run(*argv), "too long for the filesystem")
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    directory = tmp_path_factory.mktemp("run") / "r"
    result = run("tournament", "-b", "RANDOM,GREEDY", "-n", 3, "-w", 1, "-q", "--out", directory)
    assert result.exit_code == 0, result.output
    return directory


def test_report_and_export_outputs_are_checked_before_anything_is_printed(tmp_path, small_run):
    (tmp_path / "file").write_text("")
    under = tmp_path / "file" / "x"
    one_line_error(run("report", small_run, "--plots", under), "--plots", "is a file")
    one_line_error(run("report", small_run, "--plots", tmp_path / LONG), "too long")
    one_line_error(run("export", small_run, "--csv", f"{under}.csv"), "--csv", "is a file")
    one_line_error(run("export", small_run, "--csv", tmp_path / f"{LONG}.csv"), "too long")
    one_line_error(run("export", small_run, "--out", f"{under}.jsonl"), "--out", "is a file")
    one_line_error(run("report", small_run, "--seed", -5), "'--seed'")


@pytest.mark.parametrize("name", ["run.sqlite", "config.json", ".lock", "recs.jsonl"])
def test_export_never_writes_over_the_run_itself(tmp_path, small_run, name):
    before = {p.name: p.read_bytes() for p in small_run.iterdir() if p.is_file()}
    result = run("export", small_run, "--out", small_run / name)
    if name == "recs.jsonl":  # a new file beside the run is fine
        assert result.exit_code == 0, result.output
        (small_run / name).unlink()
    else:
        one_line_error(result, "--out")
    one_line_error(run("export", small_run, "--csv", small_run / name), "--csv")
    assert {p.name: p.read_bytes() for p in small_run.iterdir() if p.is_file() and p.name in before} == before
    assert run("report", small_run, "--json", "--bootstrap", 0).exit_code == 0


def test_export_formats_and_one_file_for_two_outputs(tmp_path, small_run):
    one_line_error(run("export", small_run, "--csv", tmp_path / "x.xlsx"), "FILE.csv or FILE.parquet")
    one_line_error(run("export", small_run, "--out", tmp_path / "x.csv"), "FILE.jsonl")
    one_line_error(run("export", small_run, "--out", tmp_path / "f.jsonl", "--csv", tmp_path / "f.jsonl"), "FILE.csv")
    (tmp_path / "t.csv").write_text("")
    link = tmp_path / "same.csv"
    link.symlink_to(tmp_path / "t.csv")
    assert run("export", small_run, "--csv", link).exit_code == 0  # through the link, which stays
    assert link.is_symlink() and len((tmp_path / "t.csv").read_text().splitlines()) > 1
    assert not list(tmp_path.glob("*.jsonl"))
    nested = tmp_path / "new" / "dir" / "rows.csv"  # --csv into a directory not made yet
    assert run("export", small_run, "--csv", nested).exit_code == 0 and len(nested.read_text().splitlines()) > 1


def test_whole_files_are_written_into_new_directories(tmp_path):
    # calibrate --out, levels --out, blunders --doc and export --csv write through these
    from tekkasim.files import part_path, write_whole

    target = tmp_path / "a" / "b" / "table.md"
    write_whole(target, "one\n")
    write_whole(target, "two\n")
    assert target.read_text() == "two\n" and sorted(p.name for p in target.parent.iterdir()) == ["table.md"]
    assert part_path(tmp_path / "c" / "x.csv") == tmp_path / "c" / ".x.csv.part" and (tmp_path / "c").is_dir()


def test_impossible_sizes_are_refused_up_front(tmp_path):
    one_line_error(run("tournament", "-b", "RANDOM,GREEDY", "-n", 10**18, "--out", tmp_path / "t"), "a run may hold")
    one_line_error(run("calibrate", "--pairs", 10**20), "--pairs", "boards each pairing has")
    one_line_error(run("bidding", "--bot", "GREEDY", "-n", 10**12), "a run may hold")
    one_line_error(run("tune", "--bot", "KADO", "--param", "mistake_rate", "--target-elo", 0, "--against", "RANDOM",
                       "--pairs", 10**12), "a run may hold")  # fmt: skip
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "-b", "RANDOM,GREEDY", "-n", 10],
        ["bidding", "--bot", "GREEDY", "-n", 10],
        ["tune", "--bot", "KADO", "--param", "mistake_rate", "--target-elo", 0, "--against", "RANDOM"],
        ["calibrate", "--bots", "KADO"],
        ["sprt", "--bot", "GREEDY", "--bot", "KADO", "--elo0", 0, "--elo1", 10],
    ],
)
def test_seeds_near_the_top_are_refused_before_playing(tmp_path, argv):
    one_line_error(run(*argv, "--seed", 2**63 - 3), "2**63-1")


@pytest.mark.parametrize(
    "line, words",
    [
        ("bots = 5", "'bots'"),
        ("bots = [5, 6]", "'bots'"),
        ('block = "x"', "'block'"),
        ('timeout = "x"', "'timeout'"),
        ("timeout = true", "'timeout'"),
        ("out = 5", "'out'"),
        ("anchor = 5", "'anchor'"),
        ('quiet = "no"', "'quiet' in"),
        ('boards = "4"', "'boards'"),
        ("seed = 1.5", "'seed'"),
        ('workers = "2"', "'workers'"),
        ("ruleset = 3", "'ruleset'"),
        ("unit = 1", "'unit'"),
        ("schedule = []", "'schedule'"),
        ("backend = 2", "'backend'"),
        ("scheduler = 1", "'scheduler'"),
        ("options = 1", "'options'"),
        ("timeout = -1", "--timeout must be a positive"),
        ("block = -5", "--block must be a positive"),
        ('anchor = "FOO"', "--anchor 'FOO' is not one of the bots"),
    ],
)
def test_config_file_types_are_checked_when_read(tmp_path, line, words):
    conf = tmp_path / "t.toml"
    lines = ['bots = ["RANDOM", "GREEDY"]', "boards = 2"]
    conf.write_text("\n".join([*(x for x in lines if x.split()[0] != line.split()[0]), line]) + "\n")
    one_line_error(run("tournament", "--config", conf, "--out", tmp_path / "r"), words)
    assert not (tmp_path / "r").exists()  # refused before anything ran


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--timeout", -1], "--timeout must be a positive"),
        (["--timeout", 0], "--timeout must be a positive"),
        (["--timeout", "nan"], "--timeout must be a positive"),
        (["--block", -5], "--block must be a positive"),
        (["--scheduler", "tcp://127.0.0.1:9"], "give --backend dask"),
        (["--anchor", "FOO"], "--anchor 'FOO' is not one of the bots"),
        (["-b", "tests.test_cli_inputs:Broken"], "bot tests.test_cli_inputs:Broken cannot be made: RuntimeError: no"),
        (["-w", -1], "--workers must be 0"),
    ],
)
def test_weak_tournament_inputs_are_refused_before_the_run(tmp_path, monkeypatch, argv, words):
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)  # where `tests.` imports from
    result = run("tournament", "-b", "RANDOM,GREEDY", "-n", 2, "--out", tmp_path / "r", *argv)
    one_line_error(result, words)
    assert not (tmp_path / "r").exists()


def test_workers_are_capped_at_the_cores_with_a_note(tmp_path):
    from tekkasim.tournament.backends import default_workers

    result = run("tournament", "-b", "RANDOM,GREEDY", "-n", 2, "-w", 1000, "-q", "--out", tmp_path / "r")
    assert result.exit_code == 0, result.output
    note = [line for line in result.output.splitlines() if line.startswith("note:")]
    assert note == [f"note: --workers 1000 capped at {default_workers()}, the cores this machine gives the run"]
    assert f"on {default_workers()} worker(s)" in result.output


class Broken(Bot):
    name = "BROKEN"

    def __init__(self, **params):
        raise RuntimeError("no")


class BareA(Bot):
    """No ``name`` of its own."""

    def act(self, view, rng):
        return None if view.optional else min(view.legal)


class BareB(BareA):
    pass


def test_bot_classes_without_a_name_are_two_bots():
    cfg = Config.build(bots=[BareA, BareB], boards=2)
    assert [t.name for t in cfg.teams] == ["BareA", "BareB"]
    cfg = Config.build(bots=["tests.test_cli_inputs:BareA", "tests.test_cli_inputs:BareB"], boards=2)
    assert [t.name for t in cfg.teams] == ["tests.test_cli_inputs:BareA", "tests.test_cli_inputs:BareB"]
    with pytest.raises(TournamentError, match="listed twice"):
        Config.build(bots=[BareA, BareA], boards=2)


def test_teams_that_cannot_be_separated_get_a_warning(tmp_path):
    cfg = Config.build(bots=["RANDOM+GREEDY", "KADO+SADA"], boards=2)
    assert inseparable_bots(cfg, "RANDOM") == ["GREEDY", "KADO", "SADA"]
    assert inseparable_bots(Config.build(bots=["RANDOM", "GREEDY+KADO", "KADO", "GREEDY"], boards=2), "RANDOM") == []
    assert inseparable_bots(Config.build(bots=["RANDOM+GREEDY", "GREEDY"], boards=2), "RANDOM") == []
    result = run("tournament", "-b", "RANDOM,GREEDY+KADO", "-n", 1, "-w", 1, "-q", "--out", tmp_path / "r")
    assert result.exit_code == 0, result.output
    assert [line for line in result.output.splitlines() if line.startswith("warning:")] == [
        "warning: these pairings measure only team means, not the ratings of GREEDY, KADO "
        "(pair each bot with itself, or against more teams, to separate them)"
    ]


def test_calibrate_checks_its_arguments_before_it_plays(tmp_path):
    one_line_error(run("calibrate", "--bots", ""), "--bots is empty")
    one_line_error(run("calibrate", "--bots", " , "), "--bots is empty")
    (tmp_path / "file").write_text("")
    one_line_error(run("calibrate", "--bots", "KADO", "--out", tmp_path / "file" / "c.md"), "--out", "is a file")


def test_calibrate_writes_through_a_symlink(tmp_path):
    link = tmp_path / "link.md"
    link.symlink_to(tmp_path / "real.md")
    result = run("calibrate", "--bots", "KADO", "--pairs", 2, "--search-pairs", 2, "--out", link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and "KADO" in (tmp_path / "real.md").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.md", "real.md"]


@pytest.mark.parametrize(
    "argv, option",
    [
        (["bench", "--deals", 10**18], "--deals"),
        (["smoke", "--deals", 10**18], "--deals"),
        (["smoke", "--records", 10**18], "--records"),
    ],
)
def test_kernel_sizes_that_would_not_fit_in_memory_are_usage_errors(argv, option):
    one_line_error(run(*argv), f"'{option}'", "--help'")
