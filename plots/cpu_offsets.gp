# The TSC offset of every CPU against the reference CPU, with its hard bounds: one column
# per CPU in topology order, so that a CPU whose counter is off stands out at any size
# (in a heatmap of 1024 CPUs its row and column are a few pixels).
# Usage: gnuplot -c plots/cpu_offsets.gp IN.dat OUT.png|OUT.svg
# IN: a file from analysis/render/cpu_offsets_text.cpp: "# key: value" lines (title, units,
# reference, columns, and the package and L3 groups as in the matrix files), then one row
# per CPU: position cpu estimate lo hi (NaN where unknown), and where the file's columns
# line names a sixth column, the CPU's offset group (0 the reference, -1 left out) with
# the legend lines "# groups: K", "# group_0: ..." up to "# group_K-1: ...",
# "# left_out: ..." and an optional "# y_range: LO HI". Read and checked with
# plots/dat_info.awk after plots/info_common.awk (needs awk, sh): a malformed file stops
# gnuplot with "FILE:LINE: reason" (exit status 1).
# The picture: x = position in topology order; a vertical bar from lo to hi (drawn where
# both bounds are known) and a point at the estimate; a line at 0; a black line at each
# package start and a thin grey one at each other L3 start (the L3 starts alone, black,
# where there is one package). Tick labels: CPU numbers up to 64 CPUs (every CPU up to
# 32); beyond, "package k" centred on each package and "L3 k" on each L3 domain wide
# enough for its label, as the heatmaps.
# Without groups: the point is red where the bounds exclude 0 (the CPU's counter provably
# differs from the reference's), blue otherwise; the y range covers every estimate and
# every known bound, and 0.
# With groups: the point takes its group's colour (the reference blue, the next six in
# six colours, the rest grey), each named in the key; a CPU left out is an open black
# circle. The y range is the file's y_range where it has one (it leaves out CPUs that
# drift far): a CPU left out beyond it is a triangle on its edge, its estimate beside it.

# ARG0 up to its last "/": the awk scripts lie beside this one.
co_dirname(s) = (co_q = strstrt(s, "/"), co_q == 0 ? "" : s[1 : co_q] . co_dirname(s[co_q + 1 :]))
co_dir = co_dirname(ARG0)
co_file = ARG1
co_out = ARG2
if (ARGC < 2) exit error "usage: gnuplot -c cpu_offsets.gp IN.dat OUT.png|OUT.svg"

# Shell quoting for system(): 'it'\''s' (a path may hold any character but NUL).
co_sq(s) = (co_p = strstrt(s, "'"), co_p == 0 ? s : s[1:co_p-1] . "'\\''" . co_sq(s[co_p+1:]))
co_spec = "nnNNN"
co_awk(args) = system("awk " . args . " -v spec=" . co_spec . " -f '" . co_sq(co_dir . "info_common.awk") \
                      . "' -f '" . co_sq(co_dir . "dat_info.awk") . "' '" . co_sq(co_file) . "' 2>&1")
co_info(want) = co_awk("-v want=" . want)
# A sixth column, the offset group, where the columns line names six.
co_grouped = words(co_info("columns")) == 6
if (co_grouped) { co_spec = "nnNNNn" }

co_table = co_info("table")
if (strstrt(co_table, "error: ") == 1) exit error co_table[8:]
# Anything but "N ..." is awk's own complaint (a missing or unreadable file).
if (co_table eq "" || strstrt("123456789", co_table[1:1]) == 0) \
  exit error "cannot read " . co_file . ": " . co_table
co_n = int(word(co_table, 1))
co_min(i) = real(word(co_table, 3 * i))
co_max(i) = real(word(co_table, 3 * i + 1))
co_title = co_info("title")
co_units = co_info("units")
co_ref = co_info("reference")
co_cpus = co_awk("-v want=column -v col=2")

# Canvas: a plot area of 28 px per CPU up to 32 CPUs, 4 px per CPU beyond, within
# [640, 1536] px; margins for the title, the key, the tick and axis labels.
co_area = co_n <= 32 ? co_n * 28 : co_n * 4
co_area = co_area < 640 ? 640 : (co_area > 1536 ? 1536 : co_area)
co_font_pt = 11
co_ext = strlen(co_out) >= 4 ? co_out[strlen(co_out)-3:] : ""
if (co_ext eq ".png") {
  set terminal pngcairo size co_area + 200, 640 font sprintf("sans,%d", co_font_pt) noenhanced
} else {
  if (co_ext eq ".svg") {
    set terminal svg size co_area + 200, 640 font sprintf("sans,%d", co_font_pt) noenhanced background rgb "white"
  } else {
    exit error "the output must end in .png or .svg: " . co_out
  }
}
set encoding utf8
set output co_out

