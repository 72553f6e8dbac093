"""The conformance check (``tekkasim.testing.check_ruleset``, ``tekkasim check-ruleset``): every built-in
ruleset passes it, and each property it claims is caught on a ruleset broken on purpose
(tests/broken_rulesets.py: Feskot with one method broken)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from broken_rulesets import BROKEN, BrokenClone, FakePimc, TrueCards
from click.testing import CliRunner

import tekkasim
import tekkasim.rulesets as rs
from tekkasim.cli import cli
from tekkasim.errors import OptionError, TekkasimError
from tekkasim.rules import get_game
from tekkasim.testing import DEFAULT_DEALS, PROPERTIES, check_ruleset

# Deals per built-in ruleset: a few seconds of CPU each once numba's cache is warm (a Shengji deal is about
# a hundred decisions, a random Tekka deal often ten).
DEALS = {"feskot": 3, "tekka": 8, "satat": 4, "shengji": 2}


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("name", rs.ruleset_names(plugins=False))
def test_every_builtin_ruleset_passes(name):
    result = check_ruleset(name, deals=DEALS.get(name, 2), seed=11)
    assert result == [], "\n".join(result)
    n = DEALS.get(name, 2)
    assert result.ok and result.deals == n + len(result.bots) * max(1, n // 5) and result.decisions > 0
    assert result.bots == ["PIMC:worlds=2", "ISMCTS:iterations=16"]  # the generic search bots play too
    for prop in ("current-player", "legal-actions", "illegal-action", "clone", "information-key", "resample"):
        assert result.checked[prop] >= result.decisions, prop
    for prop in ("observation", "record", "verify", "same-seed", "returns", "action-text"):
        assert result.checked[prop] > 0, prop
    assert any("tensors not checked" in note for note in result.notes)


@pytest.mark.parametrize(
    ("name", "options"), [("tekka", {"raises": True}), ("feskot", {"deal": "cut", "play_out": True})]
)
def test_builtin_rulesets_pass_with_options(name, options):
    """Options that add decisions (Tekka's raises) or carry a deck from deal to deal (Feskot's cut)."""
    result = check_ruleset(name, deals=3, seed=5, options=options)
    assert result == [], "\n".join(result)
    same = check_ruleset(get_game(name, **options), deals=1, seed=5)  # the Game object itself
    assert same == [] and same.ruleset == name


@pytest.mark.parametrize(("cls", "prop"), BROKEN, ids=[cls.name for cls, _ in BROKEN])
def test_each_broken_ruleset_is_caught_by_its_property(cls, prop):
    """Each violation is one line naming the property, the seed and the decision that reproduce it; the
    check survives whatever the ruleset raises; a Game object not registered is registered for the check's
    time only."""
    result = check_ruleset(cls(), deals=2, seed=1)
    assert prop in result.properties, "\n".join(result)
    assert not result.ok and result
    lines = [line for line in result if line.startswith(prop + ":")]
    assert lines
    for line in result:
        assert "\n" not in line and len(line) < 600
        assert line.split(":", 1)[0] in PROPERTIES
        assert "seed " in line and "of the run from seed 1" in line
    assert "decision " in lines[0]
    assert cls.name not in rs.ruleset_names()  # unregistered again


def test_the_violation_reproduces_from_its_seed():
    """The line's seed and decision are where the same check, run again from that deal, finds it again."""
    first = check_ruleset(TrueCards(), deals=1, seed=40)
    again = check_ruleset(TrueCards(), deals=1, seed=40)
    assert first == again and first[0].startswith("resample: seed 40 (deal 0 of the run from seed 40), decision 0")


def test_a_registered_plugin_is_checked_by_name():
    rs.register(TrueCards)
    try:
        result = check_ruleset("true-cards", deals=1, seed=3)
    finally:
        rs.unregister("true-cards")
    assert "resample" in result.properties
    assert all("verify" not in note for note in result.notes)  # verify found it by name


