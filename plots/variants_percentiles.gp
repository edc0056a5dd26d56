# One-way latency percentile curves, one per (send, receive) combination, drawn the way
# HdrHistogram draws them: the tail stretched out to the right.
# Usage: gnuplot -c plots/variants_percentiles.gp IN.dat OUT.png|OUT.svg
# IN (written by `tscaudit variants`): "# key: value" lines, then one block per
# combination, blocks separated by two blank lines; a block's first line names it
# (SEND/RECV, read with columnheader(1)), then rows "percentile inverse_tail value":
#   # title: one-way latency percentiles, CPUs 0 and 1
#   # blocks: 3                      (optional; must match the blocks found)
#   rdtsc/rdtsc inverse_tail ticks
#   0 1 -61
#   50 2 201
#   99.999 100000 130175
# percentile in % (0 <= p < 100), inverse_tail = 1 / (1 - p/100) (>= 1), the one-way
# latency in ticks (signed: a negative one comes from the offset or from an early read).
# The picture: x = inverse_tail on a log axis labelled 0%, 50%, 90%, 99%, 99.9% ...;
# y = latency on a symmetric log axis (linear within about ±10 ticks, logarithmic
# beyond) so that negative minima and a tail of millions of ticks are both readable,
# with a line at 0. Colour tells one part of the name apart, dash and point shape the
# other (the part with more distinct values gets the colour; the receive read when
# equal). Up to 64 blocks: the key is outside the plot, in smaller type and more
# columns (and a larger canvas) when there are many.
# A malformed or empty file (or a block without rows) stops with "FILE:LINE: reason"
# (exit status 1).

vc_dirname(s) = (vc_q = strstrt(s, "/"), vc_q == 0 ? "" : s[1 : vc_q] . vc_dirname(s[vc_q + 1 :]))
vc_dir = vc_dirname(ARG0)
vc_argc = ARGC
vc_file = ARG1
vc_out = ARG2
vc_spec = "nnn"
vc_blocks = 1
vc_grow = 1  # a larger canvas for more than 32 blocks (their key)
load vc_dir . "variants_common.gp"

if (vc_min(1) < 0 || vc_max(1) >= 100) \
  exit error vc_file . ": a percentile outside [0, 100) (" . gprintf("%g", vc_min(1) < 0 ? vc_min(1) : vc_max(1)) . ")"
if (vc_min(2) < 1) exit error vc_file . ": an inverse_tail below 1 (" . gprintf("%g", vc_min(2)) . ")"

n = vc_nblocks
styles = vc_info("pairstyle")
color_of(i) = vc_color(int(word(styles, 2 * i + 1)))
dash_of(i) = int(word(styles, 2 * i + 2)) % 5 + 1
point_of(i) = word("7 5 9 11 13 1 2 3", int(word(styles, 2 * i + 2)) % 8 + 1) + 0

# x: 0% at 1, up to the next power of ten above the deepest tail (at least 90%).
xmax = 10**ceil(log10(vc_max(2)) - 1e-9)
xmax = xmax < 10 ? 10 : xmax
set logscale x 10
set xrange [1 : xmax]
set xtics ("0%%" 1, "50%%" 2, "90%%" 10)  # a tic label is a format: %% is a %
if (n > 32) { set xtics add ("" 2) }     # the key leaves the plot too narrow to label 0% and 50% apart
nines = "99"
do for [k = 2 : 9] {
  if (10**k <= xmax) { set xtics add (nines . "%%" 10**k) }
  nines = nines . (k == 2 ? ".9" : "9")
}
set mxtics 10
set xlabel "percentile (log scale of 1 / (1 - p))"

vc_ylo = vc_min(3)
vc_yhi = vc_max(3)
@VC_SYMLOG_Y
set ylabel "one-way latency (ticks; symmetric log scale, linear within ±10)"
set grid xtics ytics ls 101

# The key: outside on the right; smaller and in columns as the blocks add up.
key_pt = n <= 12 ? 9 : 8
key_rows = n <= 32 ? n : ceil(n / 2.0)
key_font = sprintf("sans,%d", key_pt)
key_spacing = n <= 12 ? 1.1 : (n <= 24 ? 0.9 : 1.05)
set key outside right top Left reverse samplen 2.5 spacing key_spacing font key_font maxrows key_rows \
    title "send/recv"
lw = n <= 12 ? 1.6 : (n <= 24 ? 1.2 : 0.9)
ps = n <= 12 ? 0.6 : 0.45

plot for [i = 0 : n - 1] vc_file index i using 2:3 with linespoints title columnheader(1) \
       lc rgb color_of(i) dt dash_of(i) pt point_of(i) ps ps lw lw