set title co_title offset 0, 1.3
set ylabel "offset against CPU " . co_ref . " (" . co_units . ")"
set xlabel "CPU, in topology order"
set tics out nomirror scale 0.5
set border 3 lw 0.8
set lmargin 12
set rmargin 4
set bmargin 5
set tmargin 5
set key at graph 0.5, graph 1.01 center bottom horizontal maxrows 1 reverse Left samplen 1.5
# With groups: the key names each group (six in colour, the rest together) and the CPUs left
# out, three entries a row, the title raised above its rows.
co_ngroups = co_grouped ? int(co_info("groups")) : 0
co_shown = co_ngroups < 7 ? co_ngroups : 7
co_left = co_grouped ? co_info("left_out") : ""
co_keys = 1 + co_shown + (co_ngroups > 7 ? 1 : 0) + (co_left ne "" ? 1 : 0)
co_keyrows = int((co_keys + 2) / 3)
if (co_grouped) {
  set key at graph 0.5, graph 1.03 center bottom horizontal maxcols 3 reverse Left samplen 1.5 width 2
  set tmargin 5 + co_keyrows
  set title co_title offset 0, co_keyrows + 0.6
}

# y: every estimate and known bound, and 0, with room above and below; ±1 when all is 0
# (or unknown: a column with no number reads 0 0).
co_ylo = co_min(3) < co_min(4) ? co_min(3) : co_min(4)
co_yhi = co_max(3) > co_max(5) ? co_max(3) : co_max(5)
co_ylo = co_ylo < 0 ? co_ylo : 0
co_yhi = co_yhi > 0 ? co_yhi : 0
if (co_yhi - co_ylo > 0) {
  co_span = co_yhi - co_ylo
  co_ylo = co_ylo - 0.06 * co_span
  co_yhi = co_yhi + 0.06 * co_span
} else {
  co_ylo = -1
  co_yhi = 1
}
# The file's range, where it leaves out a CPU that drifts far from the groups.
co_range = co_grouped ? co_info("y_range") : ""
if (words(co_range) == 2) {
  co_ylo = real(word(co_range, 1))
  co_yhi = real(word(co_range, 2))
}
set yrange [co_ylo : co_yhi]
set xrange [-0.5 : co_n - 0.5]
set style line 101 lc rgb "#e4e4e4" lw 0.6 dt 1
set grid ytics ls 101
set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead back lc rgb "#707070" lw 1

# Topology groups: positions where each package and L3 domain begins, and its index.
co_pstarts = co_info("package_starts")
co_pids = co_info("package_ids")
co_lstarts = co_info("l3_starts")
co_lids = co_info("l3_ids")
co_np = words(co_pstarts)
co_nl = words(co_lstarts)
co_pstart(k) = k > co_np ? co_n : int(word(co_pstarts, k))   # k = co_np + 1: the end
co_lstart(k) = k > co_nl ? co_n : int(word(co_lstarts, k))
co_is_pstart(i) = sum [k = 1:co_np] (co_pstart(k) == i ? 1 : 0)
# L3 lines are worth drawing when there are more L3 domains than packages.
co_l3_level = co_nl > (co_np > 1 ? co_np : 1)
co_line(b, w, c) = sprintf("set arrow from %g, graph 0 to %g, graph 1 nohead back lc rgb '%s' lw %g", \
                           b - 0.5, b - 0.5, c, w)
do for [k = 2 : co_np] { eval co_line(co_pstart(k), 1.5, "black") }
if (co_l3_level) {
  do for [k = 2 : co_nl] {
    if (co_is_pstart(co_lstart(k)) == 0) {
      eval (co_np > 1 ? co_line(co_lstart(k), 0.6, "#909090") : co_line(co_lstart(k), 1.5, "black"))
    }
  }
}

