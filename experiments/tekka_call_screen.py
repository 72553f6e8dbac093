"""A cheap screen of Tekka call variants of a search bot against an opponent, on duplicate pairs.

A variant that changes only the calls (``call_z``, ``call_fit``, ``call_stand``) plays every later
decision exactly as the baseline does (the decision seeds are the play loop's, so the worlds are the
same) wherever its auction and Prime come out the same. So each board's auctions are played first (the
variant's team at seats 0 and 2 at table 0, 1 and 3 at table 1, the one play loop and its seeds), and
only the boards where a variant's auction (calls, contract or Prime) differs from the baseline's at
either table are played out, for the baseline and for that variant; elsewhere the two margins are equal.
One JSON line a board: the auctions and, where any differed, each pair margin (the X team's returns at
both tables less Y's). The first X is the baseline. Tuning seeds only (2,000,000..2,999,999).

    python experiments/tekka_call_screen.py 2600000 60 TIZAB ZELZELA ZELZELA:call_stand=true ZELZELA:call_z=0
"""

from __future__ import annotations

import json
import sys

from tekkasim.bots import get_bot
from tekkasim.bots.loop import play_deal
from tekkasim.rules import get_game
from tekkasim.rulesets.trick52 import _kernels as k


class _AuctionOver(Exception):
    pass


def main(argv: list[str]) -> int:
    if len(argv) < 4:
        print("usage: tekka_call_screen.py FIRST_BOARD BOARDS Y X_BASELINE [X_VARIANT ...]")
        return 2
    start, n, yname, xnames = int(argv[0]), int(argv[1]), argv[2], argv[3:]
    game = get_game("tekka")
    y = get_bot(yname, ruleset="tekka")
    xs = {name: get_bot(name, ruleset="tekka") for name in xnames}

    def seats(x, table: int) -> list:
        return [x, y, x, y] if table == 0 else [y, x, y, x]

    def auction(x, seed: int, table: int) -> list:
        out: list = []

        def before(state, _k):
            if state.phase() == "play":
                out.append([state.calls(), str(state.contract()), int(state.arrays.info[k.I_PRIME])])
                raise _AuctionOver

        try:
            play_deal(game.new_deal(seed), seats(x, table), seed, table, before)
        except _AuctionOver:
            pass
        return out[0]

    def margin(x, seed: int) -> float:
        total = 0.0
        for table in (0, 1):
            r = play_deal(game.new_deal(seed), seats(x, table), seed, table).returns()
            total += (r[0] - r[1]) if table == 0 else (r[1] - r[0])
        return total

    base = xnames[0]
    for seed in range(start, start + n):
        auctions = {name: [auction(xs[name], seed, t) for t in (0, 1)] for name in xnames}
        differ = [name for name in xnames[1:] if auctions[name] != auctions[base]]
        margins = {name: margin(xs[name], seed) for name in ([base, *differ] if differ else [])}
        print(json.dumps({"seed": seed, "auctions": auctions, "margins": margins}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
