# One run that switches its read variant half-way: per time bin, the smallest and the
# median one-way latency each way, before and after the switch.
# Usage: gnuplot -c plots/variants_switch.gp IN.dat OUT.png|OUT.svg
# IN (written by `tscaudit variants`): "# key: value" lines, then one row per time bin,
# whitespace-separated:
#   # title: CPUs 0 -> 1: receive read rdtsc, then lfence_rdtsc
#   # switch_ms: 52.3              (optional: no switch line without it)
#   # first: rdtsc/rdtsc           (optional: the combination before the switch)
#   # second: rdtsc/lfence_rdtsc   (optional: the combination after it)
#   # columns: time_ms fwd_min_ticks fwd_p50_ticks rev_min_ticks rev_p50_ticks rtt_min_ticks
#   0.00 -12 201 35 190 210
# time_ms: since the first round; the others in ticks, signed (fwd and rev are
# cross-clock and can be negative). NaN in a value column = no rounds in that bin (a
# gap in the line). The lines also break where the series has no data: at the switch,
# and where a step of time_ms is more than 4 times the file's median step (a run that
# was held up between two bins); plots/gap_lines.awk puts a blank line there.
# The picture: forward t2 - t1 (blue) and reverse t4 - t3 (vermillion) latency, the
# per-bin minimum solid and the median thin and dashed, rtt minimum thin grey, a dot at
# each bin; a vertical line at the switch with the first combination named on its left
# and the second on its right; a line at 0. The y axis is symmetric-log (linear within about ±10 ticks, logarithmic
# beyond), so that negative minima under plain reads are visible beside tails of
# thousands of ticks.
# A malformed or empty file stops with "FILE:LINE: reason" (exit status 1).

vc_dirname(s) = (vc_q = strstrt(s, "/"), vc_q == 0 ? "" : s[1 : vc_q] . vc_dirname(s[vc_q + 1 :]))
vc_dir = vc_dirname(ARG0)
vc_argc = ARGC
vc_file = ARG1
vc_out = ARG2
vc_spec = "nNNNNN"
vc_blocks = 0
load vc_dir . "variants_common.gp"

sw_s = vc_info_num("switch_ms")
if (strstrt(sw_s, "error: ") == 1) exit error sw_s[8:]
first = vc_info("first")
second = vc_info("second")

t0 = vc_min(1)
t1 = vc_max(1) > t0 ? vc_max(1) : t0 + 1
set xrange [t0 : t1]
set xlabel "time since the first round (ms)"
set offsets 0, 0, 0, 0

# y over every value column (an all-NaN column reads 0 0).
vc_ylo = 0
vc_yhi = 0
do for [c = 2 : 6] {
  if (vc_min(c) < vc_ylo) { vc_ylo = vc_min(c) }
  if (vc_max(c) > vc_yhi) { vc_yhi = vc_max(c) }
}
# Headroom for the switch labels above the highest value.
vc_yhi = vc_g(vc_f(vc_yhi) + 0.12 * (vc_f(vc_yhi) - vc_f(vc_ylo < 0 ? vc_ylo : 0)) + 0.3)
@VC_SYMLOG_Y
set ylabel "latency per time bin (ticks; symmetric log, linear within ±10)"
set grid xtics ytics ls 101

if (sw_s ne "") {
  sw = real(sw_s)
  set arrow 2 from first sw, graph 0 to first sw, graph 1 nohead lc rgb "#404040" lw 1.5 dt 2 front
  if (first ne "") {
    set label 4 "← " . first at first sw, graph 0.965 right offset char -0.8, 0 font "sans,10" front \
        boxed
  }
  if (second ne "") {
    set label 5 second . " →" at first sw, graph 0.965 left offset char 0.8, 0 font "sans,10" front boxed
  }
  set style textbox opaque noborder margins 1, 1
}

set key outside right top vertical Left reverse samplen 3 spacing 1.2 font "sans,9"
blue = "#0072B2"
verm = "#D55E00"
# The rows with a blank line at each gap, where gnuplot breaks the lines: no line drawn
# across time without data.
sw_rows = "< awk" . (sw_s eq "" ? "" : " -v switch_at=" . sw_s) . " -f '" . vc_sq(vc_dir . "gap_lines.awk") \
          . "' '" . vc_sq(vc_file) . "'"
# A small dot at each bin, so that a bin alone between two gaps is seen too.
plot sw_rows using 1:2 with linespoints lw 1.8 pt 7 ps 0.3 lc rgb blue title "forward min", \
     sw_rows using 1:3 with linespoints lw 0.9 dt 2 pt 7 ps 0.2 lc rgb blue title "forward median", \
     sw_rows using 1:4 with linespoints lw 1.8 pt 7 ps 0.3 lc rgb verm title "reverse min", \
     sw_rows using 1:5 with linespoints lw 0.9 dt 2 pt 7 ps 0.2 lc rgb verm title "reverse median", \
     sw_rows using 1:6 with linespoints lw 0.9 pt 7 ps 0.2 lc rgb "#8C8C8C" title "rtt min"
