"""tekkasim: bot research and simulation for four-player partnership trick-taking games.

Layers, each importing only earlier ones (README, "How it is built"): ``errors``/``cards``/``bits``/
``records`` -> ``rules`` -> ``reference`` -> ``solver`` -> ``bots`` -> ``verify``/``render``/``simulate``/
``throughput`` -> ``ratings`` -> ``tournament`` -> ``analysis`` -> ``cli``.
"""

from . import _numba_cache

__version__ = "0.1.0"

_numba_cache.clear_stale()  # before any kernel module is imported (numba's cache misses edits elsewhere)
