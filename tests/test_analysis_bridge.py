"""The bridge validation's machinery (tekkasim.analysis.bridge) at a tiny size."""

import pytest

from tekkasim.analysis.bridge import PUBLISHED, balance, dds_pbn, hcp_notrump_tricks, hcp_table
from tekkasim.analysis.duplicate import AnalysisError
from tekkasim.cards import CardSet
from tekkasim.solver import solve

POINTS = {12: 4, 11: 3, 10: 2, 9: 1}


@pytest.fixture(scope="module")
def frame():
    return hcp_notrump_tricks(2, seed=4, hcps=(20, 26))


def test_sides_are_what_they_say(frame):
    assert sorted(frame["hcp"].value_counts().to_dict().items()) == [(20, 2), (26, 2)]
    for row in frame.itertuples():
        hands = [int(h, 16) for h in row.hands.split()]
        assert sum(bin(h).count("1") for h in hands) == 52 and len({*hands}) == 4
        pts = sum(POINTS.get(c % 13, 0) for s in (row.side, row.side + 2) for c in range(52) if hands[s] >> c & 1)
        assert pts == row.hcp
        # declarer d, opening lead from the next seat in play order, no trump
        t = [solve(hands, "NT", (d + 1) % 4, side=d) for d in (row.side, row.side + 2)]
        assert [row.tricks_d0, row.tricks_d1] == t
        # the headline declarer is the more balanced hand, ties to the side's first seat
        b0, b1 = balance(hands[row.side]), balance(hands[row.side + 2])
        assert row.declarer == (1 if b1 < b0 else 0) and row.tricks == t[row.declarer]
        assert row.tricks_mean == sum(t) / 2 and row.tricks_best == max(t)
        lengths = [
            sorted((bin(hands[s] >> 13 * k & 0x1FFF).count("1") for k in range(4)), reverse=True)
            for s in (row.side, row.side + 2)
        ]
        assert row.shapes == " ".join("".join(map(str, x)) for x in lengths)


def test_table(frame):
    table = hcp_table(frame)
    assert list(table.index) == [20, 26] and (table["n"] == 2).all()
    g = frame[frame["hcp"] == 26]
    assert table.loc[26, "mean_tricks"] == pytest.approx(g["tricks"].mean())
    assert table.loc[26, "se"] == pytest.approx(g["tricks"].std(ddof=1) / 2**0.5)
    assert table.loc[26, "best_declarer"] == pytest.approx(g["tricks_best"].mean())
    assert table.loc[26, "mean_of_two"] == pytest.approx(g["tricks_mean"].mean())
    assert table.loc[20, "published"] == PUBLISHED[20]
    assert table.loc[26, "difference"] == pytest.approx(table.loc[26, "mean_tricks"] - 9.1)
    assert (table["lo"] <= table["mean_tricks"]).all() and (table["mean_tricks"] <= table["hi"]).all()
    assert (table["best_declarer"] >= table["mean_of_two"]).all()


def test_balance_orders_shapes():
    hand = lambda text: CardSet.parse(text).mask  # noqa: E731
    flat = hand("AS KS QS JS AH KH QH AD KD QD AC KC QC")  # 4-3-3-3
    two = hand("AS KS QS JS AH KH QH JH AD KD AC KC QC")  # 4-4-3-2
    one = hand("AS KS QS JS TS 9S 8S AH KH QH JH AD KD")  # 7-4-2-0
    assert balance(flat) == 43 < balance(two) == 45 < balance(one)


def test_matches_dds_oracle(frame):
    """The notrump counts (and the seat mapping: our next seat in play order is bridge's left-hand
    opponent) agree with DDS, Bo Haglund's solver, on the sampled deals."""
    pytest.importorskip("endplay")
    from endplay.dds import calc_all_tables
    from endplay.types import Deal, Denom, Player

    deals = [[int(h, 16) for h in row.hands.split()] for row in frame.itertuples()]
    suits = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs]
    tables = calc_all_tables([Deal(dds_pbn(h)) for h in deals], exclude=suits)  # notrump only
    seats = [Player.north, Player.east, Player.south, Player.west]
    for row, table in zip(frame.itertuples(), tables, strict=True):
        dds = (table[Denom.nt, seats[row.side]], table[Denom.nt, seats[row.side + 2]])
        assert (row.tricks_d0, row.tricks_d1) == dds


def test_refusals():
    with pytest.raises(AnalysisError):
        hcp_notrump_tricks(0)
    with pytest.raises(AnalysisError):
        hcp_notrump_tricks(2, hcps=(50,))
