"""Where ZELZELA's Feskot tricks go against ORACLE (issue 24, item 4): duplicate pairs of a probe against
ORACLE on tuning boards, and the double-dummy loss of each of the probe's card decisions.

A probe is ZELZELA (any parameters) that may cheat in one part of its play, so that the gap to ORACLE is
cut into parts:

* ``prime=oracle``: ORACLE chooses the Feskot Prime (it sees the eight cards not yet dealt: information
  no seat has), the probe plays the cards;
* ``prime=dd``: the probe's own Prime search (no peeking) on ``prime_worlds`` worlds scored by the
  solver on the full hands instead of rollouts;
* ``prime=own13``: the Prime by the solver over ``prime_worlds`` worlds holding the seat's true 13 cards
  (it peeks at its own eight cards not yet dealt, not at the other hands);
* ``cards=true``: the probe's own scoring (rollouts, the solver from ``dd_cards``) on the one true world
  instead of its sampled worlds: no sampling, no strategy fusion, only its evaluator's error;
* ``cards=oracle``: ORACLE plays the probe's cards (the ceiling of any card play after the probe's Prime);
* with ``--losses``: per card decision of the probe with more than one class of cards, the true world's
  double-dummy value (tricks of its team over all 13 tricks, perfect play afterwards) of the best card less
  that of the card played, by trick number and by team (the Prime chooser's or the other), and how often a
  card turned a won game (7 tricks double dummy) into a lost one. The solver is asked on the true world:
  a measurement only, it does not change the probe's decision.

A probe ``GREEDY`` is the plain GREEDY bot, the reference of the gap. Every probe plays the same boards.

    python experiments/search_diagnosis.py --pairs 100 --seed 10000000 --cache runs/diagnosis \
        --probe "" --probe "prime=oracle" --probe "cards=true" --probe GREEDY

Each line: X - ORACLE in tricks per deal with its 95% interval (normal approximation over pairs; a pair is
two deals), with ``--losses`` the loss tables; then every probe paired against the first on the same
boards, and with GREEDY among the probes the share of GREEDY's gap to ORACLE each closes (as
``search_strength.py`` computes it). ``--cache`` keeps each probe's margins (a rerun reads them; not with
``--losses``). Tuning boards only (10,000,000..): never report seeds.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from tekkasim.analysis.duplicate import pair_margins
from tekkasim.bits import below
from tekkasim.bots.base import Param, keep_prior
from tekkasim.bots.pimc import Worlds
from tekkasim.errors import TekkasimError
from tekkasim.rulesets.trick52 import _kernels as k
from tekkasim.rulesets.trick52 import search
from tekkasim.solver.dd import Position

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from experiments.search_strength import gap_closed  # noqa: E402

Z95 = 1.959963984540054
LOG: list[tuple[int, int, int, int]] = []  # (trick, prime team?, dd loss, game lost by the card?)


class Probe(search.SearchBot):
    """ZELZELA's preset (plus the parameters given), cheating where the class attributes say (diagnosis)."""

    name = "ZPROBE"
    kind = "oracle"
    cheating = True
    preset = dict(search.Zelzela.preset)
    params_spec = (
        *search.SearchBot.params_spec,
        Param(
            "prime",
            "own",
            "who chooses the Feskot Prime: the probe's search or ORACLE",
            choices=("own", "oracle", "dd", "own13"),
        ),
        Param("prime_worlds", 32, "with prime=dd or own13: the worlds of the Prime decision", 1, 4096),
        Param(
            "cards",
            "own",
            "card play: its own scoring on its sampled worlds, on the one true world, or ORACLE's",
            choices=("own", "true", "oracle"),
        ),
        Param("record", False, "record the double-dummy loss of each card decision (LOG)"),
    )

    def act(self, view, rng):
        true = view.true_state(self)
        a = true.arrays
        phase = int(a.info[k.I_PHASE])
        ad = self.adapter(self.params)
        if phase == k.PH_PRIME and self.params["prime"] == "oracle":
            return ad.oracle(view, Worlds.one(true), rng)
        if phase == k.PH_PRIME and self.params["prime"] == "dd":
            # the probe's own Prime search (no peeking) scored by the solver on full hands
            saved = self.params
            self.params = {**saved, "dd_cards": 13, "worlds": saved["prime_worlds"]}
            try:
                return super().act(view, rng)
            finally:
                self.params = saved
        if phase == k.PH_PRIME and self.params["prime"] == "own13":
            return self.own13_prime(true, view.seat, rng)
        if phase == k.PH_PLAY and self.params["cards"] == "true":
            action = ad.decide(view, Worlds.one(true), rng)
        elif phase == k.PH_PLAY and self.params["cards"] == "oracle":
            action = ad.oracle(view, Worlds.one(true), rng)
        else:
            action = super().act(view, rng)
        if self.params["record"] and phase == k.PH_PLAY:
            cards = [c for c in view.legal if c < k.PRIME_BASE]
            if len(search.card_classes(true, view.seat, cards)) > 1:
                values = search.solver().card_values(search.DoubleDummy.position(a))
                best = max(values.values())
                got = values[action % k.SIGNAL_MULT]
                first = int(a.info[k.I_FIRST])
                target = search.FESKOT_TARGET
                LOG.append(
                    (int(a.info[k.I_TRICK]), int(view.seat & 1 == first & 1), best - got, int(best >= target > got))
                )
        return action

    def own13_prime(self, true, seat: int, rng) -> int:
        """The Prime scored by the solver as the search scores it (``4 reach(7) + reach(8) + reach(6)``,
        JANGARA's Prime unless another is better by the preset's test) over ``prime_worlds`` worlds that
        hold the seat's true 13 cards and the other 39 dealt uniformly: the seat knows its own hand."""
        a = true.arrays
        own = int(a.hand[seat])
        others = np.array([c for c in range(52) if not own >> c & 1])
        gen = np.random.default_rng(int(below(rng, 1 << 30)))
        sv = search.solver()
        scores = np.zeros((self.params["prime_worlds"], 4))
        for w in range(len(scores)):
            deck = gen.permutation(others)
            hands, i = [], 0
            for s in range(4):
                if s == seat:
                    hands.append(own)
                else:
                    hands.append(sum(1 << int(c) for c in deck[i : i + 13]))
                    i += 13
            for trump in range(4):
                pos = Position(hands, trump, seat)
                r = [sv.can_reach(pos, x, side=seat & 1) for x in (7, 8, 6)]
                scores[w, trump] = 4 * r[0] + r[1] + r[2]
        prior = search.prior_action(true) - k.PRIME_BASE
        return k.PRIME_BASE + keep_prior(scores, prior, self.params["override_z"], sign=self.params["sign_test"])


