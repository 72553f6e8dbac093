"""experiments/search_strength.py: ``--update`` rewrites the rows of the rulesets it measures and keeps the
others' rows, each under the command that wrote them (the figures here are made up; no deal is played)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

_PATH = Path(__file__).resolve().parents[1] / "experiments" / "search_strength.py"
_SPEC = importlib.util.spec_from_file_location("search_strength_script", _PATH)
ss = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(ss)

OLD = "python experiments/search_strength.py --ruleset feskot --ruleset tekka --pairs 300 --seed 3000000"
NEW = "python experiments/search_strength.py --ruleset tekka --pairs 200 --seed 3200000 --contract-seed 3230000"


def _steps(ruleset: str, start: int, shift: float) -> list[dict]:
    rng = np.random.default_rng(start)
    return [
        ss.step_row(ruleset, x, y, start + 5000 * j, rng.normal(shift, 3.0, 40)) for j, (x, y) in enumerate(ss.STEPS)
    ]


def _contracts(first: int, made: bool) -> dict:
    rows = [{"target": 8, "makeable": 9, "made": made, "score": 8.0 if made else -16.0}] * 4
    table = [ss.contract_row("ZELZELA", rows), ss.contract_row("ORACLE", rows)]
    return {"deals": f"{first}..{first + 3}", "rows": table, "ratio": 1.0, "ratio_lo": 0.5, "ratio_hi": 1.5}


def test_update_keeps_the_other_rulesets_rows_under_their_command():
    oracle = {"boards": "3060000..3060099", "pairs": 100, "zelzela": -1.28, "zelzela_half": 0.3, "greedy": -2.41,
              "greedy_half": 0.3, "closed": 0.467, "closed_lo": 0.345, "closed_hi": 0.587}  # fmt: skip
    old_fig = {
        "rulesets": ["feskot", "tekka"],
        "steps": _steps("feskot", 3000000, 1.0) + _steps("tekka", 3015000, 0.5),
        "oracle": oracle,
        "contracts": _contracts(3065000, False),
    }
    old = ss.markdown(old_fig, OLD)
    new_fig = {"rulesets": ["tekka"], "steps": _steps("tekka", 3215000, 2.0), "oracle": None}
    new_fig["contracts"] = _contracts(3230000, True)
    text = ss.markdown(new_fig, NEW, ss.kept_parts(old, ("tekka",)))
    lines = text.splitlines()

    def rows(ruleset: str, doc: list[str]) -> list[str]:
        return [ln for ln in doc if ln.startswith(f"| {ruleset} | ")]

    old_lines = old.splitlines()
    assert rows("feskot", lines) == rows("feskot", old_lines)  # kept verbatim, in their place
    assert len(rows("tekka", lines)) == 3 and all("3215000" in r or "3220000" in r or "3225000" in r
                                                   for r in rows("tekka", lines))  # fmt: skip
    assert lines.index(rows("feskot", lines)[-1]) < lines.index(rows("tekka", lines)[0])
    i = lines.index(ss.ORACLE_HEAD)
    assert lines[i : i + 12] == old_lines[old_lines.index(ss.ORACLE_HEAD) :][:12]  # the Feskot section stays
    assert "3230000..3230003" in text and "3065000" not in text  # the Tekka contracts are the new ones
    assert f"    {OLD}  # rows: feskot" in lines and f"    {NEW}  # rows: tekka" in lines
    # updating again with the same run gives the same file: the new command now names its own rows
    again = ss.markdown(new_fig, NEW, ss.kept_parts(text, ("tekka",)))
    assert again == text


def test_update_of_a_third_ruleset_keeps_what_each_command_still_gives():
    """A command whose rows were partly taken over by a later command keeps naming only the rows it still
    gives when yet another ruleset is updated."""
    old_fig = {"rulesets": ["feskot", "tekka"], "steps": _steps("feskot", 3000000, 1.0) + _steps("tekka", 3015000, 0.5),
               "oracle": None, "contracts": None}  # fmt: skip
    text = ss.markdown(old_fig, OLD)
    tekka = {"rulesets": ["tekka"], "steps": _steps("tekka", 3215000, 2.0), "oracle": None, "contracts": None}
    text = ss.markdown(tekka, NEW, ss.kept_parts(text, ("tekka",)))
    satat_cmd = "python experiments/search_strength.py --ruleset satat --pairs 300 --seed 3600000"
    satat = {"rulesets": ["satat"], "steps": _steps("satat", 3630000, 1.0), "oracle": None, "contracts": None}
    lines = ss.markdown(satat, satat_cmd, ss.kept_parts(text, ("satat",))).splitlines()
    assert f"    {OLD}  # rows: feskot" in lines and f"    {NEW}  # rows: tekka" in lines
    assert f"    {satat_cmd}  # rows: satat" in lines


def test_a_run_of_every_ruleset_it_names_needs_no_kept_rows():
    fig = {"rulesets": ["tekka"], "steps": _steps("tekka", 3215000, 2.0), "oracle": None, "contracts": None}
    text = ss.markdown(fig, NEW)
    assert f"    {NEW}" in text.splitlines() and "# rows" not in text
    assert ss.kept_parts(text, ("tekka",)) == {"commands": [], "steps": [], "oracle": [], "contracts": []}


def test_contract_row_sets_the_mandatory_eights_apart():
    rows = [
        {"target": 8, "makeable": 6, "made": False, "mandatory": True, "score": -8.0},
        {"target": 8, "makeable": 10, "made": True, "mandatory": False, "score": 8.0},
        {"target": 9, "makeable": 9, "made": False, "mandatory": False, "score": -18.0},
        {"target": 10, "makeable": 10, "made": True, "mandatory": False, "score": 10.0},
    ]
    r = ss.contract_row("ZELZELA", rows)
    assert (r["made"], r["underbid"], r["mandatory"]) == (0.5, 0.25, 0.25)
    assert (r["called_made"], r["called_under"]) == (2 / 3, 1 / 3)
