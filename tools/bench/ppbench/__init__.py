# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The benchmark suite behind `make bench` and `make bench-short`, by concern.

catalog   what the suite runs: the programs' tests, the designs, loop counts,
          the reference figures and targets
buildcfg  which designs a build directory has compiled in
runner    command lines, pinning, the warm-up and the rounds; bench-raw.txt
parse     one program's output -> records (the time_bench line format)
stats     the records of a run, medians, ratios, spread; the table's rows
verdicts  the acceptance judgements
report    the summary table, bench.csv, bench-summary.txt
plot      the chart (gnuplot)

tools/bench/run_bench.py is the command line. Python 3 standard library only.
"""


class BenchError(Exception):
    """A program failed, or its output does not say what it must: the suite
    exits 1."""
