# Reads a tscaudit matrix file (written by analysis/render/matrix_text.cpp) for the heatmap
# scripts, which cannot parse comment lines themselves. Usage:
#   awk -v want=KEY -f info_common.awk -f matrix_info.awk FILE
#   want=title, units, boundaries, package_starts, package_ids, l3_starts, l3_ids: the
#       value of the "# KEY: value" comment line above the header (empty when absent)
#   want=labels: the CPU labels of the header line, without its "cpu" corner
#   want=shape: "N SKIP COUNT MIN MAX": N CPUs, SKIP lines up to and including the header
#       (gnuplot's `skip`), COUNT measured cells (not NaN), MIN and MAX over them (0 0
#       when none); or "error: REASON" when the file is not an N x N matrix of numbers.
# Works with mawk and gawk (Debian's awk is mawk). fail, is_number and read_meta, and the
# dropping of a CRLF's \r, are info_common.awk's.

BEGIN { header = 0; rows = 0; count = 0; err = "" }

header == 0 && /^#/ { read_meta(); next }

NF == 0 { next }  # a trailing empty line is harmless to gnuplot too

header == 0 {
  if ($1 != "cpu") fail("expected the header line 'cpu LABEL...', found '" $1 "'")
  header = 1
  skip = FNR
  n = NF - 1
  if (n < 1) fail("the header names no CPU")
  labels = $2
  for (i = 3; i <= NF; i++) labels = labels " " $i
  next
}

{
  rows++
  if (rows > n) fail("more than " n " rows")
  if (NF != n + 1) fail(NF " fields, expected " (n + 1) " (a row label and " n " values)")
  for (i = 2; i <= NF; i++) {
    if ($i == "NaN") continue
    if (!is_number($i)) fail("'" $i "' is not a number")
    v = $i + 0
    if (count == 0 || v < lo) lo = v
    if (count == 0 || v > hi) hi = v
    count++
  }
}

END {
  if (want == "shape") {
    if (err == "" && header == 0) err = FILENAME ": no header line 'cpu LABEL...'"
    if (err == "" && rows != n) err = FILENAME ": " rows " rows, expected " n
    if (err != "") { print "error: " err; exit }
    if (count == 0) { lo = 0; hi = 0 }
    printf "%d %d %d %.17g %.17g\n", n, skip, count, lo, hi
  } else if (want == "labels") {
    print labels
  } else {
    print meta
  }
}
