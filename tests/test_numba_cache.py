"""The numba cache guard: cached kernels are dropped when any source of the package changes."""

from tekkasim import _numba_cache


def test_cache_is_cleared_when_a_source_changes_and_kept_otherwise(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub" / "__pycache__").mkdir(parents=True)
    (pkg / "a.py").write_text("X = 1\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    return 2\n")
    stamp = pkg / "__pycache__" / "numba-sources.sha256"
    cached = [pkg / "sub" / "__pycache__" / "b.f-1.py311.nbi", pkg / "sub" / "__pycache__" / "b.f-1.py311.1.nbc"]

    assert _numba_cache.clear_stale(pkg, stamp) is False  # first run: nothing cached yet, stamp written
    assert stamp.read_text().strip() == _numba_cache.sources_digest(pkg)
    for path in cached:
        path.write_bytes(b"kernel")
    assert _numba_cache.clear_stale(pkg, stamp) is False  # unchanged sources: the cache stays
    assert all(path.exists() for path in cached)

    (pkg / "a.py").write_text("X = 2\n")  # an edit in another module than the kernel's
    assert _numba_cache.clear_stale(pkg, stamp) is True
    assert not any(path.exists() for path in cached)
    assert stamp.read_text().strip() == _numba_cache.sources_digest(pkg)


def test_digest_depends_on_paths_and_contents(tmp_path):
    (tmp_path / "a.py").write_text("1")
    first = _numba_cache.sources_digest(tmp_path)
    (tmp_path / "a.py").rename(tmp_path / "b.py")
    assert _numba_cache.sources_digest(tmp_path) != first
    (tmp_path / "b.py").write_text("2")
    assert len({first, _numba_cache.sources_digest(tmp_path)}) == 2
