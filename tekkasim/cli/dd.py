"""``tekkasim dd``: double-dummy trick tables for deals from a record file or given on the command line.

For each deal it prints the tricks the side on lead takes with perfect play, for every trump suit
(rows S H D C) and every leader (columns bottom right top left); ``--json`` prints one object per deal:
``{"index": i, "tricks": {"S": {"bottom": n, "right": n, "top": n, "left": n}, "H": ..., "D": ..., "C": ...}}``.

Deals from records use the hands at the start of the play (Satat: after the recorded exchange), as the
rules replay them (``tekkasim.solver.state_at``). ``--from-trick N`` (1-based) instead solves the rest of
the deal from the start of trick N, for the record's trump and the seat that leads trick N (the only
leader and trump that make sense there), so ``--trump`` and ``--leader`` are refused with it; the count
is of the tricks left, and the JSON object also carries ``"from_trick"`` and ``"won"`` (the tricks each
team won before trick N). The record's ``ruleset`` decides the trick rules (feskot and tekka:
counter-clockwise; satat: clockwise with the 2♥ rules); hands given with ``--bottom`` ... use
``--ruleset``. This command holds no game logic: positions come from ``tekkasim.solver``.

PATH ``-`` reads standard input. ``--deal N`` solves only the deal with that index (0-based, the index
printed, as in ``verify`` and ``replay``). A record that cannot be solved (unreadable, not a rules-valid
deal, too short for ``--from-trick``) gives one line, ``deal i: error: ...`` (``{"index": i, "error":
...}`` with ``--json``), and the file goes on; the exit status is then 1. A file with no records is an
error.
"""

from __future__ import annotations

import json

import click

from ..cards import SEATS, SUITS, mask_of, parse_cards, parse_seat, parse_suit
from ..errors import CardError, OptionError, RecordError, TekkasimError
from ..records import iter_records
from ..rulesets import DEFAULT_RULESET
from ..solver.dd import Position, Solver, solver_rulesets, state_at, trick_table

_ROW_ORDER = (3, 2, 1, 0)  # S H D C


