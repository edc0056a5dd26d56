# Shared part of the variants_*.gp scripts; they `load` it, it is not run on its own.
#
# Input (ARG1): a whitespace-separated table with "# key: value" comment lines at the top
# (title and others), checked and summarised by plots/dat_info.awk after
# plots/info_common.awk (needs awk, sh): a malformed or empty file stops gnuplot here
# with "FILE:LINE: reason" (exit status 1).
# Output (ARG2): the terminal follows the extension: .png (pngcairo) or .svg (svg),
# 900 x 560 px unless the caller sets vc_width / vc_height; 1300 x 760 for more than 32
# blocks when the caller sets vc_grow (room for their key).
#
# Before loading, the caller sets vc_dir (its own directory with a trailing "/", or ""),
# copies its arguments into vc_argc, vc_file, vc_out (inside `load` ARGC and ARG1... read
# 0 and empty), and sets vc_spec (the column kinds, see dat_info.awk) and vc_blocks (1 for
# a file of blocks, else 0).
# Defined here:
#   vc_info(want)        dat_info.awk's answer for `want` (a "# key:" value, names, ...)
#   vc_info_num(key)     a numeric "# key:" value, "" when absent, or "error: ..."
#   vc_column(k)         the words of column k, one per row
#   vc_rows, vc_nblocks  rows (all blocks together) and blocks (1 without blocks)
#   vc_min(i), vc_max(i), vc_minpos(i)   column i over the file (see dat_info.awk)
#   vc_title             the "# title:" line
#   vc_color(i)          colour i (0-based, cycling) of the Okabe-Ito colour-blind-safe set
#   vc_f(y), vc_g(u)     the symmetric log: u = sgn(y) log10(1 + |y|/vc_C), and back
#   VC_SYMLOG_Y          a macro: with vc_ylo, vc_yhi set (data range, ticks), makes the y
#                        axis symmetric-log over it (0 included) with tics at 0, ±10^k
#                        and minor tics at ±2, 5 x 10^k (labelled too when the range
#                        spans few decades), and a line at 0

if (vc_argc < 2) exit error "usage: gnuplot -c SCRIPT.gp IN.dat OUT.png|OUT.svg"

# Shell quoting for system(): 'it'\''s' (a path may hold any character but NUL).
vc_sq(s) = (vc_p = strstrt(s, "'"), vc_p == 0 ? s : s[1:vc_p-1] . "'\\''" . vc_sq(s[vc_p+1:]))
vc_awk(args) = system("awk " . args . " -v spec=" . vc_spec . " -v blocks=" . vc_blocks \
                      . " -f '" . vc_sq(vc_dir . "info_common.awk") . "' -f '" . vc_sq(vc_dir . "dat_info.awk") \
                      . "' '" . vc_sq(vc_file) . "' 2>&1")
vc_info(want) = vc_awk("-v want=" . want)
# A numeric "# key:" value: the number as text, "" when absent, or "error: ..." (the
# caller stops on it).
vc_info_num(key) = vc_awk("-v num=1 -v want=" . key)
# The words of column k, one per row.
vc_column(k) = vc_awk("-v want=column -v col=" . k)

vc_table = vc_info("table")
if (strstrt(vc_table, "error: ") == 1) exit error vc_table[8:]
# Anything but "N ..." is awk's own complaint (a missing or unreadable file).
if (vc_table eq "" || strstrt("123456789", vc_table[1:1]) == 0) \
  exit error "cannot read " . vc_file . ": " . vc_table
vc_rows = int(word(vc_table, 1))
vc_nblocks = int(word(vc_table, 2))
vc_min(i) = real(word(vc_table, 3 * i))
vc_max(i) = real(word(vc_table, 3 * i + 1))
vc_minpos(i) = real(word(vc_table, 3 * i + 2))
vc_title = vc_info("title")

if (!exists("vc_width")) vc_width = 900
if (!exists("vc_height")) vc_height = 560
if (exists("vc_grow") && vc_nblocks > 32) { vc_width = 1300; vc_height = 760 }
vc_ext = strlen(vc_out) >= 4 ? vc_out[strlen(vc_out)-3:] : ""
if (vc_ext eq ".png") {
  set terminal pngcairo size vc_width, vc_height font "sans,10" noenhanced
} else {
  if (vc_ext eq ".svg") {
    set terminal svg size vc_width, vc_height font "sans,10" noenhanced background rgb "white"
  } else {
    exit error "the output must end in .png or .svg: " . vc_out
  }
}
set encoding utf8
set output vc_out

set title vc_title font "sans,12"
set tics out nomirror scale 0.6
set border 3 lw 0.8
# Grid lines: styles 101 (major) and 102 (minor); `set grid lc ...` would stay dotted.
set style line 101 lc rgb "#dcdcdc" lw 0.6 dt 1
set style line 102 lc rgb "#efefef" lw 0.5 dt 1
set grid ls 101, ls 102

# Okabe & Ito's set, without the yellow (too light on white): blue, vermillion, bluish
# green, reddish purple, orange, sky blue, black, grey.
vc_palette = "#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #000000 #8C8C8C"
vc_color(i) = word(vc_palette, int(i) % 8 + 1)

# The symmetric log axis: linear within about ±vc_C ticks, logarithmic beyond, so that a
# few negative ticks and a million-tick tail share one picture.
vc_C = 10.0
vc_f(y) = sgn(y) * log10(1 + abs(y) / vc_C)
vc_g(u) = sgn(u) * vc_C * (10**abs(u) - 1)
vc_tic_label(v) = (abs(v) >= 1e9 ? sprintf("%.0fG", v / 1e9) : abs(v) >= 1e6 ? sprintf("%.0fM", v / 1e6) : \
                   abs(v) >= 1e4 ? sprintf("%.0fk", v / 1e3) : sprintf("%.0f", v))
VC_SYMLOG_Y = "vc_ulo = vc_f(vc_ylo < 0 ? vc_ylo : 0); vc_uhi = vc_f(vc_yhi > 0 ? vc_yhi : 0); " \
  . "vc_upad = (vc_uhi - vc_ulo) * 0.04 > 0.1 ? (vc_uhi - vc_ulo) * 0.04 : 0.1; " \
  . "vc_ulo = vc_ulo - vc_upad; vc_uhi = vc_uhi + vc_upad; " \
  . "vc_few = vc_uhi - vc_ulo < 3.5; " \
  . "set nonlinear y via vc_f(y) inverse vc_g(y); set yrange [vc_g(vc_ulo) : vc_g(vc_uhi)]; " \
  . "set ytics ('0' 0); " \
  . "do for [vc_k = 1 : 10] { vc_v = 10.0**vc_k; " \
  . "  if (vc_f(vc_v) <= vc_uhi) { set ytics add (vc_tic_label(vc_v) vc_v) }; " \
  . "  if (-vc_f(vc_v) >= vc_ulo) { set ytics add (vc_tic_label(-vc_v) -vc_v) }; " \
  . "  do for [vc_m in '2 5'] { vc_w = vc_v * real(vc_m) / 10; " \
  . "    if (vc_w > 10 && vc_f(vc_w) <= vc_uhi) { set ytics add (vc_few ? vc_tic_label(vc_w) : '' vc_w vc_few ? 0 : 1) }; " \
  . "    if (vc_w > 10 && -vc_f(vc_w) >= vc_ulo) { set ytics add (vc_few ? vc_tic_label(-vc_w) : '' -vc_w vc_few ? 0 : 1) } } }; " \
  . "set arrow 100 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#404040' lw 1 back"
