"""Small helpers shared by several test modules (on the path through pytest's ``pythonpath``)."""

import numpy as np


def same(a, b) -> bool:
    """Deep equality that understands numpy arrays inside dicts, lists, tuples and objects."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if hasattr(a, "__dict__") and type(a) is type(b) and not isinstance(a, type):
        return same(vars(a), vars(b))
    return a == b
