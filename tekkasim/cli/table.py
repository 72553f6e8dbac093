"""``tekkasim table``: a person plays at the terminal against bots; the deals are saved as records."""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path

import click

from ..rulesets import DEFAULT_RULESET
from .options import parse_rule_options


@click.command("table")
@click.option("--ruleset", "-r", default=DEFAULT_RULESET, show_default=True, help="A ruleset (see `tekkasim rules`).")
@click.option(
    "--bots",
    "-b",
    default="JANGARA",
    show_default=True,
    metavar="BOT[,BOT,BOT]",
    help="The other seats' bots: one for all three, or three in seat order after yours (any bot, any level).",
)
@click.option("--seat", default="bottom", show_default=True, help="Your seat: bottom, right, top or left.")
@click.option("--seed", "-s", type=int, default=None, help="The first deal's seed [from the clock, printed].")
@click.option("--deals", "-n", type=int, default=1, show_default=True, help="Deals to play (a match continues).")
@click.option(
    "--out",
    "-O",
    default=None,
    type=click.Path(dir_okay=False),
    help="Records file, .jsonl or .jsonl.gz [table-RULESET-SEED.jsonl].",
)
@click.option("--option", "-o", "rule_opts", multiple=True, metavar="KEY=VALUE", help="A ruleset option (repeatable).")
def table(ruleset, bots, seat, seed, deals, out, rule_opts):
    """Sit at the table: you play one seat, bots the others; '?' at any prompt for help."""
    from ..bots import get_bot
    from ..bots.engines import Person
    from ..bots.engines.person import LeftTable, fits, with_letters
    from ..cards import SEATS, parse_seat
    from ..errors import Interrupted, TekkasimError
    from ..records import _open_text
    from ..rules import get_game
    from ..rules.base import check_seed
    from ..tournament.config import split_bots
    from ..tournament.play import play_deal_state
    from .options import check_writable

    game = get_game(ruleset, **parse_rule_options(rule_opts))
    me = parse_seat(seat)
    specs = split_bots(bots)
    if len(specs) == 1:
        specs *= 3
    if len(specs) != 3:
        raise TekkasimError(f"--bots takes one bot or three, not {len(specs)}")
    if deals < 1:
        raise TekkasimError(f"--deals must be 1 or more, not {deals}")
    seed = check_seed(int(time.time() * 1000) % 10**9 if seed is None else seed)
    path = out or f"table-{game.name}-{seed}.jsonl"
    check_writable(path, "--out")  # before the deal, not when it is saved
    others = [get_bot(s, ruleset=game.name) for s in specs]
    # an entry the terminal's encoding cannot read is asked again (as any other entry the table does not
    # take), and what it cannot show comes out as "?" rather than stopping the table (suits as letters)
    for stream in (sys.stdin, sys.stdout):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    show = click.echo if fits(sys.stdout) else lambda text: click.echo(with_letters(text))
    person = Person(sys.stdin, sys.stdout)
    seats = []
    for i in range(4):
        seats.append(person if i == me else others[(i - me - 1) % 4])
    show(
        f"{game.name}, seed {seed}: you sit {SEATS[me]}; "
        + ", ".join(f"{SEATS[i]} {b.label}" for i, b in enumerate(seats) if i != me)
    )
    context: dict = {}
    left = None  # how the person left the table, with where the deals were saved
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with _open_text(Path(path), "wt") as f:  # gzipped for a .gz name, as play and export write
        for j in range(deals):
            deal_seed = seed + j
            state = game.new_deal(deal_seed, **context)
            try:
                play_deal_state(state, seats, deal_seed, 0)
            except KeyboardInterrupt as exc:  # Ctrl-C: the CLI's usual "run the same command again" would
                # deal again and overwrite the file
                if isinstance(exc, Interrupted):
                    raise
                where = f"what was played is saved in {path} (the last deal unfinished)"
                raise Interrupted(f"interrupted: you left the table (Ctrl-C); {where}", signal.SIGINT) from None
            except LeftTable as exc:  # quit, or the end of the input (saved first, by the finally below)
                left = f"{exc}; what was played is saved in {path} (the last deal unfinished)"
                if exc.how != "quit":
                    raise TekkasimError(left) from None
                break
            finally:  # the deal so far is kept even when the person leaves (an unfinished record)
                record = state.to_record() | {
                    "seed": deal_seed,
                    "bots": {SEATS[i]: b.label for i, b in enumerate(seats)},
                }
                record["bots"][SEATS[me]] = "PERSON"
                f.write(json.dumps(record) + "\n")
                f.flush()
            show(f"\ndeal {j + 1} over: {json.dumps(state.result())}")
            show(state.render())
            if state.match_winner() is not None:
                show(f"team {'AB'[state.match_winner()]} wins the match")
                break
            context = state.next_deal_context()
    if left is not None:
        show(left)
        return
    show(f"saved to {path} (tekkasim verify {path}; tekkasim replay {path})")
