"""Pure-Python twins of ``tekkasim.bits``."""

import math

M64 = (1 << 64) - 1


def popcount(x: int) -> int:
    return bin(x).count("1")


def lowest(x: int) -> int:
    return 64 if x == 0 else (x & -x).bit_length() - 1


def highest(x: int) -> int:
    return x.bit_length() - 1


def kth(x: int, k: int) -> int:
    ones = [i for i in range(64) if x >> i & 1]
    return ones[k]


class Rng:
    """splitmix64 with the same stream as ``tekkasim.bits.next_u64`` for the same seed."""

    def __init__(self, seed: int):
        self.state = int(seed) & M64

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def random_card(self, mask: int) -> int:
        return kth(mask, self.below(popcount(mask)))

    def mistake(self, rate: float) -> bool:
        """``bits.mistake``: one draw below 2**30 when ``rate`` > 0, True when it falls under ``rate``."""
        return rate > 0.0 and self.below(1 << 30) < rate * (1 << 30)

    def mistake_pick(self, steps: list[int], temperature: float) -> int:
        """``bits.mistake_pick`` over unpacked steps (15: never drawn); -1 when no choice is left."""
        live = [i for i, c in enumerate(steps) if c < 15]
        if not live:
            return -1
        lo = min(steps[i] for i in live)
        if temperature <= 0.0:
            return next(i for i in live if steps[i] == lo)
        weights = [math.exp(-(steps[i] - lo) * 0.125 / temperature) for i in live]
        total = 0.0
        for w in weights:
            total += w
        u = self.below(1 << 30) * (total / (1 << 30))
        for i, w in zip(live, weights, strict=True):
            u -= w
            if u < 0.0:
                return i
        return live[-1]


def pext(x: int, m: int) -> int:
    """Bits of x at the set positions of m, packed to the bottom."""
    out, k = 0, 0
    for i in range(64):
        if m >> i & 1:
            out |= (x >> i & 1) << k
            k += 1
    return out


def pdep(x: int, m: int) -> int:
    """The low bits of x spread to the set positions of m."""
    out, k = 0, 0
    for i in range(64):
        if m >> i & 1:
            out |= (x >> k & 1) << i
            k += 1
    return out
