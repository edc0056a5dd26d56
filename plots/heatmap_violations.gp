# Heatmap of event counts per pair, e.g. causality violations or negative latencies.
# Usage: gnuplot -c plots/heatmap_violations.gp IN.dat OUT.png|OUT.svg
# IN: a matrix file from analysis/render/matrix_text.cpp (format: see heatmap_common.gp; the
# package and L3 lines give the topology groups, drawn as black and grey lines); the
# values are counts (>= 0).
# Colours: zero is white, so a clean pair shows nothing; any count is at least light red,
# darkening on a log scale, log10(1 + count), up to the largest count (colour box ticks
# at 0, 1, 10, 100, ...); grey = not measured. Counts are written in the cells up to
# 16 CPUs.

# The shared part lies beside this script: ARG0 up to its last "/".
hm_dirname(s) = (hm_q = strstrt(s, "/"), hm_q == 0 ? "" : s[1 : hm_q] . hm_dirname(s[hm_q + 1 :]))
hm_dir = hm_dirname(ARG0)
hm_argc = ARGC
hm_file = ARG1
hm_out = ARG2
load hm_dir . "heatmap_common.gp"

if (hm_min < 0) exit error hm_file . ": a negative count (" . gprintf("%g", hm_min) . ")"
hm_color(v) = log10(1 + v)
hm_top = hm_max > 0 ? log10(1 + hm_max) : log10(2)
set cbrange [0 : hm_top]
# Zero alone is white; the smallest count starts at a visible pink.
set palette defined (0 "#ffffff", 0.0001 "#fcbba1", 0.5 "#ef3b2c", 1 "#67000d")
set cblabel hm_units . " (log scale)"
set cbtics ("0" 0)
do for [k = 0 : ceil(hm_top) + 1] {
  if (log10(1 + 10**k) <= hm_top * 1.0001) { set cbtics add (sprintf("%.0f", 10**k) log10(1 + 10**k)) }
}
hm_dark(v) = hm_color(v) > 0.6 * hm_top

@HM_PLOT
