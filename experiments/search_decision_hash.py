"""The hash over the search bots' decisions on fixed states: run before and after a change to the search
that must not change what TANOOR, TIZAB, ZELZELA and ORACLE decide.

``python -m experiments.search_decision_hash`` prints one line per ruleset and bot (decisions, hash) and a
total hash. The states: deals from seeds 9000.. played by JANGARA, every fifth decision point kept.
Worlds are reduced (``worlds`` below) so the whole run takes a minute or two; every other parameter is
the preset's.
"""

from __future__ import annotations

import hashlib
import sys

from tekkasim.bots import choose, get_bot
from tekkasim.bots.base import decide
from tekkasim.rules import get_game

RULESETS = ("feskot", "tekka", "satat", "shengji")
BOTS = (("TANOOR", {"worlds": 4}), ("TIZAB", {"worlds": 4}), ("ZELZELA", {"worlds": 8}), ("ORACLE", {}))
N_STATES = 40


def states(ruleset: str, n: int) -> list:
    game = get_game(ruleset)
    out = []
    seed = 9000
    while len(out) < n:
        state = game.new_deal(seed)
        i = 0
        while not state.is_terminal() and len(out) < n:
            if i % 5 == 2 and len(state.legal_actions()) > 1:
                out.append(state.clone())
            state.apply_action(choose("JANGARA", state, seed * 1000 + i))
            i += 1
        seed += 1
    return out


def main() -> None:
    total = hashlib.sha256()
    for ruleset in RULESETS:
        sts = states(ruleset, N_STATES)
        for name, params in BOTS:
            bot = get_bot(name, ruleset=ruleset, **params)
            h = hashlib.sha256()
            acts = []
            for i, st in enumerate(sts):
                a = decide(bot, st, st.current_player(), 77 + i)
                acts.append(repr(a))
                h.update(repr(a).encode())
            if "-v" in sys.argv:
                print(" ".join(acts))
            line = f"{ruleset:8s} {name:8s} {len(sts)} decisions {h.hexdigest()[:16]}"
            print(line, flush=True)
            total.update(line.encode())
    print("total", total.hexdigest()[:16])


if __name__ == "__main__":
    sys.exit(main())
