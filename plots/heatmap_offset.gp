# Heatmap of a signed matrix centred on zero, e.g. the TSC offset θ = TSC_b − TSC_a.
# Usage: gnuplot -c plots/heatmap_offset.gp IN.dat OUT.png|OUT.svg
# IN: a matrix file from analysis/render/matrix_text.cpp (format: see heatmap_common.gp; the
# package and L3 lines give the topology groups, drawn as black and grey lines).
# Colours: blue negative, white zero, red positive, symmetric so that equal colours mean
# equal magnitudes on both sides: over ±L where the file says "# colour_limit: L" (cells
# beyond L are drawn in the end colours, and the file's note under the title says so),
# else over ±max|v| (±1 when every measured cell is 0); grey = not measured. Values are
# written in the cells up to 16 CPUs.

# The shared part lies beside this script: ARG0 up to its last "/".
hm_dirname(s) = (hm_q = strstrt(s, "/"), hm_q == 0 ? "" : s[1 : hm_q] . hm_dirname(s[hm_q + 1 :]))
hm_dir = hm_dirname(ARG0)
hm_argc = ARGC
hm_file = ARG1
hm_out = ARG2
load hm_dir . "heatmap_common.gp"

hm_abs = abs(hm_min) > abs(hm_max) ? abs(hm_min) : abs(hm_max)
hm_abs = hm_abs > 0 ? hm_abs : 1
hm_bad_limit = hm_file . ": the colour limit '" . hm_limit . "' is not a positive number"
if (hm_limit ne "") {
  if (strstrt("0123456789.", hm_limit[1:1]) == 0) { exit error hm_bad_limit }
  hm_abs = real(hm_limit)
}
if (!(hm_abs > 0)) exit error hm_bad_limit
set cbrange [-hm_abs : hm_abs]
set palette defined (-1 "#2166ac", -0.5 "#92c5de", 0 "#ffffff", 0.5 "#f4a582", 1 "#b2182b")
hm_dark(v) = abs(v) > 0.7 * hm_abs

@HM_PLOT
