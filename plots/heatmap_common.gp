# Shared part of the heatmap_*.gp scripts; they `load` it, it is not run on its own.
#
# Input (ARG1): a matrix file from analysis/render/matrix_text.cpp: "# key: value" comment lines
# (title, units, boundaries), the header line "cpu L0 L1 ...", then one row per initiator
# "La v v v ..." (row = initiator a, column = responder b), NaN = not measured. The
# topology groups come from the "# package_starts:", "# package_ids:", "# l3_starts:" and
# "# l3_ids:" lines (positions, 0-based in the file's row order, not CPU numbers, where each
# group begins, and its hwloc logical index): lines before the groups, and beyond 64 CPUs
# the tick labels (plots/README.md, "Matrix files for gnuplot"). A file without them gets
# one level of lines from its "# boundaries: I J ..." line. The comment lines are read with
# plots/matrix_info.awk, after plots/info_common.awk (needs awk, sh).
# Output (ARG2): the terminal follows the extension: .png (pngcairo) or .svg (svg).
#
# Before loading, the caller sets hm_dir (its own directory with a trailing "/", or ""),
# and copies its arguments into hm_argc, hm_file, hm_out: inside `load` ARGC and ARG1...
# read 0 and empty.
# After loading, the caller sets the palette and cbrange, may redefine
#   hm_color(v): the number a cell is coloured by (default: v itself),
#   hm_dark(v):  1 when the cell's colour is dark enough to need a white value label,
# and then runs the plot with  @HM_PLOT
# Variables set here: hm_n (CPUs), hm_count (measured cells), hm_min, hm_max
# (over the measured cells; 0 0 when none), hm_units, hm_title, hm_limit (the file's
# "# colour_limit:", "" when it has none), hm_note (its "# note:", drawn under the title).

if (hm_argc < 2) exit error "usage: gnuplot -c SCRIPT.gp IN.dat OUT.png|OUT.svg"

# Shell quoting for system(): 'it'\''s' (a path may hold any character but NUL).
hm_sq(s) = (hm_p = strstrt(s, "'"), hm_p == 0 ? s : s[1:hm_p-1] . "'\\''" . hm_sq(s[hm_p+1:]))
hm_info(want) = system("awk -v want=" . want . " -f '" . hm_sq(hm_dir . "info_common.awk") \
                       . "' -f '" . hm_sq(hm_dir . "matrix_info.awk") . "' '" . hm_sq(hm_file) . "' 2>&1")

hm_shape = hm_info("shape")
if (strstrt(hm_shape, "error: ") == 1) exit error hm_shape
# Anything but "N ..." is awk's own complaint (a missing or unreadable file).
if (hm_shape eq "" || strstrt("123456789", hm_shape[1:1]) == 0) \
  exit error "cannot read " . hm_file . ": " . hm_shape
hm_n = int(word(hm_shape, 1))
hm_skip = int(word(hm_shape, 2))
hm_count = int(word(hm_shape, 3))
hm_min = real(word(hm_shape, 4))
hm_max = real(word(hm_shape, 5))
hm_title = hm_info("title")
hm_units = hm_info("units")
# A signed heatmap's file may say where its colours end ("# colour_limit:", empty when it
# does not) and what they mean ("# note:", parts separated by "; "): the note goes under
# the title, one part a line.
hm_limit = hm_info("colour_limit")
hm_note = hm_info("note")
hm_lines(s) = (hm_p = strstrt(s, "; "), hm_p == 0 ? s : s[1:hm_p-1] . "\n" . hm_lines(s[hm_p+2:]))
hm_labels = hm_info("labels")
hm_bounds = hm_info("boundaries")

