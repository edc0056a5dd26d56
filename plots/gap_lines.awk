# The rows of a time series (column 1 the time), with a blank line wherever the series
# has no data: before the first row at or after the switch (-v switch_at=T, optional) and
# before a row whose step from the previous row's time is more than `factor` (default 4)
# times the median step of the file. gnuplot ends a line drawn `with lines` at a blank
# line, so no line is drawn across a gap as if there were data in it. Comment and blank
# lines are left out; the rows are printed as they are.
# Usage: awk [-v switch_at=T] [-v factor=F] -f gap_lines.awk FILE
# POSIX awk only (no gawk extensions); tested with mawk, Debian's awk.

{ sub(/\r$/, "") }
/^[ \t]*#/ || /^[ \t]*$/ { next }
{ n++; row[n] = $0; t[n] = $1 + 0 }

END {
  if (factor == "") factor = 4
  # The median step: the steps sorted (insertion sort: a few hundred rows), the lower middle.
  m = 0
  for (i = 2; i <= n; i++) {
    d = t[i] - t[i - 1]
    j = m
    while (j > 0 && step[j] > d) { step[j + 1] = step[j]; j-- }
    step[j + 1] = d
    m++
  }
  limit = m > 0 && step[int((m + 1) / 2)] > 0 ? factor * step[int((m + 1) / 2)] : -1
  switched = switch_at == ""
  for (i = 1; i <= n; i++) {
    gap = i > 1 && limit > 0 && t[i] - t[i - 1] > limit
    if (!switched && t[i] >= switch_at + 0) {
      switched = 1
      if (i > 1) gap = 1
    }
    if (gap) print ""
    print row[i]
  }
}
