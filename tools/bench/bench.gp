# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# The chart of `make bench` (tools/bench/run_bench.py writes the data and
# calls this with -e "topdat='...'; botdat='...'; outfile='...';
# plottitle='...'; machine='...'; topmax=...; botmax=...", the y ranges'
# tops: a decade above each panel's largest bar).
# Top: the page_pool tests, median TSC cycles per element, pagepool with
# both ring designs beside the DPDK reference (where one applies) and the
# kernel's published x86 figures. Bottom: the page allocator, DMA mapping
# and peer tests. Log scale: the values span 1 to several hundred cycles.
# "-" in the data is a missing bar. Plain text (noenhanced): test names
# keep their underscores.

set terminal pngcairo noenhanced size 1500,1150 font "Sans,10"
set output outfile
set datafile missing "-"
set multiplot layout 2,1 title plottitle."\n".machine font "Sans,11"

set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y 10
set grid ytics mytics
set ylabel "TSC cycles per element (log)"
set key outside top center horizontal maxrows 2 font "Sans,9"
set xtics rotate by 30 right font "Sans,9" nomirror

set title "page_pool: pagepool (two ring designs) vs DPDK mempool vs the kernel (published)"
set yrange [0.5:topmax]
plot topdat using 2:xtic(1) title "pagepool, lanes (default)" lc rgb "#1f77b4", \
     ''     using 3 title "pagepool, ptr_ring (kernel design)" lc rgb "#6baed6", \
     ''     using 4 title "DPDK (fast_path: faster 1-object form; cross-CPU: same topology)" lc rgb "#d62728", \
     ''     using 5 title "kernel, Xeon E5-1650 v4" lc rgb "#2ca02c", \
     ''     using 6 title "kernel, EPYC 9684X (ibpb)" lc rgb "#98df8a"

set title "page allocator, DMA map+unmap (pagepool) and the peers (DPDK, glibc tuned)"
set key off
set yrange [0.5:botmax]
plot botdat using 2:xtic(1) lc rgb "#9467bd"

unset multiplot
