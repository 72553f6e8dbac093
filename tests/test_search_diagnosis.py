"""experiments/search_diagnosis.py: a probe that cheats nowhere decides as ZELZELA; where it cheats it takes
ORACLE's decision; recording losses changes no decision; bad input is one line and exit 2."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tekkasim.bots import choose, get_bot
from tekkasim.bots.base import decide
from tekkasim.rules import get_game
from tekkasim.rulesets.trick52 import _kernels as k

_PATH = Path(__file__).resolve().parents[1] / "experiments" / "search_diagnosis.py"
_SPEC = importlib.util.spec_from_file_location("search_diagnosis_script", _PATH)
sd = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(sd)


def _states(phase: int, n: int) -> list:
    """Feskot states of JANGARA self-play in ``phase`` with more than one legal action."""
    game = get_game("feskot")
    out, seed = [], 41
    while len(out) < n:
        state = game.new_deal(seed)
        i = 0
        while not state.is_terminal() and len(out) < n:
            here = int(state.arrays.info[k.I_PHASE]) == phase and len(state.legal_actions()) > 1
            if here and (phase == k.PH_PRIME or i % 3 == 1):  # the Prime: once a deal, at its first decision
                out.append(state.clone())
            state.apply_action(choose("JANGARA", state, seed * 100 + i))
            i += 1
        seed += 1
    return out


def _decisions(bot, states: list) -> list:
    return [decide(bot, st, st.current_player(), 5 + i) for i, st in enumerate(states)]


def test_probe_without_cheating_is_zelzela_and_recording_changes_nothing():
    states = _states(k.PH_PLAY, 6) + _states(k.PH_PRIME, 2)
    zelzela = _decisions(get_bot("ZELZELA", ruleset="feskot", worlds=8), states)
    assert _decisions(sd.probe_bot("worlds=8", False), states) == zelzela
    sd.LOG.clear()
    assert _decisions(sd.probe_bot("worlds=8", True), states) == zelzela
    assert sd.LOG and all(loss >= 0 and lost in (0, 1) for _t, _team, loss, lost in sd.LOG)


def test_probe_cheats_where_told_with_oracles_decision():
    plays, primes = _states(k.PH_PLAY, 5), _states(k.PH_PRIME, 3)
    oracle = get_bot("ORACLE", ruleset="feskot")
    assert _decisions(sd.probe_bot("cards=oracle,worlds=8", False), plays) == _decisions(oracle, plays)
    assert _decisions(sd.probe_bot("prime=oracle,worlds=8", False), primes) == _decisions(oracle, primes)
    # own13 and dd choose a suit; a prime probe leaves the card play to the search
    for spec in ("prime=own13,prime_worlds=4,worlds=8", "prime=dd,prime_worlds=4,worlds=8"):
        assert all(k.PRIME_BASE <= a < k.PRIME_BASE + 4 for a in _decisions(sd.probe_bot(spec, False), primes))
    zelzela = _decisions(get_bot("ZELZELA", ruleset="feskot", worlds=8), plays)
    assert _decisions(sd.probe_bot("prime=oracle,worlds=8", False), plays) == zelzela


@pytest.mark.parametrize(
    "argv",
    [["--probe", "cards=xyz"], ["--probe", "nonsense=1"], ["--seed", "3000000"], ["--pairs", "1"]],
)
def test_bad_input_is_one_line_and_exit_2(argv, capsys):
    assert sd.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("search_diagnosis:") and "\n" not in err
