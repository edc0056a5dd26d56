# What a receive read costs against how often it breaks causality: a labelled scatter.
# Usage: gnuplot -c plots/variants_tradeoff.gp IN.dat OUT.png|OUT.svg
# IN (written by `tscaudit variants`): "# key: value" lines, then one row per receive
# variant, whitespace-separated:
#   # title: cost against causality violations, send rdtsc
#   # columns: recv cost_p50_ticks violations_per_million violations one_way_latencies min_rtt_ticks orders_earlier_loads
#   rdtsc 18.4 3.5 7 2000000 88 0
#   lfence_rdtsc 35.2 0 0 2000000 424 1
# The picture: one point per receive variant, x = its read cost (p50, ticks, log axis),
# y = causality violations per million one-way latencies (linear, from 0; the 0 line is
# lifted off the bottom border so that points on it stay whole); a filled circle for a
# read that orders earlier loads (orders_earlier_loads 1), a triangle for one that does
# not (0); each point labelled with its name (labels lifted above one another where they
# would overlap). Columns 4 to 6 are checked but not drawn. A cost <= 0 cannot be drawn
# on a log axis: it is drawn at the left edge and a note says so. When no combination
# has a violation, a note says that too.
# A malformed or empty file stops with "FILE:LINE: reason" (exit status 1).

# The shared part lies beside this script: ARG0 up to its last "/".
vc_dirname(s) = (vc_q = strstrt(s, "/"), vc_q == 0 ? "" : s[1 : vc_q] . vc_dirname(s[vc_q + 1 :]))
vc_dir = vc_dirname(ARG0)
vc_argc = ARGC
vc_file = ARG1
vc_out = ARG2
vc_spec = "snnnnnb"
vc_blocks = 0
load vc_dir . "variants_common.gp"

if (vc_min(3) < 0) exit error vc_file . ": a negative violation rate (" . gprintf("%g", vc_min(3)) . ")"

# x: log, from a bit below the cheapest to room for the labels right of the dearest.
names = vc_info("names")
longest = 0
do for [i = 1 : words(names)] { if (strlen(word(names, i)) > longest) { longest = strlen(word(names, i)) } }
cost_lo = vc_minpos(2) > 0 ? vc_minpos(2) : 1
cost_hi = vc_max(2) > cost_lo ? vc_max(2) : cost_lo
area_w = 780.0  # plot area, px (about)
area_h = 400.0
char_w = 6.5    # label character width and line height, px
line_h = 14.0
xlo = log10(cost_lo) - 0.25
xhi = log10(cost_hi) + 0.15
xhi = xhi + (longest + 2) * (xhi - xlo) * char_w / (area_w - (longest + 2) * char_w)
xfloor = 10**(xlo + 0.02)
at_least(v) = v > xfloor ? v : xfloor
clamped = vc_min(2) <= 0

# y: linear from 0; labels need about a line above their points.
rate_hi = vc_max(3) > 0 ? vc_max(3) : 1
yhi = rate_hi * 1.15
yline = yhi * line_h / area_h
xchar = (xhi - xlo) * char_w / area_w  # decades of x per character
levels = vc_awk(sprintf("-v want=levels -v xcol=2 -v ycol=3 -v xfloor=%.17g -v xchar=%.17g -v yline=%.17g", \
                        xfloor, xchar, yline))
# Room for the lifted labels: each label's top is (level + 1.1) lines above its point.
top_level = 0
do for [i = 1 : vc_rows] { if (int(word(levels, i)) > top_level) { top_level = int(word(levels, i)) } }
yhi_labels = rate_hi + (top_level + 1.3) * yline
yhi = yhi > yhi_labels ? yhi : yhi_labels
ylo = -0.05 * yhi

# A "nice" tic step from 0: 1, 2 or 5 x 10^k, about 5 tics.
raw = yhi / 5
mag = 10**floor(log10(raw))
ystep = raw / mag < 1.5 ? mag : (raw / mag < 3.5 ? 2 * mag : (raw / mag < 7.5 ? 5 * mag : 10 * mag))

set logscale x 10
set xrange [10**xlo : 10**xhi]
set yrange [ylo : yhi]
set ytics 0, ystep
# Tic labels at 1, 2 and 5 x 10^k: a cost range is often under one decade.
set xtics ()
do for [k = floor(xlo) : ceil(xhi)] {
  do for [m in "1 2 5"] {
    t = real(m) * 10**k
    if (log10(t) >= xlo && log10(t) <= xhi) { set xtics add (gprintf("%g", t) t) }
  }
}
set mxtics 10
set grid xtics ytics mxtics ls 101, ls 102
set xlabel "receive read cost per call, p50 (ticks, log scale)"
set ylabel "causality violations per million one-way latencies"
set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lc rgb "#808080" lw 1 back
set key top right Left reverse spacing 1.2 box lc rgb "#c0c0c0" opaque

if (vc_max(3) == 0) {
  set label 2 "no causality violations in any combination" at graph 0.5, graph 0.5 center font "sans,12" \
      textcolor rgb "#404040"
}
if (clamped) {
  set bmargin 5
  set label 3 "costs <= 0 are drawn at the left edge" at screen 0.01, screen 0.02 left font "sans,8" \
      textcolor rgb "#505050"
}

level(i) = real(word(levels, int(i) + 1))
plot vc_file using (at_least($2)):($7 == 1 ? $3 : 1/0) with points pt 7 ps 1.6 lc rgb "#0072B2" \
       title "orders earlier loads", \
     vc_file using (at_least($2)):($7 == 0 ? $3 : 1/0) with points pt 9 ps 1.9 lc rgb "#D55E00" \
       title "does not order earlier loads (may read early)", \
     vc_file using (at_least($2)):($3):(level($0) > 0 ? at_least($2) * (10**(0.8 * xchar) - 1) : 1/0): \
       ((level($0) + 0.45) * yline) with vectors nohead lc rgb "#909090" lw 0.7 notitle, \
     vc_file using (at_least($2) * 10**xchar):($3 + (level($0) + 0.6) * yline):1 with labels left \
       font "sans,9" notitle