# Canvas sized by the matrix: square cells in a plot area of 80 px per cell up to 4 CPUs
# and 50 px up to 16 (room for the value labels), at least 200 px; beyond 16, 6 px per
# cell within [400, 1024] px, so that a large matrix stays a picture a page shows near its
# own size (256 CPUs: 4 px a cell, 1354 x 1214 px in all). Margins around the plot area
# for the title, tick labels, axis labels and the colour box. Text at 13 pt up to 4 CPUs
# (a small picture shown at its size) and beyond 64 CPUs (a large one shown smaller),
# else 11 pt.
hm_area = hm_n <= 4 ? hm_n * 80 : (hm_n <= 16 ? hm_n * 50 : hm_n * 6)
hm_area = hm_n <= 16 ? (hm_area < 200 ? 200 : hm_area) : (hm_area < 400 ? 400 : (hm_area > 1024 ? 1024 : hm_area))
hm_font_pt = (hm_n > 64 || hm_n <= 4) ? 13 : 11
# The title: the file's title, then its note one part a line. Where a part of the note is
# wider than the canvas, the parts are cut again after each ": "; the canvas is then
# widened to the longest line (about 0.6 em a character), and heightened by a line for each
# line beyond three. Up to 16 CPUs the title is 11 pt, else the text's size.
hm_title_pt = hm_n <= 16 ? 11 : hm_font_pt
hm_char_px = 0.6 * hm_title_pt * 4.0 / 3
hm_cut(s) = (hm_ca = strstrt(s, "; "), hm_cb = strstrt(s, ": "), \
             hm_ca == 0 ? hm_cb : (hm_cb == 0 ? hm_ca : (hm_ca < hm_cb ? hm_ca : hm_cb)))
hm_lines2(s) = (hm_c = hm_cut(s), hm_c == 0 ? s : \
                s[1:hm_c - 1] . (s[hm_c:hm_c] eq ":" ? ":" : "") . "\n" . hm_lines2(s[hm_c + 2:]))
hm_text = hm_lines(hm_note)
# hm_long: the longest line of hm_text, in characters; hm_nlines: its lines.
HM_MEASURE = "hm_rest = hm_text; hm_long = 0; hm_nlines = 0; " \
  . "while (strlen(hm_rest) > 0) { hm_q3 = strstrt(hm_rest, \"\\n\"); " \
  . "hm_len = hm_q3 == 0 ? strlen(hm_rest) : hm_q3 - 1; hm_long = hm_len > hm_long ? hm_len : hm_long; " \
  . "hm_nlines = hm_nlines + 1; hm_rest = hm_q3 == 0 ? '' : hm_rest[hm_q3 + 1:] }"
@HM_MEASURE
hm_text = hm_note eq "" ? hm_title : hm_title . "\n" . \
          (hm_long * hm_char_px + 40 > hm_area + 330 ? hm_lines2(hm_note) : hm_lines(hm_note))
@HM_MEASURE
hm_width = hm_long * hm_char_px + 40 > hm_area + 330 ? int(hm_long * hm_char_px + 40) : hm_area + 330
hm_height = hm_area + 190 + (hm_nlines > 3 ? int((hm_nlines - 3) * 1.3 * hm_title_pt * 4.0 / 3) : 0)
hm_ext = strlen(hm_out) >= 4 ? hm_out[strlen(hm_out)-3:] : ""
if (hm_ext eq ".png") {
  set terminal pngcairo size hm_width, hm_height font sprintf("sans,%d", hm_font_pt) noenhanced
} else {
  if (hm_ext eq ".svg") {
    set terminal svg size hm_width, hm_height font sprintf("sans,%d", hm_font_pt) noenhanced
  } else {
    exit error "the output must end in .png or .svg: " . hm_out
  }
}
set encoding utf8
set output hm_out

set title hm_text font sprintf("sans,%d", hm_title_pt)
set xlabel "responder b (column)"
set ylabel "initiator a (row)"
set cblabel hm_units offset 1.5
set xrange [-0.5 : hm_n - 0.5]
set yrange [hm_n - 0.5 : -0.5]   # reversed: row 0 at the top, like the matrix is written
set size ratio -1                # square cells
set tics out nomirror scale 0.5
set cbtics out
set border lw 0.8
unset key

# Topology groups, from the "# package_starts:", "# package_ids:", "# l3_starts:" and
# "# l3_ids:" lines (positions where each group begins, the first 0, and its hwloc logical
# index); a file without them (written before they existed) has only "# boundaries:".
hm_pstarts = hm_info("package_starts")
hm_pids = hm_info("package_ids")
hm_lstarts = hm_info("l3_starts")
hm_lids = hm_info("l3_ids")
hm_np = words(hm_pstarts)
hm_nl = words(hm_lstarts)
hm_groups = hm_np + hm_nl > 0
hm_pstart(k) = k > hm_np ? hm_n : int(word(hm_pstarts, k))   # k = hm_np + 1: the end
hm_lstart(k) = k > hm_nl ? hm_n : int(word(hm_lstarts, k))
hm_is_pstart(i) = sum [k = 1:hm_np] (hm_pstart(k) == i ? 1 : 0)
# The L3 domains are worth drawing when there are more of them than packages (not one L3
# per package, where their lines would repeat the package lines).
hm_l3_level = hm_nl > (hm_np > 1 ? hm_np : 1)

