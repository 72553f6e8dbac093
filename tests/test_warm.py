"""bots.warm: the pieces it splits the compile work into, and its command line."""

import subprocess
import sys

from tekkasim.bots.warm import _tasks


def test_pieces_cover_every_ruleset_once_with_the_solver_first():
    tasks = _tasks(["feskot", "tekka", "satat", "shengji"], search=True)
    assert tasks[0] == ("feskot", "oracle")  # the costliest piece starts first
    assert {r for r, _ in tasks} == {"feskot", "tekka", "satat", "shengji"}
    assert [t for t in tasks if t[0] == "feskot"] == [("feskot", "oracle"), ("feskot", "loops"), ("feskot", "seats")]
    assert _tasks(["tekka"], search=False) == [("tekka", "all")]  # a loop no other ruleset asked shares
    assert _tasks(["satat"], search=False) == [("satat", "all")]


def test_an_unknown_ruleset_is_one_line_and_exit_2():
    done = subprocess.run(
        [sys.executable, "-m", "tekkasim.bots.warm", "bridge"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert (
        done.stderr.strip().splitlines()[-1].endswith("unknown ruleset 'bridge' (one of feskot, tekka, satat, shengji)")
    )
