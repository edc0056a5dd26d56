# A monitor run over time (tscaudit analyze --plot on an interval log): three panels over
# one time axis.
# Usage: gnuplot -c plots/monitor_timeseries.gp IN.dat OUT.png|OUT.svg
# IN (written by `tscaudit analyze --plot DIR`): "# key: value" lines, then one row per
# interval, whitespace-separated:
#   # title: run.log: CPU 0 -> CPU 1, complete, k = 4
#   # xlabel: time into the run (s)        (or "interval" when the TSC frequency is unknown)
#   # offset_lo: -420                      the offset axis (ticks): what most bands span
#   # offset_hi: 260
#   # steps: 1234.5 3600.2                 (optional) times of proven offset steps
#   # bends: 200.1                         (optional) times where no single line fits but
#   #                                      the bands meet (not a proven step)
#   # moves: 900.7                         (optional) times where the intervals' estimates
#   #                                      shifted inside the bands (statistical, unproven)
#   # columns: time band_lo_ticks band_hi_ticks estimate_ticks line_ticks rtt_min_ticks rtt_p50_ticks rtt_p99_ticks rtt_p999_ticks rtt_max_ticks negatives self_inconsistent lost
#   5.0 -215 185 -15 -14.6 391 402 466 1240 30211 0 0 0
# time: the interval's middle (seconds into the run, or its number); the band (ticks)
# [-rev_k - q, fwd_k + q] the interval alone allows, its midpoint, and the fitted line of
# the piece it belongs to; rtt percentiles (ticks, > 0: NaN where the interval had no
# rounds or the value is <= 0, which a log axis cannot show); counts per interval of
# negative one-way latencies (both ways), of rounds with rtt < -2q, and of rounds lost
# because the queue was full. NaN in a band column = the interval kept fewer than k
# rounds (a gap).
# The picture: top, the offset: each interval's band (shaded), its midpoint (dots) and
# the fitted line per piece (black), clipped to [offset_lo, offset_hi]; middle, rtt
# min/p50/p99/p99.9/max on a log axis; bottom, the counts on a symmetric-log axis.
# Proven steps are solid vermillion lines across all panels, bends dashed grey ones,
# moves dotted grey ones.
# A malformed or empty file stops with "FILE:LINE: reason" (exit status 1).

vc_dirname(s) = (vc_q = strstrt(s, "/"), vc_q == 0 ? "" : s[1 : vc_q] . vc_dirname(s[vc_q + 1 :]))
vc_dir = vc_dirname(ARG0)
vc_argc = ARGC
vc_file = ARG1
vc_out = ARG2
vc_spec = "nNNNNNNNNNnnn"
vc_blocks = 0
vc_width = 1000
vc_height = 900
load vc_dir . "variants_common.gp"

xlabel = vc_info("xlabel")
if (xlabel eq "") xlabel = "time"
lo_s = vc_info_num("offset_lo")
if (strstrt(lo_s, "error: ") == 1) exit error lo_s[8:]
hi_s = vc_info_num("offset_hi")
if (strstrt(hi_s, "error: ") == 1) exit error hi_s[8:]
steps = vc_info("steps")
bends = vc_info("bends")
moves = vc_info("moves")
# Every time listed must be a number (the markers' x).
is_num(w) = (ok = strlen(w) > 0, sum [j = 1 : strlen(w)] (strstrt("0123456789+-.eE", w[j:j]) == 0 ? 1 : 0) == 0 && ok)
do for [list in "steps bends moves"] {
  v = value(list)
  do for [i = 1 : words(v)] {
    if (!is_num(word(v, i))) { exit error vc_file . ": the " . list . " line: '" . word(v, i) . "' is not a number" }
  }
}

t0 = vc_min(1)
t1 = vc_max(1) > t0 ? vc_max(1) : t0 + 1
set xrange [t0 : t1]
set offsets 0, 0, 0, 0
set grid xtics ytics ls 101

