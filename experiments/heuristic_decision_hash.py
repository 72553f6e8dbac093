"""The hash over the heuristic bots' decisions without mistakes: run before and after a change that must
not change what KADO .. JANGARA play at ``mistake_rate=0`` (issue 25: the pricing of mistakes may change,
the bots' own decisions may not).

``python -m experiments.heuristic_decision_hash [DEALS]`` prints one line per ruleset and bot (decisions,
hash) and a total hash. The decisions: every decision of deals from seeds 9000.. (DEALS per bot, 30 by
default) played by the bot itself at ``mistake_rate=0`` in all four seats, each with the seed
``mix_seed(seed, 0, decision number)``; Satat rounds at the match score 0-0 and 2-2 (the match pressure of
the Hard bots reads the score; it changes nothing at these scores).
"""

from __future__ import annotations

import hashlib
import sys

from tekkasim.bots import get_bot, mix_seed
from tekkasim.bots.base import decide
from tekkasim.rules import get_game

RULESETS = ("feskot", "tekka", "satat")
BOTS = ("KADO", "POCHAQ", "PUCHOQ", "SADA", "TANA", "JANGARA")


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    total = hashlib.sha256()
    for ruleset in RULESETS:
        game = get_game(ruleset)
        for name in BOTS:
            bot = get_bot(name, ruleset=ruleset, mistake_rate=0.0)
            h = hashlib.sha256()
            n = 0
            for seed in range(9000, 9000 + deals):
                kw = {"score": {"A": 2, "B": 2} if seed % 2 else {"A": 0, "B": 0}} if ruleset == "satat" else {}
                state = game.new_deal(seed, **kw)
                k = 0
                while not state.is_terminal():
                    a = decide(bot, state, state.current_player(), mix_seed(seed, 0, k))
                    h.update(repr(a).encode())
                    state.apply_action(a)
                    k += 1
                n += k
            line = f"{ruleset:8s} {name:8s} {n} decisions {h.hexdigest()[:16]}"
            print(line, flush=True)
            total.update(line.encode())
    print("total", total.hexdigest()[:16])


if __name__ == "__main__":
    sys.exit(main())
