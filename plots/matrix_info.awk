# Reads a tscsync matrix file (written by analysis/render/matrix_text.cpp) for the heatmap
# scripts, which cannot parse comment lines themselves. Usage:
#   awk -v want=KEY -f matrix_info.awk FILE
#   want=title, units, boundaries: the value of the "# KEY: value" comment line above the
#       header (empty when absent)
#   want=labels: the CPU labels of the header line, without its "cpu" corner
#   want=shape: "N SKIP COUNT MIN MAX": N CPUs, SKIP lines up to and including the header
#       (gnuplot's `skip`), COUNT measured cells (not NaN), MIN and MAX over them (0 0
#       when none); or "error: REASON" when the file is not an N x N matrix of numbers.
# Works with mawk and gawk (Debian's awk is mawk).

function fail(reason) {
  if (err == "") err = FILENAME ":" FNR ": " reason
  exit
}

BEGIN { header = 0; rows = 0; count = 0; err = "" }

{ sub(/\r$/, "") }  # CRLF files: the \r would glue onto the last value

header == 0 && /^#/ {
  if (index($0, "# " want ":") == 1) {
    value = substr($0, length(want) + 4)
    sub(/^ +/, "", value)
    if (!(want in seen)) { seen[want] = 1; meta = value }
  }
  next
}

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
    if ($i !~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/) fail("'" $i "' is not a number")
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
