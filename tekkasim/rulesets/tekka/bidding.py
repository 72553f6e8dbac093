"""Tekka bidding risk: how often each target is called and made, by the declarer side's hand, against
what was makeable double-dummy (issue 14, item 1; ``tekkasim bidding``).

The deals are played as a duplicate tournament run of ``bot`` against ``against`` (default GREEDY, or
JANGARA when the bot is GREEDY: the runner needs two different teams), stored in a run directory, so
``tekkasim export DIR`` gives their records. Each deal is replayed to the moment play began (Prime
chosen, no card played); there the declaring side's double-dummy value is read with the solver:
``dd_makeable`` = ``can_reach(state, target, side=declarer)`` (numbers), ``dd_tricks`` = the side's exact
tricks with the Prime the declarer chose. D13 wants the declarer to win all 13 tricks *personally*,
which the solver's team count cannot ask; where the side can take all 13 (necessary), a small exact
search (:func:`declarer_takes_all`: partner helping, opponents resisting, every trick won by the
declarer) decides it, so D13's ``dd_makeable`` is exact (``dd_d13``; ``dd_13`` keeps the side's figure).
Perfect play by all four is a yardstick, not a ceiling: real play can beat it when the defence errs.

Scores are the declaring side's points minus the opponents' in that deal (made: +target, or +26 for
D13; failed: -2 x target, -8 for a failed mandatory 8, -52 for D13), so a mean is the expected value of
the call for the side. Double-dummy EV of calling target t on a hand (``dd_ev_t``) scores t as made when
``dd_tricks >= t`` (D13: when the declarer can win all 13 personally) with the same scoring: it is what
:func:`recommended_thresholds` maximises per hand-feature bucket.

Hand features (the dealt 13-card hands, known to the declarer only for its own hand): ``hcp`` (A 4, K 3,
Q 2, J 1), ``partner_hcp``, ``side_hcp``, ``longest`` (length of the declarer's longest suit) and
``longest_honours`` (A K Q J T in it), ``voids``, ``singletons``, ``controls`` (A 2, K 1; ``side_controls``),
``partner_call`` (the partner's call in the lap: pass, 8..13, D13).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from tekkasim.analysis._records import wilson_interval
from tekkasim.analysis.duplicate import AnalysisError
from tekkasim.cards import SEATS, SUITS
from tekkasim.errors import TekkasimError

TARGETS = ("8", "9", "10", "11", "12", "13", "D13")
FEATURES = (
    "hcp",
    "partner_hcp",
    "side_hcp",
    "longest",
    "longest_honours",
    "voids",
    "singletons",
    "controls",
    "side_controls",
    "partner_call",
)
_BINS = {"hcp": 3, "partner_hcp": 3, "side_hcp": 3}  # bucket widths; other features are used as they are
_POINTS = {12: 4, 11: 3, 10: 2, 9: 1}
_CONTROLS = {12: 2, 11: 1}


def _call_text(code: int) -> str:
    return "pass" if code == 0 else "D13" if code == 14 else str(code)


def hand_features(mask: int) -> dict:
    """The features of one 13-card hand (a 52-card mask; card = suit * 13 + rank, rank 12 the Ace)."""
    cards = [c for c in range(52) if mask >> c & 1]
    lengths = [sum(1 for c in cards if c // 13 == s) for s in range(4)]
    longest_suit = max(range(4), key=lambda s: (lengths[s], sum(_POINTS.get(c % 13, 0) for c in cards if c // 13 == s)))
    return {
        "hcp": sum(_POINTS.get(c % 13, 0) for c in cards),
        "longest": lengths[longest_suit],
        "longest_honours": sum(1 for c in cards if c // 13 == longest_suit and c % 13 >= 8),
        "voids": lengths.count(0),
        "singletons": lengths.count(1),
        "controls": sum(_CONTROLS.get(c % 13, 0) for c in cards),
    }


def _score(target: str, mandatory: bool, made: bool) -> int:
    if target == "D13":
        return 26 if made else -52
    t = int(target)
    return t if made else (-8 if mandatory else -2 * t)


def declarer_takes_all(hands, prime: int, declarer: int, max_nodes: int = 200_000) -> bool | None:
    """Whether ``declarer``, on lead at a trick boundary, can win every remaining trick *personally*
    (Tekka's Double 13: a trick won by the partner is a failure) with perfect play by all four: the
    partner helps, the opponents resist. ``hands``: four 52-card masks (bottom, right, top, left), equal
    sizes; ``prime``: the Prime suit 0..3. None when the search needs more than ``max_nodes`` nodes.

    The double-dummy solver's target query counts a side's tricks, so it cannot ask this; but the
    question is small: the declarer leads every trick (it won the last one), a lead ``c`` survives only
    if no opponent can legally beat it and the partner has a card that does not, and the search is an
    AND-OR tree over the opponents' and partner's replies, with cards equivalent for the rest of the
    deal (adjacent in rank among all cards left, same hand) searched once and positions memoised. Call it
    where the side can take all the tricks (the solver's ``can_reach(.., 13)``), which it implies."""
    order = [declarer % 4, (declarer + 1) % 4, (declarer + 2) % 4, (declarer + 3) % 4]
    memo: dict[tuple[int, int, int, int], bool] = {}
    nodes = 0

    def beats(x: int, c: int) -> bool:
        return (x // 13 == prime and c // 13 != prime) or (x // 13 == c // 13 and x > c)

    def reps(h: int, allowed: int, left: int) -> list[int]:
        """The lowest card of each run of ``h & allowed`` (cards adjacent in rank among ``left``)."""
        m, out, run = h & allowed, [], False
        for c in range(52):
            if c % 13 == 0:
                run = False
            if left >> c & 1:
                mine = bool(m >> c & 1)
                if mine and not run:
                    out.append(c)
                run = mine
        return out

    def legal(h: int, suit: int) -> int:
        s = h & (0x1FFF << (13 * suit))
        return s if s else h

    def rec(h0: int, h1: int, h2: int, h3: int) -> bool:
        nonlocal nodes
        if not h0:
            return True
        key = (h0, h1, h2, h3)
        if key in memo:
            return memo[key]
        nodes += 1
        if nodes > max_nodes:
            raise _Budget
        left = h0 | h1 | h2 | h3
        result = False
        for c in reps(h0, h0, left):
            s = c // 13
            l1, l2, l3 = legal(h1, s), legal(h2, s), legal(h3, s)
            if any(beats(x, c) for x in _cards(l1 | l3)):  # an opponent can beat the lead
                continue
            ducks = [b for b in reps(h2, l2, left) if not beats(b, c)]
            if not ducks:  # the partner would have to win it
                continue
            if all(
                any(
                    all(rec(h0 & ~(1 << c), h1 & ~(1 << a), h2 & ~(1 << b), h3 & ~(1 << e)) for e in reps(h3, l3, left))
                    for b in ducks
                )
                for a in reps(h1, l1, left)
            ):
                result = True
                break
        memo[key] = result
        return result

    h = [int(hands[i]) for i in order]
    try:
        return rec(*h)
    except _Budget:
        return None


class _Budget(Exception):
    pass


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def play_bidding_run(
    bot: str,
    boards: int,
    seed: int,
    out: str | os.PathLike | None = None,
    against: str | None = None,
    options: dict | None = None,
    workers: int = 1,
    quiet: bool = True,
) -> Path:
    """Play (or resume) the run of ``bot`` against ``against`` on boards ``seed .. seed+boards-1`` of Tekka;
    returns its directory."""
    from tekkasim.bots import get_bot
    from tekkasim.tournament import Config, default_out, run_tournament

    label = get_bot(bot, ruleset="tekka").label
    if against is None:
        against = "JANGARA" if label == "GREEDY" else "GREEDY"
    cfg = Config.build(
        ruleset="tekka",
        options=options or {},
        bots=[bot, against],
        boards=boards,
        seed=seed,
        schedule="gauntlet",
        workers=workers,
    )
    directory = Path(out) if out is not None else default_out(cfg)
    run_tournament(cfg, directory, quiet=quiet)
    return directory


def bidding_deals(directory: str | os.PathLike, solver=None) -> pd.DataFrame:
    """One row per deal of a stored Tekka run: board, table, seed, declarer (seat name) and its bot,
    target, mandatory, made, score (declaring side minus opponents), the features (module docstring),
    prime, dd_tricks, dd_makeable, dd_13 (the side can take every trick), dd_d13 (the declarer can win
    every trick personally: :func:`declarer_takes_all`; ``dd_d13_exact`` False where its search ran out of
    nodes and the side's figure stands in as an upper bound) and ``dd_ev_<t>`` per target."""
    from tekkasim.rules import get_game
    from tekkasim.solver import Solver
    from tekkasim.tournament.play import unpack
    from tekkasim.tournament.results import seats
    from tekkasim.tournament.storage import Store

    sv = solver or Solver()
    rows = []
    with Store.read(directory) as store:
        identity = store.identity
        if identity["ruleset"] != "tekka":
            raise AnalysisError(f"bidding analyses Tekka runs, not {identity['ruleset']} ({directory})")
        if identity["unit"] != "deal":
            raise AnalysisError(f"bidding analyses runs of single deals (--unit deal), not {identity['unit']}")
        game = get_game("tekka", **identity["options"])
        for p, board, table, payload in store.payloads():
            players = seats(identity, p, table)
            for seed, ret_a, ret_b, actions in unpack(payload):
                rows.append(_deal_row(game, sv, seed, actions, players, board, table, ret_a, ret_b))
    frame = pd.DataFrame(rows)
    return frame.sort_values(["board", "table"], kind="stable").reset_index(drop=True) if len(frame) else frame


def _deal_row(game, sv, seed, actions, players, board, table, ret_a, ret_b) -> dict:
    state = game.new_deal(seed)
    hands = [state.hand(s) for s in range(4)]
    i = 0
    while state.phase() != "play":
        a = actions[i]
        state.apply_action(tuple(a) if isinstance(a, list) else a)
        i += 1
    c = state.contract()
    d = c["declarer"]
    target = str(c["target"])
    first = state.first
    calls = {(first + j) % 4: code for j, code in enumerate(state.calls())}
    feats = hand_features(hands[d])
    partner = hand_features(hands[(d + 2) % 4])
    dd_tricks = sv.solve(state, side=d)
    dd_13 = dd_tricks >= 13
    # D13 wants the declarer to win every trick personally: only possible where the side takes all 13
    dd_d13, exact = False, True
    if dd_13:
        if state.current_player() != d:
            raise AnalysisError(f"deal {seed}: the declarer is not on lead when play begins")
        found = declarer_takes_all([state.hand(s) for s in range(4)], state.prime, d)
        dd_d13, exact = (dd_13, False) if found is None else (found, True)
    dd_makeable = dd_d13 if target == "D13" else sv.can_reach(state, int(target), side=d)
    side_ret = (ret_a, ret_b)[d % 2] - (ret_a, ret_b)[1 - d % 2]
    row = {
        "board": board,
        "table": table,
        "seed": seed,
        "declarer": SEATS[d],
        "bot": players[SEATS[d]],
        "target": target,
        "mandatory": c["mandatory"],
        "made": side_ret > 0,
        "score": side_ret,
        **feats,
        "partner_hcp": partner["hcp"],
        "side_hcp": feats["hcp"] + partner["hcp"],
        "side_controls": feats["controls"] + partner["controls"],
        "partner_call": _call_text(calls.get((d + 2) % 4, 0)),
        "prime": SUITS[state.prime],
        "dd_tricks": dd_tricks,
        "dd_makeable": bool(dd_makeable),
        "dd_13": dd_13,
        "dd_d13": dd_d13,
        "dd_d13_exact": exact,
    }
    for tt in TARGETS:
        ok = dd_d13 if tt == "D13" else dd_tricks >= int(tt)
        row[f"dd_ev_{tt}"] = _score(tt, False, ok)
    return row


def _rate_rows(group: pd.DataFrame) -> dict:
    n = len(group)
    made = int(group["made"].sum())
    lo, hi = wilson_interval(made, n) if n else (np.nan, np.nan)
    return {
        "calls": n,
        "made": made,
        "rate": made / n if n else np.nan,
        "lo": float(lo),
        "hi": float(hi),
        "mean_score": float(group["score"].mean()) if n else np.nan,
        "dd_makeable": float(group["dd_makeable"].mean()) if n else np.nan,
        "mandatory": int(group["mandatory"].sum()),
    }


def target_table(deals: pd.DataFrame, bot: str | None = None) -> pd.DataFrame:
    """runs.md's ``targets`` rows (every target 8..13 and D13, zero calls included) for the deals whose
    declarer was ``bot`` (all deals when None): calls, made, Wilson 95% rate, mean_score, dd_makeable
    (plus the number of mandatory 8s among the 8s)."""
    d = deals if bot is None else deals[deals["bot"] == bot]
    rows = [{"target": t, **_rate_rows(d[d["target"] == t] if len(d) else d)} for t in TARGETS]
    return pd.DataFrame(rows)


def _bucket(deals: pd.DataFrame, feature: str) -> pd.Series:
    if feature not in FEATURES:
        raise AnalysisError(f"unknown hand feature {feature!r} (features: {', '.join(FEATURES)})")
    if feature in _BINS:
        w = _BINS[feature]
        lo = (deals[feature] // w) * w
        return lo.astype(int).astype(str) + "-" + (lo + w - 1).astype(int).astype(str)
    return deals[feature].astype(str)


def _order(values) -> list:
    def key(v: str):
        head = v.split("-")[0]
        return (0, int(head)) if head.isdigit() else (1, {"pass": -1, "D13": 14}.get(v, 99))

    return sorted(set(values), key=key)


def feature_table(deals: pd.DataFrame, feature: str) -> pd.DataFrame:
    """Per bucket of ``feature`` and target called: calls, made, Wilson 95% rate, mean_score, dd_makeable."""
    bucket = _bucket(deals, feature)
    rows = []
    for b in _order(bucket):
        sub = deals[bucket == b]
        for t in TARGETS:
            g = sub[sub["target"] == t]
            if len(g):
                rows.append({feature: b, "target": t, **_rate_rows(g)})
    return pd.DataFrame(rows)


def ev_table(deals: pd.DataFrame, feature: str) -> pd.DataFrame:
    """Per bucket of ``feature``: n, and for each target the double-dummy EV of calling it (mean of
    ``dd_ev_<t>``) with a 95% interval (normal approximation)."""
    bucket = _bucket(deals, feature)
    rows = []
    for b in _order(bucket):
        sub = deals[bucket == b]
        n = len(sub)
        for t in TARGETS:
            v = sub[f"dd_ev_{t}"].astype(float)
            half = 1.959963984540054 * v.std(ddof=1) / np.sqrt(n) if n > 1 else np.nan
            rows.append(
                {feature: b, "target": t, "n": n, "dd_ev": v.mean(), "lo": v.mean() - half, "hi": v.mean() + half}
            )
    return pd.DataFrame(rows)


MIN_BUCKET = 5  # deals a bucket needs before the thresholds table names a best call for it


def recommended_thresholds(deals: pd.DataFrame, feature: str = "side_hcp", min_n: int = MIN_BUCKET) -> pd.DataFrame:
    """Per bucket of ``feature`` (with ``min_n`` deals or more): the call with the best double-dummy EV,
    ``recommend`` (that call when its EV is positive, else ``pass``: passing scores 0 for the side unless
    the opponents or an all-pass mandatory 8 score instead, which this table does not model), its EV and
    interval, the runner-up, whether the best is ahead beyond the runner-up's interval, and the
    calls the bots actually made in that bucket (most common) with their mean score."""
    ev = ev_table(deals, feature)
    bucket = _bucket(deals, feature)
    rows = []
    for b, g in ev.groupby(feature, sort=False):
        if g["n"].iloc[0] < min_n:
            continue
        g = g.sort_values("dd_ev", ascending=False)
        best, second = g.iloc[0], g.iloc[1]
        actual = deals[bucket == b]
        rows.append(
            {
                feature: b,
                "n": int(best["n"]),
                "best_call": best["target"],
                "recommend": best["target"] if best["dd_ev"] > 0 else "pass",
                "dd_ev": best["dd_ev"],
                "lo": best["lo"],
                "hi": best["hi"],
                "runner_up": second["target"],
                "runner_up_ev": second["dd_ev"],
                "clear": bool(best["lo"] > second["dd_ev"]),
                "most_called": actual["target"].mode().iloc[0],
                "mean_score": actual["score"].mean(),
            }
        )
    return pd.DataFrame(rows)


def bidding_errors(deals: pd.DataFrame) -> pd.DataFrame:
    """Per declarer bot (voluntary contracts only: the all-pass mandatory 8 is nobody's call): overbids
    (the contract was not makeable double-dummy) and underbids (a number contract below the side's
    double-dummy tricks: a higher target was makeable), each with a Wilson 95% interval, and the mean of
    contract minus double-dummy tricks with a 95% interval."""
    vol = deals[~deals["mandatory"]]
    rows = []
    for bot, g in vol.groupby("bot"):
        n = len(g)
        over = int((~g["dd_makeable"]).sum())
        numbers = g[g["target"] != "D13"]
        under = int((numbers["dd_tricks"] > numbers["target"].astype(int)).sum())
        gap = numbers["target"].astype(int) - numbers["dd_tricks"]
        olo, ohi = wilson_interval(over, n)
        ulo, uhi = wilson_interval(under, n)
        half = 1.959963984540054 * gap.std(ddof=1) / np.sqrt(len(gap)) if len(gap) > 1 else np.nan
        rows.append(
            {
                "bot": bot,
                "contracts": n,
                "overbids": over,
                "over_rate": over / n,
                "over_lo": float(olo),
                "over_hi": float(ohi),
                "underbids": under,
                "under_rate": under / n,
                "under_lo": float(ulo),
                "under_hi": float(uhi),
                "mean_gap": gap.mean(),
                "gap_lo": gap.mean() - half,
                "gap_hi": gap.mean() + half,
            }
        )
    return pd.DataFrame(rows)


def bidding_plots(deals: pd.DataFrame, directory: str | os.PathLike, title: str = "") -> list[Path]:
    """``success_rate.png`` (made rate with Wilson 95% bars and the double-dummy makeable share, per
    target) and ``ev_by_hcp.png`` (double-dummy EV of each call against the side's high-card points)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    table = target_table(deals)
    table = table[table["calls"] > 0]
    x = np.arange(len(table))
    fig, ax = plt.subplots(figsize=(7, 4))
    rate = table["rate"].to_numpy()
    ax.errorbar(x, rate, yerr=[rate - table["lo"], table["hi"] - rate], fmt="o", capsize=4, label="made (95% Wilson)")
    ax.plot(x, table["dd_makeable"], "s", label="makeable double-dummy")
    ax.set_xticks(x, [f"{t}\n(n={n})" for t, n in zip(table["target"], table["calls"], strict=True)])
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("contract")
    ax.set_ylabel("share of contracts")
    ax.set_title(f"Tekka: success rate by target {title}".strip())
    ax.legend()
    ax.grid(alpha=0.3)
    paths = [_save(fig, out / "success_rate.png")]
    ev = ev_table(deals, "side_hcp")
    fig, ax = plt.subplots(figsize=(7, 4))
    for t in TARGETS:
        g = ev[(ev["target"] == t) & (ev["n"] >= 5)]
        mids = [int(b.split("-")[0]) + 1 for b in g["side_hcp"]]
        (line,) = ax.plot(mids, g["dd_ev"], marker="o", label=t)
        ax.fill_between(mids, g["lo"], g["hi"], color=line.get_color(), alpha=0.12)
    ax.axhline(0, color="k", lw=0.5)
    ax.set_xlabel("declaring side's high-card points (bucket centre; buckets with n >= 5)")
    ax.set_ylabel("double-dummy EV of the call (points)")
    ax.set_title(f"Tekka: EV of each call against hand strength {title}".strip())
    ax.legend(ncol=4, fontsize=8)
    ax.grid(alpha=0.3)
    paths.append(_save(fig, out / "ev_by_hcp.png"))
    return paths


def _save(fig, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def bidding(
    bot: str,
    boards: int,
    seed: int,
    out: str | os.PathLike | None = None,
    against: str | None = None,
    options: dict | None = None,
    workers: int = 1,
    features=("side_hcp", "hcp", "longest"),
    quiet: bool = True,
) -> dict:
    """Play the run (:func:`play_bidding_run`) and analyse it: ``{"directory", "deals", "targets" (the
    bot's), "targets_all", "by_<feature>", "thresholds_<feature>", "errors"}`` (DataFrames)."""
    if isinstance(boards, bool) or not isinstance(boards, int) or boards < 1:
        raise AnalysisError(f"boards must be a positive integer, not {boards!r}")
    for f in features:
        if f not in FEATURES:
            raise AnalysisError(f"unknown hand feature {f!r} (features: {', '.join(FEATURES)})")
    from tekkasim.bots import get_bot

    label = get_bot(bot, ruleset="tekka").label
    directory = play_bidding_run(bot, boards, seed, out, against, options, workers, quiet)
    deals = bidding_deals(directory)
    result = {
        "directory": directory,
        "bot": label,
        "deals": deals,
        "targets": target_table(deals, label),
        "targets_all": target_table(deals),
        "errors": bidding_errors(deals),
    }
    for f in features:
        result[f"by_{f}"] = feature_table(deals, f)
        result[f"thresholds_{f}"] = recommended_thresholds(deals, f)
    return result


def bidding_json(result: dict, boards: int) -> dict:
    """runs.md's JSON for ``tekkasim bidding`` (plus ``against``, ``deals``, ``errors`` and ``thresholds``)."""

    def records(frame: pd.DataFrame) -> list[dict]:
        return [{k: _plain(v) for k, v in r.items()} for r in frame.to_dict("records")]

    def targets(frame: pd.DataFrame) -> list[dict]:
        # runs.md: a target with no calls has null rates, bounds and means; the note says why
        return [{**r, "note": "no calls"} if r["calls"] == 0 else r for r in records(frame)]

    out = {
        "bot": result["bot"],
        "boards": boards,
        "targets": targets(result["targets"]),
        "deals": len(result["deals"]),
        "directory": str(result["directory"]),
        "targets_all": targets(result["targets_all"]),
        "errors": records(result["errors"]),
    }
    for k, v in result.items():
        if k.startswith("thresholds_"):
            out[k] = records(v)
    return out


def _plain(v):
    """A JSON value: numpy scalars as Python ones, NaN or an infinity (no value from the data) as None."""
    if isinstance(v, np.integer | np.bool_):
        return v.item()
    if isinstance(v, float | np.floating):
        return float(v) if np.isfinite(v) else None
    return v


__all__ = [
    "FEATURES",
    "TARGETS",
    "TekkasimError",
    "bidding",
    "bidding_deals",
    "bidding_errors",
    "bidding_json",
    "bidding_plots",
    "declarer_takes_all",
    "ev_table",
    "feature_table",
    "hand_features",
    "play_bidding_run",
    "recommended_thresholds",
    "target_table",
]