# The change markers, on every panel.
vermillion = "#D55E00"
do for [i = 1 : words(steps)] {
  s = real(word(steps, i))
  set arrow (10 + i) from first s, graph 0 to first s, graph 1 nohead lc rgb vermillion lw 1.6 front
}
do for [i = 1 : words(bends)] {
  s = real(word(bends, i))
  set arrow (1000 + i) from first s, graph 0 to first s, graph 1 nohead lc rgb "#8C8C8C" lw 1.2 dt 2 front
}
do for [i = 1 : words(moves)] {
  s = real(word(moves, i))
  set arrow (2000 + i) from first s, graph 0 to first s, graph 1 nohead lc rgb "#8C8C8C" lw 1.2 dt 3 front
}

unset title
set multiplot layout 3, 1 title vc_title font "sans,12" margins 0.09, 0.78, 0.07, 0.93 spacing 0, 0.05
set key outside right top vertical Left reverse samplen 2.5 spacing 1.15 font "sans,9"

# 1: the offset.
set format x ""
set xlabel ""
# Without the range lines: the bands' extremes (an all-NaN column reads 0 0: still a range).
ylo = lo_s ne "" ? real(lo_s) : vc_min(2)
yhi = hi_s ne "" ? real(hi_s) : vc_max(3)
if (yhi <= ylo) { ylo = ylo - 1; yhi = ylo + 2 }
set yrange [ylo : yhi]
set ylabel "offset b - a (ticks)"
plot vc_file using 1:2:3 with filledcurves lc rgb "#56B4E9" fillstyle transparent solid 0.35 noborder \
       title "band of each interval", \
     vc_file using 1:4 with points pt 7 ps 0.3 lc rgb "#0072B2" title "its midpoint", \
     vc_file using 1:5 with lines lw 2 lc rgb "#000000" title "fitted line", \
     (words(steps) > 0 ? NaN : 1/0) with lines lw 1.6 lc rgb vermillion title (words(steps) > 0 ? "offset step" : ""), \
     (words(bends) > 0 ? NaN : 1/0) with lines lw 1.2 dt 2 lc rgb "#8C8C8C" title (words(bends) > 0 ? "bend" : ""), \
     (words(moves) > 0 ? NaN : 1/0) with lines lw 1.2 dt 3 lc rgb "#8C8C8C" \
       title (words(moves) > 0 ? "estimate moved" : "")

# 2: rtt on a log axis.
set logscale y
rtt_hi = vc_max(10) > 0 ? vc_max(10) : 10
rtt_lo = vc_minpos(6) > 0 ? vc_minpos(6) : (vc_minpos(7) > 0 ? vc_minpos(7) : 1)
set yrange [rtt_lo / 1.5 : rtt_hi * 1.5]
set ylabel "rtt per interval (ticks)"
set format y "%.0s%c"
plot vc_file using 1:10 with lines lw 1 lc rgb vc_color(3) title "max", \
     vc_file using 1:9 with lines lw 1 lc rgb vc_color(4) title "p99.9", \
     vc_file using 1:8 with lines lw 1 lc rgb vc_color(2) title "p99", \
     vc_file using 1:7 with lines lw 1.4 lc rgb vc_color(0) title "p50", \
     vc_file using 1:6 with lines lw 1.4 lc rgb vc_color(6) title "min"
unset logscale y
set format y "% h"

# 3: counts, symmetric-log (linear up to 10).
set format x "% h"
set xlabel xlabel
vc_ylo = 0
vc_yhi = 0
do for [c = 11 : 13] { if (vc_max(c) > vc_yhi) { vc_yhi = vc_max(c) } }
if (vc_yhi <= 0) { vc_yhi = 10 }  # nothing counted: an axis from 0 to 10
@VC_SYMLOG_Y
set ylabel "rounds per interval"
plot vc_file using 1:11 with steps lw 1.2 lc rgb vc_color(0) title "negative one-way", \
     vc_file using 1:12 with steps lw 1.2 lc rgb vc_color(3) title "rtt < -2q", \
     vc_file using 1:13 with steps lw 1.2 lc rgb vc_color(2) title "lost (queue full)"
unset multiplot
