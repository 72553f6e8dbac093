"""A person at the table: a seat whose decisions are typed at a terminal.

:class:`Person` is a bot like any other (``act(view, rng)``) and sees what an engine sees: the decide
message of the engine protocol (``decide_message``), drawn as text: the hand by suit, the trick so far
and the last one, the contract or the score, and the actions allowed. The person types an action as
written in records.md (a card ``7H``, a call ``pass``/``9``/``D13``, a suit ``S``, ``collect``), or its
number in the list (``#3``); case does not matter; ``?`` shows help; anything else is asked again. In Satat a card
that fails to follow may be played (a Renonce, at the risk of an accusation), and when an opponent's card
on the table may be accused, the person is asked: the card accuses, an empty line lets play go on.
"""

from __future__ import annotations

import json
import re
from typing import IO, Any

from ...cards import SEATS, SUIT_SYMBOLS, SUITS
from ...errors import BotError, shorten
from ..base import Bot, View
from .protocol import decide_message

HELP = """Type one of the actions listed, as written (case does not matter), or its number: #1, #2 ...
  cards: rank then suit, 7H, TS (or 10S), QD.{notation}
  An empty line declines an optional decision (one you are offered out of turn).
  quit  leave the table (what was played is saved, the deal unfinished).
  ?  this help."""


def help_text(ruleset: str) -> str:
    """The help for a person at ``ruleset``'s table: the common lines and the ruleset's own notation."""
    from ...rulesets import get_ruleset

    notation = get_ruleset(ruleset).notation
    return HELP.format(notation=("\n  " + notation.strip().replace("\n", "\n  ")) if notation else "")


class LeftTable(BotError):
    """The person left the table: ``how`` is ``quit`` (typed) or ``end of input``."""

    def __init__(self, how: str):
        super().__init__(f"you left the table ({how})")
        self.how = how


_LETTERS = str.maketrans(dict(zip(SUIT_SYMBOLS, SUITS, strict=True)))  # a suit's symbol -> its letter


def fits(stream: IO[str], text: str = SUIT_SYMBOLS) -> bool:
    """Whether ``stream`` can write ``text``: a terminal or a pipe in an encoding without the suit symbols
    (a Windows code page, ``PYTHONIOENCODING=ascii``) cannot."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:  # a StringIO: text as it is
        return True
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def with_letters(text: str) -> str:
    """``text`` with each suit's symbol written as its letter (♠ as S)."""
    return text.translate(_LETTERS)


def _suit_line(cards: list[str]) -> str:
    groups: dict[str, list[str]] = {}
    for c in cards:
        groups.setdefault(c[-1], []).append(c[:-1])
    parts = []
    for s in "SHDCJ":
        if s in groups:
            if s == "J":  # jokers: BJ, SJ
                parts.append(" ".join(r + "J" for r in groups[s][::-1]))
            else:  # high cards first
                parts.append(f"{SUIT_SYMBOLS[SUITS.index(s)]} {' '.join(groups[s][::-1])}")
    return "   ".join(parts) or "(no cards)"


def _trick_text(trick: list, seats: list[int]) -> str:
    plays, cards = [], iter(seats)
    for play in trick:
        if isinstance(play, dict):  # a Satat accusation
            plays.append(f"[{play.get('by')} accuses {play.get('accuse')}: {play.get('card')}]")
        else:
            plays.append(f"{SEATS[next(cards, 0)]} {play}")
    return "  ".join(plays)


def render(msg: dict, who: list[list[int]]) -> str:
    """The table as the deciding seat sees it, from a decide message (``who``: the seats of each trick's
    plays, in order)."""
    obs = msg["observation"]
    rec = obs["record"]
    team = "A" if obs["seat"] in ("bottom", "top") else "B"
    lines = [f"--- {msg['ruleset']}: you are {obs['seat']} (team {team}), phase {obs['phase']}"]
    if rec.get("trump"):
        lines.append(f"trump {rec['trump']}")
    if rec.get("auction"):
        lines.append(f"auction (from {rec.get('first')}): {' '.join(rec['auction'])}")
    for r in rec.get("raises", ()):  # Tekka with option raises
        answer = {True: "accepted", False: "rejected"}.get(r.get("accepted"), "awaiting an answer")
        where = f"before trick {r['trick'] + 1}, play {r['play'] + 1}"
        lines.append(f"raise by {r['by']} to {r['target']} {where}: {answer}")
    if rec.get("declarations"):
        lines.append("declarations: " + " | ".join(rec["declarations"]))
    if rec.get("level"):
        lines.append(f"level {rec['level']}" + (f", dealer {rec['dealer']}" if rec.get("dealer") else ""))
    if obs["phase"] == "bury" and rec.get("kitty"):  # Shengji's dealer: else nothing says how many cards go back
        buried = rec.get("buried", [])
        left = len(rec["kitty"]) - len(buried)
        lines.append(f"kitty taken: {' '.join(rec['kitty'])}   buried: {' '.join(buried) or '-'}   bury {left} more")
    elif rec.get("buried"):
        lines.append(f"you buried: {' '.join(rec['buried'])}")
    tricks = rec.get("tricks", [])
    done = len(tricks) - 1 if tricks and len(tricks[-1]) < 4 else len(tricks)
    if done:
        lines.append(f"last trick ({done}): {_trick_text(tricks[done - 1], who[done - 1])}")
    if done < len(tricks):
        lines.append(f"this trick ({len(tricks)}): {_trick_text(tricks[-1], who[-1])}")
    won, score = obs["won"], obs["score"]
    lines.append(f"won this deal: A {won['A']}  B {won['B']}    score: A {score['A']}  B {score['B']}")
    lines.append(f"your hand: {_suit_line(obs['hand'])}")
    return "\n".join(lines)


