"""Shared test settings. Hypothesis deadlines are off: the first example of a test may include numba's
compile or cache load, which says nothing about the code's speed (speed lives in benchmarks/)."""

from hypothesis import HealthCheck, settings

settings.register_profile("tekkasim", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tekkasim")


def pytest_configure(config):
    """Under pytest-xdist, fill numba's cache once before the workers start: each worker would otherwise
    compile the same cold kernels itself (on a clean clone, the same compile spent once per worker).
    ``TEKKASIM_NO_WARM=1`` skips it; with a warm cache it only loads the kernels."""
    import os
    import subprocess
    import sys

    workers = getattr(config.option, "numprocesses", None) or 0
    if hasattr(config, "workerinput") or not isinstance(workers, int) or workers < 2:
        return
    if os.environ.get("TEKKASIM_NO_WARM"):
        return
    done = subprocess.run([sys.executable, "-m", "tekkasim.bots.warm", "--jobs", str(workers)], check=False)
    if done.returncode:
        print(f"warning: warming numba's cache failed (exit {done.returncode}); the workers compile instead")
