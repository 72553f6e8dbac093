"""Shared test settings. Hypothesis deadlines are off: the first example of a test may include numba's
compile or cache load, which says nothing about the code's speed (speed lives in benchmarks/)."""

from hypothesis import HealthCheck, settings

settings.register_profile("tekkasim", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tekkasim")