# Tick labels. Up to 64 CPUs (or without packages), CPU numbers: every CPU up to 32;
# beyond, every step-th position (a power of two keeping at most 32) plus each group start
# not too near one. Beyond 64 CPUs, the groups: "L3 k" centred on each L3 domain wide
# enough for its label (turned when narrower than the text), "package k" centred on each
# package (below the L3 labels where there are some); short tics at the L3 starts, long
# ones at the package starts.
co_by_group = co_n > 64 && co_np > 0
set xtics () norotate center
if (!co_by_group) {
  co_step = 1
  while (co_n / co_step > 32) { co_step = co_step * 2 }
  co_bounds = co_l3_level ? co_lstarts : co_pstarts
  co_nb = words(co_bounds)
  co_near_bound(i) = sum [k = 1:co_nb] (abs(int(word(co_bounds, k)) - i) * 2 < co_step && int(word(co_bounds, k)) != i ? 1 : 0)
  do for [i = 0 : co_n - 1 : co_step] {
    if (i == 0 || co_near_bound(i) == 0) { set xtics add (word(co_cpus, i + 1) i) }
  }
  do for [k = 1 : co_nb] {
    co_b = int(word(co_bounds, k))
    set xtics add (word(co_cpus, co_b + 1) co_b)
  }
  if (co_n > 32) { set xtics rotate by 90 right }
} else {
  co_px = real(co_area) / co_n
  co_lmin = co_n
  do for [k = 1 : co_nl] { co_w = co_lstart(k + 1) - co_lstart(k); co_lmin = co_w < co_lmin ? co_w : co_lmin }
  co_l3_named = co_l3_level && co_lmin * co_px >= 2 * co_font_pt
  co_llen = 0
  do for [k = 1 : co_nl] { co_llen = strlen(word(co_lids, k)) + 3 > co_llen ? strlen(word(co_lids, k)) + 3 : co_llen }
  co_turned = co_lmin * co_px < (co_llen + 1) * 0.6 * co_font_pt * 1.33
  set tics scale 0, 0.5, 1.5
  if (co_l3_named) {
    do for [k = 1 : co_nl] {
      set xtics add ("L3 " . word(co_lids, k) (co_lstart(k) + co_lstart(k + 1) - 1) / 2.0)
    }
    if (co_turned) { set xtics rotate by 90 right }
  }
  co_xoff = co_l3_named ? (co_turned ? 0.6 * co_llen + 1.8 : 2.6) : 0
  if (co_l3_named) {
    set xlabel offset 0, (co_turned ? -2.6 : -1.6)
    set bmargin (co_turned ? 0.6 * co_llen + 8 : 7)
  }
  do for [k = 1 : co_np] {
    co_c = (co_pstart(k) + co_pstart(k + 1) - 1) / 2.0
    co_name = "package " . word(co_pids, k)
    if (co_l3_named) {
      set label 100 + k co_name at first co_c, graph 0 center offset 0, -co_xoff
    } else {
      set xtics add (co_name co_c)
    }
  }
  do for [k = 1 : co_np] { set xtics add ("" co_pstart(k) - 0.5 2) }
  if (co_l3_level) { do for [k = 1 : co_nl] { set xtics add ("" co_lstart(k) - 0.5 1) } }
}

# Points: large while few, small among many; red where the bounds exclude 0, and large at
# any size (one such CPU among 1024 must catch the eye). The bars pale where they crowd,
# so that they do not hide the points.
co_ps = co_n <= 64 ? 1.1 : (co_n <= 256 ? 0.7 : 0.45)
co_bar_lw = co_n <= 64 ? 1.5 : (co_n <= 256 ? 1 : 0.6)
co_bar_rgb = co_n <= 64 ? "#8da0cb" : "#c9d3e8"
# Whether the row's bounds exclude 0. valid() first: a NaN column referenced in a `using`
# expression makes the whole point undefined, and the estimate would not be drawn.
co_off(x) = (valid(4) && column(4) > 0) || (valid(5) && column(5) < 0)
if (!co_grouped) {
  plot co_file using 1:4:(0):($5 - $4) with vectors nohead lc rgb co_bar_rgb lw co_bar_lw title "hard bounds", \
       co_file using 1:(co_off(0) ? NaN : $3) with points pt 7 ps co_ps lc rgb "#2166ac" title "estimate", \
       co_file using 1:(co_off(0) ? $3 : NaN) with points pt 7 ps 1.4 lc rgb "#d7191c" \
         title "estimate, bounds exclude 0"
  exit
}
# Groups: the reference blue, then red, green, orange, purple, brown, pink; groups 7 and
# beyond grey. The groups but the reference, and the CPUs left out, are drawn large at any
# size: one CPU off among 1024 must catch the eye.
co_rgb(k) = word("#2166ac #d7191c #1a9641 #ff7f00 #7b3294 #a6611a #e7298a", k + 1)
co_gps(k) = k == 0 ? co_ps : 1.2
co_name(k) = co_info("group_" . k)
# A CPU left out beyond the y range is a black triangle on its edge, pointing the way,
# its estimate written beside it.
co_beyond(v) = v > co_yhi || v < co_ylo
co_edge(v) = v > co_yhi ? co_yhi : co_ylo
plot co_file using 1:4:(0):($5 - $4) with vectors nohead lc rgb co_bar_rgb lw co_bar_lw title "hard bounds", \
     for [k = 0 : co_shown - 1] co_file using 1:($6 == k ? $3 : NaN) with points pt 7 ps co_gps(k) \
       lc rgb co_rgb(k) title co_name(k), \
     co_file using 1:($6 >= 7 ? $3 : NaN) with points pt 7 ps co_gps(7) lc rgb "#777777" \
       title (co_ngroups > 7 ? sprintf("groups 7 to %d", co_ngroups - 1) : ""), \
     co_file using 1:($6 < 0 && !co_beyond($3) ? $3 : NaN) with points pt 6 ps 1.4 lw 1.5 lc rgb "#000000" \
       title co_left, \
     co_file using 1:($6 < 0 && $3 > co_yhi ? co_yhi : NaN) with points pt 9 ps 1.6 lc rgb "#000000" notitle, \
     co_file using 1:($6 < 0 && $3 < co_ylo ? co_ylo : NaN) with points pt 11 ps 1.6 lc rgb "#000000" notitle, \
     co_file using 1:($6 < 0 && co_beyond($3) ? co_edge($3) : NaN):(sprintf(" %+.0f", $3)) with labels left \
       offset 0.8, 0 notitle
