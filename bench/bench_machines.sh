#!/bin/sh
# Offline analysis of whole simulated machines (bench/README.md, "Simulated machines"):
# for each CPU count, `tscaudit simulate --topology` writes the run directory of the plan
# `check` would run there (its default rounds), then `matrix --from DIR --out OUT`,
# `check --from DIR` and `report --from DIR --out REPORT` rebuild everything from it. Prints,
# per machine, the wall time and peak RSS of each (GNU time's "Maximum resident set size":
# the largest of the command and of the gnuplot runs it waits for) and the run directory's
# bytes on disk.
#
#   tscaudit_bench_machines [--tscaudit PATH] [--cpus 64,256,768,1024] [--dir DIR] [--keep]
#                          [--max-memory-gb G]
#
# --tscaudit  the binary (default: tscaudit beside this script)
# --cpus     the machines, CPU counts of the synthetic topologies below (default 64,256)
# --dir      where the run directories go (default: a new directory in $TMPDIR, removed)
# --keep     leave the run directories and outputs in --dir
# --max-memory-gb  caps the address space of matrix, check and report (ulimit -v, default 8): an
#            analysis that needs more stops with an allocation failure, and the table gives
#            its RSS when it stopped, instead of taking the memory of a shared machine
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tscaudit="$here/tscaudit"
sizes="64,256"
dir=""
keep=0
max_gb=8
while [ $# -gt 0 ]; do
  case "$1" in
    --tscaudit) tscaudit="$2"; shift 2 ;;
    --cpus) sizes="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --max-memory-gb) max_gb="$2"; shift 2 ;;
    *) echo "tscaudit_bench_machines: unknown argument '$1' (see the header of bench/bench_machines.sh)" >&2; exit 2 ;;
  esac
done
if [ ! -x /usr/bin/time ]; then
  echo "tscaudit_bench_machines: needs GNU time at /usr/bin/time (Debian package 'time') for the peak RSS" >&2
  exit 4
fi
[ -x "$tscaudit" ] || { echo "tscaudit_bench_machines: no tscaudit at $tscaudit (give --tscaudit)" >&2; exit 2; }
if [ -z "$dir" ]; then
  dir=$(mktemp -d "${TMPDIR:-/tmp}/tscaudit-bench-machines-XXXXXX")
  [ "$keep" = 1 ] || trap 'rm -rf "$dir"' EXIT
else
  mkdir -p "$dir"
fi

# The synthetic topology of each size: two packages, SMT siblings.
topology_of() {
  case "$1" in
    16) echo "package:2 core:4 pu:2" ;;
    64) echo "package:2 core:16 pu:2" ;;
    256) echo "package:2 core:64 pu:2" ;;
    768) echo "package:2 core:192 pu:2" ;;
    1024) echo "package:2 core:256 pu:2" ;;
    *) echo "tscaudit_bench_machines: no topology for $1 CPUs (16, 64, 256, 768 or 1024)" >&2; exit 2 ;;
  esac
}

# timed LABEL COMMAND...: runs COMMAND under GNU time, its address space capped at
# --max-memory-gb; sets wall_s, rss_mb and rc (rss_mb says when the cap stopped it).
timed() {
  label="$1"
  shift
  set +e
  /usr/bin/time -f "%e %M" -o "$dir/time.txt" \
    sh -c 'ulimit -v "$0" && exec "$@"' "$(( max_gb * 1024 * 1024 ))" "$@" > "$dir/$label.out" 2> "$dir/$label.err"
  rc=$?
  set -e
  wall_s=$(awk 'END { print $1 }' "$dir/time.txt")
  rss_mb=$(awk 'END { printf "%.0f MB", $2 / 1024 }' "$dir/time.txt")
  if [ "$rc" -gt 1 ] && grep -q -i "alloc" "$dir/$label.err"; then
    rss_mb="stopped by the $max_gb GB cap at $rss_mb ($(head -n 1 "$dir/$label.err"))"
  fi
}

echo "| CPUs | topology | design | ordered pairs | rounds | simulate | run directory | truth.json | matrix --from: wall | matrix --from: peak RSS | check --from: wall | check --from: peak RSS | check exit | report --from: wall | report --from: peak RSS | report.html |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for n in $(echo "$sizes" | tr ',' ' '); do
  topo=$(topology_of "$n")
  run="$dir/run-$n"
  rm -rf "$run" "$dir/out-$n" "$dir/report-$n"
  timed simulate-$n "$tscaudit" simulate --topology "synthetic:$topo" --out "$run"
  [ "$rc" = 0 ] || { echo "simulate of $n CPUs failed (exit $rc):" >&2; cat "$dir/simulate-$n.err" >&2; exit 3; }
  sim_s=$wall_s
  design=$(sed -n 's/.*CPUs, \([a-z-]*\) design, \([0-9]*\) ordered pairs, \([0-9]*\) visits of \([0-9]*\) rounds.*/\1 \2 \3 \4/p' "$dir/simulate-$n.err")
  set -- $design
  total_rounds=$(( $2 * $3 * $4 ))
  truth_bytes=$(stat -c %s "$run/truth.json")
  run_bytes=$(( $(du -sb "$run" | cut -f1) - truth_bytes ))
  timed matrix-$n "$tscaudit" matrix --from "$run" --out "$dir/out-$n"
  if [ "$rc" != 0 ] && ! echo "$rss_mb" | grep -q "^stopped"; then
    echo "matrix --from of $n CPUs failed (exit $rc):" >&2; cat "$dir/matrix-$n.err" >&2; exit 3
  fi
  m_s=$wall_s
  m_mb=$rss_mb
  timed check-$n "$tscaudit" check --from "$run"
  if [ "$rc" -gt 1 ] && ! echo "$rss_mb" | grep -q "^stopped"; then
    echo "check --from of $n CPUs failed (exit $rc):" >&2; cat "$dir/check-$n.err" >&2; exit 3
  fi
  c_s=$wall_s
  c_mb=$rss_mb
  c_rc=$rc
  # The report of that one run (report --from a run directory): its matrix, the check, the
  # heatmaps, report.md and report.html.
  timed report-$n "$tscaudit" report --from "$run" --out "$dir/report-$n"
  if [ "$rc" != 0 ] && ! echo "$rss_mb" | grep -q "^stopped"; then
    echo "report --from of $n CPUs failed (exit $rc):" >&2; cat "$dir/report-$n.err" >&2; exit 3
  fi
  html_mb="-"
  [ -f "$dir/report-$n/report.html" ] && html_mb="$(awk "BEGIN { printf \"%.1f\", $(stat -c %s "$dir/report-$n/report.html") / 1e6 }") MB"
  printf "| %s | \`%s\` | %s | %s | %s M | %s s | %s MB (%s B/round) | %s MB | %s s | %s | %s s | %s | %s | %s s | %s | %s |\n" \
    "$n" "$topo" "$1" "$2" "$(awk "BEGIN { printf \"%.1f\", $total_rounds / 1e6 }")" "$sim_s" \
    "$(awk "BEGIN { printf \"%.0f\", $run_bytes / 1e6 }")" "$(awk "BEGIN { printf \"%.2f\", $run_bytes / $total_rounds }")" \
    "$(awk "BEGIN { printf \"%.0f\", $truth_bytes / 1e6 }")" "$m_s" "$m_mb" "$c_s" "$c_mb" "$c_rc" \
    "$wall_s" "$rss_mb" "$html_mb"
  [ "$keep" = 1 ] || rm -rf "$run" "$dir/out-$n" "$dir/report-$n"
done
