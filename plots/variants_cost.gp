# Read cost per call of each way of reading the time: a bar chart, one bar per clock.
# Usage: gnuplot -c plots/variants_cost.gp IN.dat OUT.png|OUT.svg
# IN (written by `tscaudit variants`): "# key: value" lines, then one row per clock, in
# the order to draw them, whitespace-separated:
#   # title: read cost per call on CPU 0
#   # tsc_hz: 2299998000           (optional; 0 or absent: no ns axis)
#   # columns: name p50_ticks min_ticks mean_ticks p99_9_ticks method
#   rdtsc 18.4 18.1 18.9 40.2 batch
#   CLOCK_MONOTONIC 52.1 50.3 53.0 110.0 batch
# The picture: a bar of the median (p50) per clock, labelled with its value, and an
# error bar from the minimum to p99.9; TSC read variants in blue, clock_gettime clocks
# (names starting with CLOCK_) in orange. The y axis is logarithmic (cpuid_rdtsc under
# KVM costs about 100 times rdtsc), in ticks on the left and in ns on the right
# (ticks / tsc_hz * 1e9). A value <= 0 cannot be drawn on a log axis: it is drawn at the
# bottom of the axis (the bar empty, the error bar cut there), its label still shows
# the value, and a note under the picture says so. The mean is not drawn. When the rows
# were measured by different methods, each tick label names its method.
# A malformed or empty file stops with "FILE:LINE: reason" (exit status 1).

# The shared part lies beside this script: ARG0 up to its last "/".
vc_dirname(s) = (vc_q = strstrt(s, "/"), vc_q == 0 ? "" : s[1 : vc_q] . vc_dirname(s[vc_q + 1 :]))
vc_dir = vc_dirname(ARG0)
vc_argc = ARGC
vc_file = ARG1
vc_out = ARG2
vc_spec = "snnnns"
vc_blocks = 0
load vc_dir . "variants_common.gp"

hz_s = vc_info_num("tsc_hz")
if (strstrt(hz_s, "error: ") == 1) exit error hz_s[8:]
hz = hz_s eq "" ? 0 : real(hz_s)

# The bottom of the log axis: a power of ten below every positive value drawn (p50, min,
# p99.9); the top leaves room above the tallest error bar.
lo_pos = 0
do for [c in "2 3 5"] {
  m = vc_minpos(int(c))
  if (m > 0 && (lo_pos == 0 || m < lo_pos)) { lo_pos = m }
}
hi = vc_max(5) > vc_max(2) ? vc_max(5) : vc_max(2)
if (lo_pos == 0) { lo_pos = 1 }
if (hi < lo_pos) { hi = lo_pos }
ybot = 10**floor(log10(lo_pos) - 0.3)
ytop = 10**(log10(hi) + 0.12 * (log10(hi) - log10(ybot)) + 0.15)
clamped = (vc_min(2) <= 0 || vc_min(3) <= 0 || vc_min(5) <= 0)
at_least(v) = v > ybot ? v : ybot

# One method for all rows: said once; several: each tick label names its own.
methods = vc_column(6)
one_method = 1
do for [i = 2 : words(methods)] { if (word(methods, i) ne word(methods, 1)) { one_method = 0 } }
tic(i) = one_method ? strcol(1) : strcol(1) . " (" . strcol(6) . ")"

is_clock(s) = strlen(s) >= 6 && s[1:6] eq "CLOCK_"
bar_color(s) = is_clock(s) ? 0xE69F00 : 0x0072B2
names = vc_info("names")
clocks = sum [i = 1 : words(names)] (is_clock(word(names, i)) ? 1 : 0)
# Key entries only for the kinds present (a title of "" leaves an entry out).
tsc_title = clocks < words(names) ? "TSC read variant" : ""
clock_title = clocks > 0 ? "clock_gettime clock" : ""
value_label(v) = v == 0 ? "0" : abs(v) >= 1000 ? sprintf("%.0f", v) : (abs(v) >= 100 ? sprintf("%.0f", v) : sprintf("%.1f", v))

set logscale y 10
set yrange [ybot : ytop]
set xrange [-0.6 : vc_rows - 0.4]
set ylabel "ticks per read (log scale)"
set xlabel "clock"
set format y "%g"
set mytics 10
set grid ytics mytics ls 101, ls 102
set xtics rotate by 30 right nomirror scale 0
if (vc_rows > 14) { set xtics font "sans,8" }
if (hz > 0) {
  set border 11 lw 0.8
  # Not `set link`: gnuplot 5.4 cannot link to a log axis. The same range in ns instead.
  set logscale y2 10
  set y2range [ybot / hz * 1e9 : ytop / hz * 1e9]
  set y2tics out nomirror scale 0.6 format "%g"
  set my2tics 10
  set y2label "ns per read"
}
set key top left Left reverse samplen 1.5 spacing 1.1 box lc rgb "#c0c0c0" opaque
set style fill solid 0.85 noborder
note = ""
if (one_method) { note = "measured by: " . word(methods, 1) . "; " }
note = note . "bar: median (p50, labelled); error bar: min to p99.9"
if (clamped) { note = note . "; values <= 0 are drawn at the bottom of the axis" }
set label 1 note at screen 0.01, screen 0.02 left font "sans,8" textcolor rgb "#505050"
set bmargin 7.5

# Bars from the bottom of the axis to p50; error bars min..p99.9; the p50 value inside
# the bar on a white tag, just under the error bar's lower end (not under the axis).
set style textbox opaque noborder margins 1.5, 0.8
tag_y(p50, mn) = (t = (mn < p50 ? at_least(mn) : at_least(p50)) / (ytop / ybot)**0.05, \
                  t > ybot * (ytop / ybot)**0.04 ? t : ybot * (ytop / ybot)**0.04)
plot vc_file using 0:(at_least($2)):($0 - 0.35):($0 + 0.35):(ybot):(at_least($2)):(bar_color(strcol(1))):xtic(tic(0)) \
       with boxxyerror lc rgb variable notitle, \
     keyentry with boxes fc rgb "#0072B2" fs solid 0.85 title tsc_title, \
     keyentry with boxes fc rgb "#E69F00" fs solid 0.85 title clock_title, \
     vc_file using 0:(at_least($3)):(0):(at_least($5) - at_least($3)) with vectors nohead lc rgb "black" \
       lw 1.2 title "min to p99.9", \
     vc_file using ($0 - 0.08):(at_least($3)):(0.16):(0) with vectors nohead lc rgb "black" lw 1.2 notitle, \
     vc_file using ($0 - 0.08):(at_least($5)):(0.16):(0) with vectors nohead lc rgb "black" lw 1.2 notitle, \
     vc_file using 0:(tag_y($2, $3)):(value_label($2)) with labels boxed center font "sans,9" notitle
