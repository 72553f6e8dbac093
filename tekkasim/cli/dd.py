"""``tekkasim dd``: double-dummy trick tables for deals from a record file or given on the command line.

For each deal it prints the tricks the side on lead takes with perfect play, for every trump suit
(rows S H D C) and every leader (columns bottom right top left); ``--json`` prints one object per deal:
``{"index": i, "tricks": {"S": {"bottom": n, "right": n, "top": n, "left": n}, "H": ..., "D": ..., "C": ...}}``.

Deals from records use the hands as dealt (Satat: after the recorded exchange, which happens before
any play). ``--from-trick N`` (1-based) instead replays the record's first N-1 tricks and solves the
rest of the deal from the start of trick N, for the record's trump and the seat that leads trick N
(the only leader and trump that make sense there); the JSON object then also carries ``"from_trick"``.
The record's ``ruleset`` decides the trick rules (feskot and tekka: counter-clockwise; satat:
clockwise with the 2♥ rules); hands given with ``--bottom`` ... use ``--ruleset``.
"""

from __future__ import annotations

import json

import click
import numpy as np

from ..cards import SEATS, SUITS, card_name, mask_of, parse_card, parse_cards, parse_seat, parse_suit
from ..errors import CardError, OptionError, RecordError, TekkasimError
from ..records import iter_records, require
from ..solver import _dd_kernels
from ..solver.dd import Solver

_ROW_ORDER = (3, 2, 1, 0)  # S H D C
_NEXT = {"feskot": 1, "tekka": 1, "satat": 3}  # seat step of the play order


def _record_hands(rec: dict) -> list[int]:
    hands = require(rec, "hands", dict)
    masks = []
    for seat in SEATS:
        if seat not in hands:
            raise RecordError(f"field 'hands' has no {seat!r} hand")
        cards = hands[seat]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise RecordError(f"hands.{seat} must be a list of cards")
        try:
            masks.append(mask_of(parse_cards(cards)))
        except CardError as exc:
            raise RecordError(f"hands.{seat}: {exc}") from None
    ruleset = rec.get("ruleset")
    if ruleset == "satat" and rec.get("exchange"):
        exchange = rec["exchange"]
        if not isinstance(exchange, list):
            raise RecordError("field 'exchange' must be a list")
        for i, item in enumerate(exchange):
            if not isinstance(item, dict) or not {"from", "to", "card"} <= item.keys():
                raise RecordError(f"exchange[{i}] must be an object with from, to and card")
            giver, taker, c = parse_seat(item["from"]), parse_seat(item["to"]), parse_card(item["card"])
            if not masks[giver] >> c & 1:
                raise RecordError(f"exchange[{i}]: {SEATS[giver]} does not hold {card_name(c)}")
            masks[giver] ^= 1 << c
            masks[taker] |= 1 << c
    return masks


def _first_leader(rec: dict, ruleset: str) -> int:
    """The seat that leads trick 1 (records.md: feskot ``first``, tekka the auction's holder, satat
    ``caller``)."""
    if ruleset == "feskot":
        return parse_seat(require(rec, "first", str))
    if ruleset == "satat":
        return parse_seat(require(rec, "caller", str))
    first = parse_seat(require(rec, "first", str))
    auction = require(rec, "auction", list)
    holder = first
    for i, call in enumerate(auction):
        if not isinstance(call, str):
            raise RecordError(f"auction[{i}] must be text")
        if call.strip().lower() != "pass":
            holder = (first + i) % 4  # every call outbids the standing one: the last one holds
    return holder


def _replay(rec: dict, ruleset: str, hands: list[int], trump: int, n_tricks: int) -> int:
    """Play the record's first ``n_tricks`` tricks out of ``hands`` (in place); return the next leader.

    A Feskot/Tekka play that fails to follow suit is an error; in Satat it is a recordable Renonce and is
    replayed as played."""
    tricks = require(rec, "tricks", list)
    if len(tricks) < n_tricks:
        raise RecordError(f"--from-trick {n_tricks + 1}: the record holds only {len(tricks)} tricks")
    variant = _dd_kernels.SATAT if ruleset == "satat" else _dd_kernels.STANDARD
    leader = _first_leader(rec, ruleset)
    step = _NEXT[ruleset]
    for t in range(n_tricks):
        trick = tricks[t]
        if not isinstance(trick, list):
            raise RecordError(f"tricks[{t}] must be a list of plays")
        if any(isinstance(p, dict) for p in trick):
            raise RecordError(f"trick {t + 1} holds an accusation: the deal ends there")
        if len(trick) != 4:
            raise RecordError(f"trick {t + 1} is not complete ({len(trick)} plays)")
        seat, lead, win_seat, win_str = leader, -1, -1, -1
        for i, p in enumerate(trick):
            if not isinstance(p, str):
                raise RecordError(f"trick {t + 1}: a play must be text like 'TS', not {p!r}")
            c = parse_card(p.split(":", 1)[0])
            if not hands[seat] >> c & 1:
                raise RecordError(f"trick {t + 1}: {SEATS[seat]} does not hold {card_name(c)}")
            if i == 0:
                lead = int(_dd_kernels.lead_suit_of(c, trump, variant))
            elif variant == _dd_kernels.STANDARD:
                legal = int(_dd_kernels.legal_mask(np.uint64(hands[seat]), i, lead, variant))
                if not legal >> c & 1:
                    raise RecordError(f"trick {t + 1}: {SEATS[seat]} played {card_name(c)} but had to follow suit")
            strength = int(_dd_kernels.strength(c, trump, lead, variant))
            if strength > win_str:
                win_seat, win_str = seat, strength
            hands[seat] ^= 1 << c
            seat = (seat + step) % 4
        leader = win_seat
    return leader


