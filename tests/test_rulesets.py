"""The Ruleset registry (tekkasim.rulesets): every built-in found by name, plug-ins through the entry point
or ``register``, a missing feature refused in one line naming the ruleset, and the layering rule that no
module outside ``tekkasim/rulesets/`` names a ruleset in code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import tekkasim
from tekkasim.bots import bot_names, get_bot
from tekkasim.errors import BotError, TekkasimError
from tekkasim.rules import get_game
from tekkasim.rulesets import BUILTIN, Ruleset, RulesetError, get_ruleset, register, ruleset_names, unregister
from tekkasim.rulesets.feskot.game import Feskot

PACKAGE = Path(tekkasim.__file__).parent


def test_every_builtin_is_a_ruleset_of_its_own_package():
    for name in BUILTIN:
        rs = get_ruleset(name)
        assert rs.name == name and rs.source == "built-in"
        assert rs.game_class().__module__.startswith(f"tekkasim.rulesets.{name}.")
        assert get_game(name).name == name
    with pytest.raises(RulesetError, match=r"^unknown ruleset 'hearts' \(expected one of feskot, tekka"):
        get_ruleset("hearts")


class Practice(Feskot):
    """Feskot's rules under another name: a ruleset that adds nothing but its Game."""

    name = "practice"


@pytest.fixture
def practice():
    rs = register(Practice)
    yield rs
    unregister("practice")


def test_a_registered_game_gets_the_generic_bots_and_refuses_the_rest_in_one_line(practice):
    assert "practice" in ruleset_names()
    state = get_game("practice").new_deal(3)
    assert state.game.name == "practice"
    assert get_bot("RANDOM", ruleset="practice").supports("practice")
    for name, what in (("GREEDY", "does not play practice"), ("ORACLE", "does not play practice")):
        with pytest.raises(BotError, match=what):
            get_bot(name, ruleset="practice")
    with pytest.raises(TekkasimError, match="ruleset practice has no bidding analysis"):
        practice.analysis("bidding")
    with pytest.raises(TekkasimError, match="ruleset practice has no search adapter"):
        practice.feature("search", "search adapter")
    assert "GREEDY" in bot_names()  # the built-ins' bots are still listed


def test_register_refuses_what_is_not_a_ruleset_and_a_builtin_name():
    with pytest.raises(RulesetError, match="not a tekkasim Game subclass or Ruleset"):
        register(type("NotAGame", (), {"name": "nope"}))
    with pytest.raises(RulesetError, match="is a built-in ruleset"):
        register(Ruleset(name="feskot", game=Feskot))


# The generic layers name no ruleset in code (string literals and imports); docstrings may.
_NAMES = re.compile(r"(?<![a-z])(" + "|".join([*BUILTIN, "trick52"]) + r")(?![a-z])", re.IGNORECASE)


def _naming(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if _NAMES.search(node.value):
                hits.append(f"line {node.lineno}: {node.value[:50]!r}")
        elif isinstance(node, ast.ImportFrom) and node.module and _NAMES.search(node.module):
            hits.append(f"line {node.lineno}: import from {node.module}")
        elif isinstance(node, ast.Import) and any(_NAMES.search(a.name) for a in node.names):
            hits.append(f"line {node.lineno}: import")
    return hits


def test_no_module_outside_the_rulesets_names_a_ruleset():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "rulesets":
            continue
        hits = _naming(path)
        if hits:
            found[str(rel)] = hits[:3]
    assert found == {}


def test_the_layout_check_catches_a_name(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('"""Feskot is fine here."""\nfrom tekkasim.rulesets.satat import game\nX = "tekka"\n')
    assert len(_naming(bad)) == 2


def test_help_reads_no_plugin():
    """``tekkasim --help`` lists the commands without asking the entry points (so without loading or even
    finding a plug-in): here finding one would end the process."""
    import subprocess
    import sys

    code = (
        "import sys, importlib.metadata as m\n"
        "def refuse(**kw):\n    sys.exit(99)\n"
        "m.entry_points = refuse\n"
        "sys.argv = ['tekkasim', '--help']\n"
        "from tekkasim.__main__ import run\nrun()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "check-ruleset" in done.stdout and "tournament" in done.stdout