# Tick labels. Up to 64 CPUs, CPU numbers: every CPU up to 32 CPUs; beyond, every step-th
# position (a power of two that keeps at most 32 labels) plus each group start, dropping
# step labels too near one. Beyond 64 CPUs, where CPU numbers would be too small to read,
# the groups the file names: "L3 k" centred on each L3 domain (when the domains are wide
# enough for a line of text) and "package k" centred on each package, the L3 domains
# marked by short tics and the packages by long ones. A file that names no package keeps
# the CPU numbers at every size.
hm_by_group = hm_n > 64 && hm_np > 0
hm_step = 1
while (hm_n / hm_step > 32) { hm_step = hm_step * 2 }
hm_nb = words(hm_bounds)
hm_near_bound(i) = sum [k = 1:hm_nb] (abs(int(word(hm_bounds, k)) - i) * 2 < hm_step ? 1 : 0)
set xtics () rotate by (hm_n > 16 ? 90 : 0) right
set ytics ()
if (hm_n <= 16) { set xtics norotate center }
if (!hm_by_group) {
  do for [i = 0 : hm_n - 1 : hm_step] {
    if (i == 0 || hm_near_bound(i) == 0) {
      set xtics add (word(hm_labels, i + 1) i)
      set ytics add (word(hm_labels, i + 1) i)
    }
  }
  do for [k = 1 : hm_nb] {
    hm_b = int(word(hm_bounds, k))
    set xtics add (word(hm_labels, hm_b + 1) hm_b)
    set ytics add (word(hm_labels, hm_b + 1) hm_b)
  }
} else {
  # Plot-area pixels per CPU, and the narrowest L3 domain: its label needs a line height.
  hm_px = real(hm_area) / hm_n
  hm_lmin = hm_n
  do for [k = 1 : hm_nl] { hm_w = hm_lstart(k + 1) - hm_lstart(k); hm_lmin = hm_w < hm_lmin ? hm_w : hm_lmin }
  hm_l3_named = hm_l3_level && hm_lmin * hm_px >= 2 * hm_font_pt
  # Major tics carry the centred labels with no mark (scale 0); level 2 marks the package
  # starts, level 1 (minor) the L3 starts.
  set tics scale 0, 0.5, 1.5
  set xtics norotate center
  if (hm_l3_named) {
    do for [k = 1 : hm_nl] {
      hm_c = (hm_lstart(k) + hm_lstart(k + 1) - 1) / 2.0
      set xtics add ("L3 " . word(hm_lids, k) hm_c)
      set ytics add ("L3 " . word(hm_lids, k) hm_c)
    }
    # L3 labels horizontal where they fit their domain (about 0.6 em per character).
    hm_llen = 0
    do for [k = 1 : hm_nl] { hm_llen = strlen(word(hm_lids, k)) + 3 > hm_llen ? strlen(word(hm_lids, k)) + 3 : hm_llen }
    if (hm_lmin * hm_px < (hm_llen + 1) * 0.6 * hm_font_pt * 1.33) { set xtics rotate by 90 right }
  }
  if (hm_l3_named) {
    # Room for the package labels between the tic labels and the axis labels.
    set xlabel offset 0, -1.8
    set ylabel offset -2.5, 0
    set lmargin hm_llen + 8
  }
  do for [k = 1 : hm_np] {
    hm_c = (hm_pstart(k) + hm_pstart(k + 1) - 1) / 2.0
    hm_name = "package " . word(hm_pids, k)
    if (hm_l3_named) {
      # Beyond the L3 labels: below the x axis, left of the y axis (turned).
      hm_xoff = hm_lmin * hm_px < (hm_llen + 1) * 0.6 * hm_font_pt * 1.33 ? 0.6 * hm_llen + 1.8 : 2.6
      set label 100 + 2 * k hm_name at first hm_c, graph 0 center offset 0, -hm_xoff
      set label 101 + 2 * k hm_name at graph 0, first hm_c center rotate by 90 offset -(hm_llen + 2.5), 0
    } else {
      set xtics add (hm_name hm_c)
      set ytics add (hm_name hm_c)
    }
  }
  do for [k = 1 : hm_np] {
    set xtics add ("" hm_pstart(k) - 0.5 2)
    set ytics add ("" hm_pstart(k) - 0.5 2)
  }
  if (hm_l3_level) {
    do for [k = 1 : hm_nl] {
      set xtics add ("" hm_lstart(k) - 0.5 1)
      set ytics add ("" hm_lstart(k) - 0.5 1)
    }
  }
}