def probe_bot(spec: str, record: bool):
    """``GREEDY`` (the reference of the gap), or a probe from ``key=value,...``: ``prime`` and ``cards``
    (modes above), any other key a parameter."""
    if spec.strip().upper() == "GREEDY":
        return "GREEDY"
    params = dict(item.partition("=")[::2] for item in filter(None, spec.split(",")))
    return Probe(record=record, **params)


def interval(values: np.ndarray) -> str:
    m = float(values.mean())
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(len(values))
    return f"{m:+.2f} [{m - half:+.2f}, {m + half:+.2f}]"


def name(spec: str) -> str:
    return spec or "ZELZELA"


def loss_tables(log: list) -> str:
    if not log:
        return "no card decisions recorded"
    arr = np.array(log)
    lines = [f"card decisions with a choice: {len(arr)}; dd loss per decision {arr[:, 2].mean():.3f}"]
    lines.append("trick | decisions | mean dd loss | share of all loss | games lost by the card")
    total = arr[:, 2].sum()
    for t in range(13):
        sel = arr[arr[:, 0] == t]
        if len(sel):
            share = sel[:, 2].sum() / max(total, 1)
            lines.append(
                f"{t + 1:5d} | {len(sel):9d} | {sel[:, 2].mean():12.3f} | {share:17.1%} | {int(sel[:, 3].sum())}"
            )
    by = defaultdict(list)
    for row in log:
        by[row[1]].append(row)
    for team, rows in sorted(by.items()):
        r = np.array(rows)
        lines.append(
            f"{'prime team' if team else 'other team'}: {len(r)} decisions, loss {r[:, 2].mean():.3f} a decision, "
            f"{r[:, 2].sum()} in all, {int(r[:, 3].sum())} games lost by a card"
        )
    return "\n".join(lines)


def margins_of(spec: str, args) -> np.ndarray:
    """The probe's pair margins against ORACLE (per pair, two deals), from ``--cache`` when kept there."""
    path = None
    if args.cache is not None:
        slug = (spec or "zelzela").replace("=", "-").replace(",", "_").replace("/", "_")
        path = args.cache / f"{slug}-{args.seed}-{args.pairs}.npy"
        if path.exists() and not args.losses:
            return np.load(path)
    LOG.clear()
    bot = probe_bot(spec, args.losses)
    margins = pair_margins("feskot", bot, "ORACLE", args.seed, args.pairs)
    if path is not None:
        np.save(path, margins)
    return margins


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--probe", action="append", default=None, help="probe key=value,... (repeat); '' = ZELZELA")
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=10_000_000)
    ap.add_argument("--losses", action="store_true", help="record the double-dummy loss of every card decision")
    ap.add_argument("--cache", type=Path, help="directory keeping each probe's pair margins (a rerun reads them)")
    args = ap.parse_args(argv)
    if args.seed < 10_000_000:
        print("search_diagnosis: tuning boards start at 10,000,000 (lower seeds are report boards)", file=sys.stderr)
        return 2
    if args.pairs < 2:
        print("search_diagnosis: --pairs must be at least 2", file=sys.stderr)
        return 2
    specs = args.probe or [""]
    try:
        for spec in specs:
            probe_bot(spec, False)
    except TekkasimError as e:
        print(f"search_diagnosis: {e}", file=sys.stderr)
        return 2
    if args.cache is not None:
        args.cache.mkdir(parents=True, exist_ok=True)
    runs = {}
    for spec in specs:
        t0 = time.process_time()
        runs[spec] = margins_of(spec, args) / 2  # per deal
        print(
            f"{name(spec)} - ORACLE {interval(runs[spec])} tricks/deal ({args.pairs} pairs from {args.seed}, "
            f"{time.process_time() - t0:.0f} s CPU)",
            flush=True,
        )
        if args.losses and spec.strip().upper() != "GREEDY":
            print(loss_tables(LOG), flush=True)
    first = specs[0]
    for spec in specs[1:]:
        print(f"paired: {name(spec)} - {name(first)} {interval(runs[spec] - runs[first])} tricks/deal")
    greedy = next((s for s in specs if s.strip().upper() == "GREEDY"), None)
    if greedy is not None:
        for spec in specs:
            if spec != greedy:
                point, lo, hi = gap_closed(runs[spec], runs[greedy])
                print(f"gap closed by {name(spec)}: {point:.1%} [{lo:.1%}, {hi:.1%}] of GREEDY's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
