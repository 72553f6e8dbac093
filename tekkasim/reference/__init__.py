"""Pure-Python twins of the compiled kernels, written to be obviously correct rather than fast.

Tests use them as the oracle for the kernels; the benchmarks use them as the reference speed.
"""
