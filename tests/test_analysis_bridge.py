"""The bridge validation's machinery (tekkasim.analysis.bridge) at a tiny size."""

import pytest

from tekkasim.analysis.bridge import PUBLISHED, hcp_notrump_tricks, hcp_table
from tekkasim.analysis.duplicate import AnalysisError
from tekkasim.solver import solve

POINTS = {12: 4, 11: 3, 10: 2, 9: 1}


def test_sides_are_what_they_say():
    frame = hcp_notrump_tricks(3, seed=4, hcps=(20, 26))
    assert sorted(frame["hcp"].value_counts().to_dict().items()) == [(20, 3), (26, 3)]
    for row in frame.itertuples():
        hands = [int(h, 16) for h in row.hands.split()]
        assert sum(bin(h).count("1") for h in hands) == 52 and len({*hands}) == 4
        pts = sum(POINTS.get(c % 13, 0) for s in (row.side, row.side + 2) for c in range(52) if hands[s] >> c & 1)
        assert pts == row.hcp
        # declarer d, opening lead from the next seat in play order, no trump
        for d, t in ((row.side, row.tricks_d0), (row.side + 2, row.tricks_d1)):
            assert t == solve(hands, "NT", (d + 1) % 4, side=d)
        assert row.tricks == (row.tricks_d0 + row.tricks_d1) / 2
    table = hcp_table(frame)
    assert list(table.index) == [20, 26] and (table["n"] == 3).all()
    assert table.loc[20, "published"] == PUBLISHED[20]
    assert table.loc[26, "difference"] == pytest.approx(table.loc[26, "mean_tricks"] - 9.1)
    assert (table["lo"] <= table["mean_tricks"]).all()


def test_refusals():
    with pytest.raises(AnalysisError):
        hcp_notrump_tricks(0)
    with pytest.raises(AnalysisError):
        hcp_notrump_tricks(2, hcps=(50,))
