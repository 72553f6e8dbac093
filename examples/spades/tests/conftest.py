"""The plug-in's tests import ``tekkasim_spades`` from this checkout (no install needed in process); the
CLI tests give ``python -m tekkasim`` a site directory with the package and its entry point."""

import sys
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # examples/spades
if str(PACKAGE_ROOT) not in sys.path:
    sys.path.insert(0, str(PACKAGE_ROOT))