def _deals(path, hand_texts, ruleset_opt, from_trick):
    """Yield ``(index, ruleset, hands, trump or None, leader or None)`` for each deal to solve."""
    if path is None:
        if from_trick != 1:
            raise OptionError("--from-trick needs a record file")
        if any(h is None for h in hand_texts):
            missing = [SEATS[i] for i, h in enumerate(hand_texts) if h is None]
            raise OptionError(f"give a record file or all four hands (missing: --{', --'.join(missing)})")
        hands = []
        for seat, text in zip(SEATS, hand_texts, strict=True):
            try:
                hands.append(mask_of(parse_cards(text)))
            except CardError as exc:
                raise CardError(f"--{seat}: {exc}") from None
        yield 0, ruleset_opt or "feskot", hands, None, None
        return
    if any(h is not None for h in hand_texts):
        raise OptionError("give either a record file or the four hands, not both")
    for index, rec in iter_records(path):
        if isinstance(rec, RecordError):
            raise RecordError(f"record {index}: {rec}")
        try:
            ruleset = require(rec, "ruleset", str).strip().lower()
            if ruleset not in _NEXT:
                raise RecordError(f"the double-dummy solver handles feskot, tekka and satat, not {ruleset!r}")
            if ruleset_opt is not None and ruleset_opt != ruleset:
                raise OptionError(f"--ruleset {ruleset_opt} does not match the record's ruleset {ruleset!r}")
            hands = _record_hands(rec)
            if from_trick == 1:
                yield index, ruleset, hands, None, None
                continue
            trump = parse_suit(require(rec, "trump", str))
            leader = _replay(rec, ruleset, hands, trump, from_trick - 1)
        except TekkasimError as exc:
            raise type(exc)(f"record {index}: {exc}") from None
        yield index, ruleset, hands, trump, leader


def _check_sizes(hands: list[int], where: str) -> None:
    sizes = [h.bit_count() for h in hands]
    if len(set(sizes)) != 1 or sizes[0] == 0:
        shown = ", ".join(f"{SEATS[i]} {sizes[i]}" for i in range(4))
        raise CardError(f"{where}: the four hands must hold the same number of cards, 1 to 13 ({shown})")
    seen = 0
    for h in hands:
        if seen & h:
            c = (seen & h).bit_length() - 1
            raise CardError(f"{where}: duplicate card {card_name(c)} in two hands")
        seen |= h


@click.command("dd")
@click.argument("path", required=False, type=click.Path(dir_okay=False))
@click.option("--bottom", metavar="CARDS", help='bottom\'s hand, e.g. "AS KS 7H ..." (with the other three).')
@click.option("--right", metavar="CARDS", help="right's hand.")
@click.option("--top", metavar="CARDS", help="top's hand.")
@click.option("--left", metavar="CARDS", help="left's hand.")
@click.option(
    "--ruleset",
    "-r",
    "ruleset_opt",
    type=click.Choice(["feskot", "tekka", "satat"]),
    default=None,
    help="Trick rules for hands given as options (default feskot); must match a record's ruleset.",
)
@click.option("--trump", "-t", "trumps", multiple=True, metavar="SUIT", help="Only this trump suit (repeatable).")
@click.option("--leader", "-l", "leaders", multiple=True, metavar="SEAT", help="Only this leader (repeatable).")
@click.option(
    "--from-trick",
    "from_trick",
    type=int,
    default=1,
    show_default=True,
    metavar="N",
    help="Replay the record's first N-1 tricks and solve from trick N (record's trump, actual leader).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per deal.")
def dd(path, bottom, right, top, left, ruleset_opt, trumps, leaders, from_trick, as_json):
    """Double-dummy tricks of the side on lead, for every trump and leader, of each deal of PATH (a
    records.md file, .jsonl or .jsonl.gz) or of the hands given with --bottom --right --top --left."""
    try:
        _run(path, (bottom, right, top, left), ruleset_opt, trumps, leaders, from_trick, as_json)
    except TekkasimError as exc:
        raise click.ClickException(str(exc)) from None


def _run(path, hand_texts, ruleset_opt, trumps, leaders, from_trick, as_json):
    if not 1 <= from_trick <= 13:
        raise OptionError(f"--from-trick must be 1..13, not {from_trick}")
    trump_list = sorted({parse_suit(t) for t in trumps}, reverse=True) or list(_ROW_ORDER)
    leader_list = sorted({parse_seat(s) for s in leaders}) or [0, 1, 2, 3]
    solver = Solver()
    for index, ruleset, hands, trump, leader in _deals(path, hand_texts, ruleset_opt, from_trick):
        _check_sizes(hands, f"record {index}" if path is not None else "hands")
        if trump is None:
            rows, cols = trump_list, leader_list
        else:
            rows, cols = [trump], [leader]
        table = {t: {s: solver.solve(hands, t, s, (), ruleset) for s in cols} for t in rows}
        if as_json:
            obj = {"index": index, "tricks": {SUITS[t]: {SEATS[s]: n for s, n in table[t].items()} for t in rows}}
            if trump is not None:
                obj["from_trick"] = from_trick
            click.echo(json.dumps(obj))
            continue
        n = hands[0].bit_count()
        head = f"deal {index} ({ruleset}"
        head += f", from trick {from_trick}, {SEATS[leader]} leads" if trump is not None else ""
        click.echo(head + f"): tricks of the leader's side, of {n}")
        click.echo("trump " + "".join(f"{SEATS[s]:>8}" for s in cols))
        for t in rows:
            click.echo(f"  {SUITS[t]}   " + "".join(f"{table[t][s]:>8}" for s in cols))
