# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
#
# The chart of `make bench` (tools/bench/run_bench.py writes the data and
# calls this with -e "topdat='...'; botdat='...'; outfile='...';
# plottitle='...'; machine='...'; topmax=...; botmax=...; designs='a b';
# ndesigns=N; xdpdat='...'; xdpmax=...; linerate=...", the y ranges'
# tops: a decade above each panel's largest bar; the ring designs
# measured, their columns 2..N+1 of topdat; xdpdat empty when
# bench_xdp_redirect did not run, and then its panel is left out).
# Top: the page_pool tests, median TSC cycles per element, pagepool with
# each ring design beside the DPDK reference (where one applies) and the
# kernel's published x86 figures. Bottom: the page allocator, DMA mapping
# and peer tests. Log scale: the values span 1 to several hundred cycles.
# Third: bench_xdp_redirect's M packets/s per scenario, each DMA backend
# beside the 2018 mlx5 series' figure, the 2018 line rate as a line.
# "-" in the data is a missing bar. Plain text (noenhanced): test names
# keep their underscores.

xdp = strlen(xdpdat) > 0
set terminal pngcairo noenhanced size 1500,(xdp ? 1650 : 1150) font "Sans,10"
set output outfile
set datafile missing "-"
set multiplot layout (xdp ? 3 : 2),1 title plottitle."\n".machine font "Sans,11"

set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y 10
set grid ytics mytics
set ylabel "TSC cycles per element (log)"
set key outside top center horizontal maxrows 2 font "Sans,9"
set xtics rotate by 30 right font "Sans,9" nomirror

# Blues for pagepool's designs, in the order measured.
blues = "#08306b #1f77b4 #6baed6 #4292c6 #9ecae1 #2171b5 #c6dbef"
set title "page_pool: pagepool (each ring design) vs DPDK mempool vs the kernel (published)"
set yrange [0.5:topmax]
plot for [i=1:ndesigns] topdat using (column(i + 1)):xtic(1) \
        title "pagepool, ".word(designs, i) lc rgb word(blues, (i - 1) % 7 + 1), \
     ''     using (column(ndesigns + 2)) title "DPDK (fast_path: faster 1-object form; cross-CPU: same topology)" lc rgb "#d62728", \
     ''     using (column(ndesigns + 3)) title "kernel, Xeon E5-1650 v4" lc rgb "#2ca02c", \
     ''     using (column(ndesigns + 4)) title "kernel, EPYC 9684X (ibpb)" lc rgb "#98df8a"

set title "page allocator, DMA map+unmap (pagepool) and the peers (DPDK, glibc tuned)"
set key off
set yrange [0.5:botmax]
plot botdat using 2:xtic(1) lc rgb "#9467bd"

if (xdp) {
	set title "XDP_REDIRECT through a simulated NIC pair (bench_xdp_redirect): packets/s forwarded vs the 2018 mlx5 page_pool series"
	unset logscale y
	set ylabel "M packets/s"
	set yrange [0:xdpmax]
	set key on outside top center horizontal font "Sans,9"
	plot xdpdat using 2:xtic(1) title "pagepool, IOMMU backend" lc rgb "#1f77b4", \
	     ''     using 3 title "pagepool, direct DMA backend" lc rgb "#9ecae1", \
	     ''     using 4 title "2018 mlx5 series (hardware)" lc rgb "#2ca02c", \
	     linerate with lines dt 2 lc rgb "#d62728" title sprintf("2018 line rate, %g Mpps", linerate)
}

unset multiplot