def test_search_bots_play_when_the_bots_know_them(monkeypatch):
    """With a generic search bot known to ``tekkasim.bots`` (here a stand-in PIMC), a fifth as many deals
    again are played with it at one seat, on a tiny budget."""
    import tekkasim.bots as bots

    monkeypatch.setitem(bots._GENERIC, "PIMC", "broken_rulesets:FakePimc")
    monkeypatch.delitem(bots._GENERIC, "ISMCTS")
    result = check_ruleset("feskot", deals=5, seed=2)
    assert result == [], "\n".join(result)
    assert result.bots == ["PIMC:worlds=2"] and result.deals == 6
    assert result.checked["bot"] > 0
    assert any("ISMCTS" in note for note in result.notes)
    assert FakePimc.name == "PIMC"


def test_bad_input_is_one_line():
    with pytest.raises(TekkasimError, match="unknown ruleset 'bridge'"):
        check_ruleset("bridge")
    with pytest.raises(OptionError, match="unknown option"):
        check_ruleset("feskot", options={"nonsense": 1})
    for bad in ({"deals": -1}, {"deals": "x"}, {"seed": -1}, {"worlds": True}):
        with pytest.raises(OptionError):
            check_ruleset("feskot", **bad)


# --- the command ---------------------------------------------------------------------------------------


def test_cli_passes_a_builtin_ruleset():
    result = run("check-ruleset", "tekka", "--deals", 3, "--seed", 4)
    assert result.exit_code == 0, result.output
    assert "tekka: 5 deals (random, PIMC:worlds=2, ISMCTS:iterations=16)" in result.output
    assert "no violation" in result.output


def test_cli_unknown_ruleset_and_bad_option_exit_2():
    for args in (("bridge",), ("feskot", "-o", "nonsense=1"), ("feskot", "-o", "novalue")):
        result = run("check-ruleset", *args)
        assert result.exit_code == 2, result.output
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert len(lines) == 1 and "Traceback" not in result.output


def test_cli_fails_on_a_broken_plugin(monkeypatch):
    """A plug-in found through its entry point (faked, as in test_contract), broken: one line per violation,
    the summary, exit status 1."""
    eps = [EntryPoint("broken-clone", "broken_rulesets:BrokenClone", rs.ENTRY_POINT_GROUP)]
    monkeypatch.setattr(rs, "_entry_points", lambda: eps)
    monkeypatch.setattr(rs, "_PLUGINS", None)
    result = run("check-ruleset", "broken-clone", "--deals", 2)
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert any(line.startswith("clone: seed 1 (deal 0 of the run from seed 1), decision 0") for line in lines)
    assert any(line.startswith("broken-clone: 4 deals") and "violations (" in line for line in lines)
    assert "Traceback" not in result.output
    assert BrokenClone.name == "broken-clone"


def test_cli_default_deals_are_the_librarys():
    from tekkasim.cli import check

    assert check.DEFAULT_DEALS == DEFAULT_DEALS


def test_the_generic_layer_names_no_ruleset():
    """tekkasim/testing.py and the command know no ruleset by name: no string (docstrings aside) holds a
    built-in ruleset's name as a word, and no ruleset module is imported."""
    root = Path(tekkasim.__file__).parent
    for path in (root / "testing.py", root / "cli" / "check.py"):
        tree = ast.parse(path.read_text())
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                assert not any(re.search(rf"\b{name}\b", node.value.lower()) for name in rs.BUILTIN), node.value
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [getattr(node, "module", None) or ""] + [a.name for a in node.names]
                assert not any(part in rs.BUILTIN for m in names for part in m.split(".")), (path.name, names)


def test_check_ruleset_help_loads_no_ruleset_numpy_or_numba():
    code = (
        "import sys; from tekkasim.cli import cli\n"
        "try:\n    cli.main(['check-ruleset', '--help'], prog_name='tekkasim')\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    loaded = set(proc.stderr.split())
    assert "tekkasim.cli.check" in loaded and "Usage: tekkasim check-ruleset" in proc.stdout
    assert not {m for m in loaded if m.split(".")[0] in ("numba", "numpy")}
    # the registry (tekkasim.rulesets: names only) but no ruleset's package
    assert not {m for m in loaded if m.startswith("tekkasim.rulesets.") or m == "tekkasim.testing"}