@click.command("dd")
@click.argument("path", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--bottom", metavar="CARDS", help='bottom\'s hand, e.g. "AS KS 7H ..." (with the other three).')
@click.option("--right", metavar="CARDS", help="right's hand.")
@click.option("--top", metavar="CARDS", help="top's hand.")
@click.option("--left", metavar="CARDS", help="left's hand.")
@click.option(
    "--ruleset",
    "-r",
    "ruleset_opt",
    metavar="NAME",
    default=None,
    help=f"Trick rules for hands given as options (default {DEFAULT_RULESET}); must match a record's ruleset.",
)
@click.option("--trump", "-t", "trumps", multiple=True, metavar="SUIT", help="Only this trump suit (repeatable).")
@click.option("--leader", "-l", "leaders", multiple=True, metavar="SEAT", help="Only this leader (repeatable).")
@click.option(
    "--from-trick",
    "from_trick",
    type=int,
    default=None,
    metavar="N",
    help="Solve the rest of each record's deal from trick N (1-based; the record's trump and leader).",
)
@click.option(
    "--deal",
    "-d",
    "deal_index",
    type=int,
    default=None,
    metavar="N",
    help="Only the deal with this index (0-based, as printed, and as in verify and replay).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per deal.")
def dd(path, bottom, right, top, left, ruleset_opt, trumps, leaders, from_trick, deal_index, as_json):
    """Double-dummy tricks of the side on lead, for every trump and leader, of each deal of PATH (a
    records.md file, .jsonl or .jsonl.gz, or - for standard input) or of the hands given with --bottom
    --right --top --left."""
    try:
        failed = _run(path, (bottom, right, top, left), ruleset_opt, trumps, leaders, from_trick, deal_index, as_json)
    except TekkasimError as exc:
        raise click.ClickException(str(exc)) from None
    if failed:
        raise SystemExit(1)


def _options(path, hand_texts, ruleset_opt, trumps, leaders, from_trick, deal_index):
    """Check the options against each other (one line for the first conflict); return the trump rows
    and leader columns of the table."""
    if from_trick is not None:
        if path is None:
            raise OptionError("--from-trick needs a record file")
        if trumps or leaders:
            given = " and ".join(o for o, v in (("--trump", trumps), ("--leader", leaders)) if v)
            raise OptionError(f"--from-trick solves the record's own trump and leader: {given} cannot be given with it")
        if not 1 <= from_trick <= 13:
            raise OptionError(f"--from-trick must be 1..13, not {from_trick}")
    if deal_index is not None:
        if path is None:
            raise OptionError("--deal needs a record file")
        if deal_index < 0:
            raise OptionError(f"--deal must be 0 or more, not {deal_index}")
    if path is None and any(h is None for h in hand_texts):
        missing = [SEATS[i] for i, h in enumerate(hand_texts) if h is None]
        raise OptionError(f"give a record file or all four hands (missing: --{', --'.join(missing)})")
    if path is not None and any(h is not None for h in hand_texts):
        raise OptionError("give either a record file or the four hands, not both")
    rows = sorted({parse_suit(t) for t in trumps}, reverse=True) or list(_ROW_ORDER)
    cols = sorted({parse_seat(s) for s in leaders}) or [0, 1, 2, 3]
    return rows, cols


def _run(path, hand_texts, ruleset_opt, trumps, leaders, from_trick, deal_index, as_json) -> bool:
    """Solve and print every deal asked for; return whether any record failed."""
    rows, cols = _options(path, hand_texts, ruleset_opt, trumps, leaders, from_trick, deal_index)
    ruleset_opt = ruleset_opt.strip().lower() if ruleset_opt else None
    if ruleset_opt is not None and ruleset_opt not in solver_rulesets():  # the rulesets' metadata says which
        raise OptionError(f"--ruleset {ruleset_opt!r} is not one the solver plays ({', '.join(solver_rulesets())})")
    solver = Solver()
    if path is None:
        hands = []
        for seat, text in zip(SEATS, hand_texts, strict=True):
            try:
                hands.append(mask_of(parse_cards(text)))
            except CardError as exc:
                raise CardError(f"--{seat}: {exc}") from None
        ruleset = ruleset_opt or DEFAULT_RULESET
        try:
            table = trick_table(hands, ruleset, rows, cols, solver)
        except TekkasimError as exc:
            raise type(exc)(f"hands: {exc}") from None
        _show(0, ruleset, hands[0].bit_count(), table, rows, cols, as_json)
        return False
    seen = failed = False
    for index, rec in iter_records(path):
        if deal_index is not None and index != deal_index:
            continue
        seen = True
        try:
            if isinstance(rec, RecordError):
                raise rec
            ruleset = rec.get("ruleset")
            if ruleset_opt is not None and isinstance(ruleset, str) and ruleset.strip().lower() != ruleset_opt:
                raise OptionError(f"--ruleset {ruleset_opt} does not match the record's ruleset {ruleset!r}")
            if from_trick is None:
                state = state_at(rec)
                n = state.hand(0).bit_count()
                table = trick_table(state, trumps=rows, leaders=cols, solver=solver)
                _show(index, state.game.name, n, table, rows, cols, as_json)
            else:
                p = Position.from_record(rec, trick=from_trick)
                left = solver.solve(p) - p.won[p.side]
                table = {p.trump: {p.leader: left}}
                _show(index, p.ruleset, p.n_left, table, [p.trump], [p.leader], as_json, from_trick, p.won)
        except TekkasimError as exc:
            failed = True
            if as_json:
                click.echo(json.dumps({"index": index, "error": str(exc)}))
            else:
                click.echo(f"deal {index}: error: {exc}")
    if not seen:
        where = "standard input" if path == "-" else path
        raise RecordError(
            f"{where} has no deal {deal_index}" if deal_index is not None else f"{where} holds no records"
        )
    return failed


def _show(index, ruleset, n, table, rows, cols, as_json, from_trick=None, won=None):
    if as_json:
        obj = {"index": index, "tricks": {SUITS[t]: {SEATS[s]: table[t][s] for s in cols} for t in rows}}
        if from_trick is not None:
            obj |= {"from_trick": from_trick, "won": {"A": won[0], "B": won[1]}}
        click.echo(json.dumps(obj))
        return
    head = f"deal {index} ({ruleset}"
    if from_trick is not None:
        head += f", from trick {from_trick}, {SEATS[cols[0]]} leads, won so far A {won[0]} B {won[1]}"
    click.echo(head + f"): tricks of the leader's side, of {n}")
    click.echo("trump " + "".join(f"{SEATS[s]:>8}" for s in cols))
    for t in rows:
        click.echo(f"  {SUITS[t]}   " + "".join(f"{table[t][s]:>8}" for s in cols))
