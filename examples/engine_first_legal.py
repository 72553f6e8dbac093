#!/usr/bin/env python3
"""A complete engine for tekkasim, in the Python standard library only: start your own engine from here.

It speaks the engine protocol (docs/engines.md; the specification is spec/engine.md): one JSON object per
line on stdin, one per line on stdout. Its rule: play the first action of ``legal`` (the rules engine
lists them sorted, so in card play the lowest card of the lowest suit it may play; in an auction the
first call, ``pass`` where passing is allowed), and decline every optional decision (it never accuses).

Try it:  tekkasim tournament --ruleset feskot --bots "engine:python3 examples/engine_first_legal.py,RANDOM"

To write your own, replace ``choose``: it gets the decide message (the seat's ``observation``, ``legal``,
``possible`` in Satat, ``optional``, ``time_ms`` and a ``seed`` for your randomness) and returns the text
of one action of ``legal`` (or None for an optional decision). Log to stderr, never to stdout.
"""

import json
import sys

NAME = "FIRST_LEGAL"
RULESETS = ["feskot", "tekka", "satat", "shengji"]


def choose(message):
    """The action for one decide message: the first legal action, or None (decline) when optional."""
    if message["optional"]:
        return None
    return message["legal"][0]


def main():
    # bytes in, bytes out, one flush per answer: the host waits for each answer, so a buffered line
    # that is not flushed would stall the table, and text-mode decoding would double the reading cost
    read = sys.stdin.buffer.readline
    out = sys.stdout.buffer
    while True:
        line = read()
        if not line:  # the host closed our stdin
            return
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            answer = {"type": "hello", "protocol": 1, "name": NAME, "rulesets": RULESETS, "author": "tekkasim example"}
        elif kind == "decide":
            answer = {"type": "action", "id": message["id"], "action": choose(message)}
        elif kind == "quit":
            return
        else:  # a message type this engine does not know: the protocol lets it ignore it
            print(f"{NAME}: ignoring a {kind!r} message", file=sys.stderr)
            continue
        out.write(json.dumps(answer).encode() + b"\n")
        out.flush()


if __name__ == "__main__":
    main()
