"""The ``tekkasim`` command's entry, for ``python -m tekkasim`` and the console script: the CLI (click, and
what a command loads) is imported inside :func:`run`, so that a Ctrl-C while it loads ends as the one line
and exit status 130 of a stopped command, not a traceback (seen on a loaded machine, where loading can take
longer than a user waits before pressing Ctrl-C). Only the package's own small ``__init__`` loads before."""

import sys

from .errors import STOPPED


def run() -> None:
    try:
        from .cli import main
    except KeyboardInterrupt:
        sys.stderr.write(STOPPED.format(name="Ctrl-C (SIGINT)") + "\n")
        raise SystemExit(130) from None
    main()


if __name__ == "__main__":
    run()
