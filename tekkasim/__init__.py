"""tekkasim: bot research and simulation for four-player partnership trick-taking games.

Layers, each importing only earlier ones: ``cards``/``bits`` -> ``rules`` -> ``solver`` -> ``records`` ->
(bots -> tournament -> analysis) -> ``cli``.
"""

__version__ = "0.1.0"
