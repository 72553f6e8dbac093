"""Keep numba's on-disk cache in step with the package's sources.

numba's ``cache=True`` checks only the timestamp of the file that defines a kernel: a kernel that calls
(and so inlines) a kernel of another module, or reads a module constant, is loaded from the cache
unchanged after that other file is edited, and then runs the old code. So at import the package hashes
all its ``.py`` files; when the hash differs from the one stored beside the cache, every cached kernel
of the package is deleted and compiled again on first use. (Edits to a checkout then cost one
recompilation; an installed package never changes, so its cache is kept.)
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent
STAMP = ROOT / "__pycache__" / "numba-sources.sha256"


def sources_digest(root: Path = ROOT) -> str:
    """SHA-256 over the package's ``.py`` files (relative path and contents, in path order)."""
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def clear_stale(root: Path = ROOT, stamp: Path | None = None) -> bool:
    """Delete the package's cached kernels (``*.nbi``, ``*.nbc``) when its sources changed since the
    stamp was written, and write the new stamp. Returns whether anything was cleared. A read-only
    install is left alone (nothing can be cleared or written there)."""
    stamp = stamp or root / "__pycache__" / STAMP.name
    digest = sources_digest(root)
    try:
        if stamp.read_text().strip() == digest:
            return False
    except OSError:
        pass
    cleared = False
    for pattern in ("*.nbi", "*.nbc"):
        for path in root.rglob(pattern):
            try:
                path.unlink()
                cleared = True
            except OSError:
                pass
    try:
        stamp.parent.mkdir(exist_ok=True)
        tmp = stamp.with_name(f"{stamp.name}.{os.getpid()}.part")
        tmp.write_text(digest + "\n")
        os.replace(tmp, stamp)  # atomic: two processes starting at once both write the same digest
    except OSError:
        pass
    return cleared
