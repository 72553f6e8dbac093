"""Writing an output file whole: under a temporary name beside its target, then renamed over it, so that
an interrupted write leaves the old file as it was. The target's directory is made if it is missing (the
commands check up front, with ``cli.options.check_writable``, that it can be)."""

from __future__ import annotations

import os
import re
from pathlib import Path


def part_path(target: str | os.PathLike) -> Path:
    """The temporary file beside ``target`` to write first, its directory made if missing."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    return target.with_name(f".{target.name}.part")


def write_whole(target: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``target`` (UTF-8) through :func:`part_path`."""
    tmp = part_path(target)
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, target)


def put_section(text: str, begin: str, end: str, body: str, above: str | None = None) -> str:
    """``text`` with the section from the line ``begin`` to ``end`` replaced by ``body`` (which holds both
    markers), or, if it has no such section, ``body`` added: above the first ``above`` in the text if given
    and present, else at the end. How generated docs keep their hand-written parts."""
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    if pattern.search(text):
        return pattern.sub(lambda _: body, text, count=1)
    if above and above in text:
        before, after = text.split(above, 1)
        return before.rstrip() + "\n\n" + body + "\n\n" + above + after
    return text.rstrip() + ("\n\n" if text.strip() else "") + body