class Person(Bot):
    """A person typing at a terminal (``stdin``/``stdout`` by default, or the streams given)."""

    name = "PERSON"
    kind = "person"
    description = "a person at the terminal"
    params_spec = ()

    def __init__(self, inp: IO[str], out: IO[str], **params: Any):
        super().__init__(**params)
        self.inp = inp
        self.out = out
        self._symbols = fits(out)  # else suits by their letters
        self._n = 0

    def _say(self, text: str) -> None:
        self.out.write(text if self._symbols else with_letters(text))

    def _ask(self, prompt: str) -> str:
        self._say(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise LeftTable("end of input")
        if line.strip().lower() == "quit":
            raise LeftTable("quit")
        return line.strip()

    def act(self, view: View, rng) -> Any:
        state = view._state
        self._n += 1
        line, allowed = decide_message(view, self._n, state.game.name, state.game.options, 0, 0)
        msg = json.loads(line)
        choices = msg["legal"] + [a for a in msg.get("possible", []) if a not in msg["legal"]]
        who = [[s for s, _ in t["plays"]] for t in view.observation.public.get("tricks", ())]
        self._say("\n" + render(msg, who) + "\n")
        if view.optional:  # an accusation offered out of turn: the card on the table, or nothing
            cards = {c.rsplit(":", 1)[-1]: c for c in choices}
            offered = ", ".join(f"{card} ({text.split(':')[1]})" for card, text in cards.items())
            self._say(f"you may accuse: {offered}\n")
            while True:
                text = self._ask("accuse (a card on the table, or Enter to let play go on)> ")
                if not text:
                    return None
                if text == "?":
                    self._say(help_text(view.game.name) + "\n")
                    continue
                pick = self._match(text, choices, cards)
                if pick is not None:
                    return allowed[pick]
                self._say(f"{shorten(text)!r} is not an accusation you can make now ('?' for help)\n")
        plain = [c for c in msg["legal"] if ":" not in c or c.startswith("accuse:")]
        choices = plain + [c for c in choices if c not in plain]
        self._say(f"your turn: {'  '.join(f'#{i + 1} {c}' for i, c in enumerate(plain))}\n")
        if len(plain) < len(msg["legal"]):
            self._say("(a card may carry a signal: 7H:slam asks partner to lead hearts, 7H:drop says no more hearts)\n")
        extra = msg.get("possible", [])
        extra = [a for a in extra if a not in msg["legal"]]
        if extra:
            self._say(f"(also possible, as a Renonce: {' '.join(extra)})\n")
        cards = {c.rsplit(":", 1)[-1]: c for c in choices if c.startswith("accuse:")}
        while True:
            text = self._ask("your action> ")
            if text == "?":
                self._say(help_text(view.game.name) + "\n")
                continue
            pick = self._match(text, choices, cards) if text else None
            if pick is not None:
                return allowed[pick]
            self._say(f"{shorten(text)!r} is not an action you can take now ('?' for help)\n")

    @staticmethod
    def _match(text: str, choices: list[str], accusations: dict[str, str]) -> str | None:
        low = text.strip().lower()
        if re.fullmatch(r"10[cdhs](:\w+)?", low):  # 10H for TH
            low = "t" + low[2:]
        if low.startswith("#") and low[1:].isdigit() and 1 <= int(low[1:]) <= len(choices):
            return choices[int(low[1:]) - 1]
        for c in choices:
            if c.lower() == low:
                return c
        for card, c in accusations.items():
            if card.lower() == low:
                return c
        return None
