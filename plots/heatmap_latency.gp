# Heatmap of a non-negative latency matrix, e.g. rtt_min or rtt_p50 per pair (ticks or ns).
# Usage: gnuplot -c plots/heatmap_latency.gp IN.dat OUT.png|OUT.svg
# IN: a matrix file from analysis/render/matrix_text.cpp (format: see heatmap_common.gp; the
# package and L3 lines give the topology groups, drawn as black and grey lines).
# Colours: sequential, white at the smallest measured value to dark blue at the largest,
# so the fast pairs are light and the slow ones stand out (min ± 1 when all are equal);
# grey = not measured. Values are written in the cells up to 16 CPUs.

# The shared part lies beside this script: ARG0 up to its last "/".
hm_dirname(s) = (hm_q = strstrt(s, "/"), hm_q == 0 ? "" : s[1 : hm_q] . hm_dirname(s[hm_q + 1 :]))
hm_dir = hm_dirname(ARG0)
hm_argc = ARGC
hm_file = ARG1
hm_out = ARG2
load hm_dir . "heatmap_common.gp"

hm_lo = hm_min < hm_max ? hm_min : hm_min - 1
hm_hi = hm_min < hm_max ? hm_max : hm_max + 1
set cbrange [hm_lo : hm_hi]
set palette defined (0 "#ffffff", 0.25 "#c6dbef", 0.5 "#6baed6", 0.75 "#2171b5", 1 "#08306b")
hm_dark(v) = (v - hm_lo) > 0.6 * (hm_hi - hm_lo)

@HM_PLOT
