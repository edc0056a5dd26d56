# Shared part of matrix_info.awk and dat_info.awk, loaded before either:
#   awk ... -f info_common.awk -f matrix_info.awk FILE
# It drops the \r of CRLF line ends before any rule of the script sees a line, and defines
#   fail(reason)   keeps the first "FILE:LINE: reason" in `err` and ends the input
#   is_number(s)   whether s is a decimal number as gnuplot reads one (no NaN, no hex)
#   read_meta()    on a "# WANT: value" comment line (WANT the -v want=... of the call),
#                  keeps the value of the first such line in `meta`
# POSIX awk only (no gawk extensions); tested with mawk, Debian's awk.

function fail(reason) {
  if (err == "") err = FILENAME ":" FNR ": " reason
  exit
}

function is_number(s) {
  return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/
}

function read_meta(   value) {
  if (index($0, "# " want ":") == 1) {
    value = substr($0, length(want) + 4)
    sub(/^ +/, "", value)
    if (!(want in seen)) { seen[want] = 1; meta = value }
  }
}

{ sub(/\r$/, "") }  # CRLF files: the \r would glue onto the last value