# Not measured (NaN) cells are left out of the image: a grey square behind it shows them.
set object 1 rectangle from -0.5, -0.5 to hm_n - 0.5, hm_n - 0.5 behind \
    fillcolor rgb "#c8c8c8" fillstyle solid noborder
if (hm_count < hm_n * hm_n) {
  set label 1 "grey: not measured" at screen 0.99, screen 0.015 right font sprintf("sans,%d", hm_font_pt - 2)
}

# Thin cell borders while cells are big enough to tell apart; group boundaries on top.
if (hm_n <= 32) {
  do for [i = 1 : hm_n - 1] {
    set arrow from i - 0.5, -0.5 to i - 0.5, hm_n - 0.5 nohead front lc rgb "#a0a0a0" lw 0.4
    set arrow from -0.5, i - 0.5 to hm_n - 0.5, i - 0.5 nohead front lc rgb "#a0a0a0" lw 0.4
  }
}
# Group lines: black at each package start, thinner and grey at each other L3 start; where
# the file names only one package, the L3 lines are drawn as package lines (one level of
# groups). A file without group lines draws its "# boundaries:" alone.
hm_thick = hm_n > 64 ? 1.2 : 2
hm_thin = hm_n > 64 ? 0.5 : 1
hm_line(b, w, c) = sprintf("set arrow from %g, -0.5 to %g, %g nohead front lc rgb '%s' lw %g; " \
                           . "set arrow from -0.5, %g to %g, %g nohead front lc rgb '%s' lw %g", \
                           b - 0.5, b - 0.5, hm_n - 0.5, c, w, b - 0.5, hm_n - 0.5, b - 0.5, c, w)
if (hm_groups) {
  do for [k = 2 : hm_np] { eval hm_line(hm_pstart(k), hm_thick, "black") }
  if (hm_l3_level) {
    do for [k = 2 : hm_nl] {
      if (hm_is_pstart(hm_lstart(k)) == 0) {
        eval (hm_np > 1 ? hm_line(hm_lstart(k), hm_thin, "#505050") : hm_line(hm_lstart(k), hm_thick, "black"))
      }
    }
  }
} else {
  do for [k = 1 : hm_nb] { eval hm_line(int(word(hm_bounds, k)), hm_thick, "black") }
}

# Value labels in the cells up to 16 CPUs: integers as integers, others to 3 digits.
hm_color(v) = v
hm_dark(v) = 0
hm_label(v) = v != v ? "" : v == 0 ? "0" : (abs(v) >= 1e5 ? sprintf("%.2g", v) : \
              (v == floor(v) ? sprintf("%.0f", v) : (abs(v) >= 100 ? sprintf("%.0f", v) : \
              (abs(v) >= 10 ? sprintf("%.1f", v) : sprintf("%.2g", v)))))
hm_label_pt = hm_n <= 4 ? 14 : (hm_n <= 8 ? 11 : 8)

# The cells: in an SVG of up to 64 CPUs one filled rectangle each (`pixels`), crisp in
# every viewer at any zoom; otherwise one image of N x N pixels (an SVG of 64 x 64
# rectangles is about 0.5 MB, one of 256 x 256 would be 7 MB). Browsers smooth an image
# they scale up, so tscaudit marks the <image> of an SVG image-rendering: pixelated
# (app/plot.cpp); an SVG drawn by hand from more than 64 CPUs lacks that mark.
hm_cells = (hm_ext eq ".svg" && hm_n <= 64) ? "with image pixels" : "with image"
HM_PLOT = "plot hm_file matrix skip hm_skip every ::1 using ($1 - 1):2:(hm_color($3)) " . hm_cells
if (hm_n <= 16) {
  HM_PLOT = HM_PLOT . ", hm_file matrix skip hm_skip every ::1 using ($1 - 1):2:(hm_label($3)):(hm_dark($3) ? 0xffffff : 0x000000) with labels textcolor rgb variable font sprintf('sans,%d', hm_label_pt)"
}
