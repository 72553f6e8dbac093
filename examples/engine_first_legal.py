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
import os
import sys

NAME = "FIRST_LEGAL"
RULESETS = ["feskot", "tekka", "satat", "shengji"]
HELLO = {"type": "hello", "protocol": 1, "name": NAME, "rulesets": RULESETS, "author": "tekkasim example"}


def choose(message):
    """The action for one decide message: the first legal action, or None (decline) when optional."""
    if message["optional"]:
        return None
    return message["legal"][0]


def send(text):
    # one write a message, unbuffered: the host waits for each answer, so an answer left in a buffer
    # would stall the table (a pipe takes a short write whole)
    os.write(1, text.encode() + b"\n")


def main():
    # bytes in (no text-mode decoding: json.loads reads UTF-8 bytes itself), one message a line
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "decide":  # first: the host sends little else
            # the answer's few keys written directly: json.dumps of a dict costs more than the rest of
            # the loop but json.loads; json.dumps still quotes the action (and writes None as null)
            action = json.dumps(choose(message))
            send(f'{{"type": "action", "id": {json.dumps(message["id"])}, "action": {action}}}')
        elif kind == "hello":
            send(json.dumps(HELLO))
        elif kind == "quit":
            return
        else:  # a message type this engine does not know: the protocol lets it ignore it
            print(f"{NAME}: ignoring a {kind!r} message", file=sys.stderr)


if __name__ == "__main__":
    main()
