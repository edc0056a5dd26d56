#!/usr/bin/env bash
# The report of this machine, as far as the tool goes today: the platform facts, one
# measured pair in both roles with the default (fenced) receive and with plain rdtsc on
# both sides, and the analysis of every run. `tscsync report` replaces this script.
#   scripts/report.sh BUILD/tscsync REPORT_DIR [ROUNDS]
set -euo pipefail
bin=$1
dir=$2
rounds=${3:-1000000}
mkdir -p "$dir"

# The first two CPUs this process may use (taskset syntax from /proc/self/status).
allowed=$(awk '/^Cpus_allowed_list:/ {print $2}' /proc/self/status)
cpus=()
IFS=, read -ra parts <<<"$allowed"
for part in "${parts[@]}"; do
  if [[ $part == *-* ]]; then
    for ((c = ${part%-*}; c <= ${part#*-}; c++)); do cpus+=("$c"); done
  else
    cpus+=("$part")
  fi
done
a=${cpus[0]}
b=${cpus[1]:-${cpus[0]}}  # one CPU only: the same-CPU control run

"$bin" info >"$dir/info.txt"
"$bin" info --format json >"$dir/info.json"

runs=()
measure() {  # name, then measure options
  local name=$1
  shift
  echo "== tscsync measure $* --rounds $rounds" >&2
  local rc=0
  "$bin" measure "$@" --rounds "$rounds" --out "$dir/$name.csv" 2>"$dir/$name.txt" || rc=$?
  cat "$dir/$name.txt" >&2
  if ((rc != 0)); then
    echo "report: tscsync measure failed (exit $rc); see above" >&2
    exit "$rc"
  fi
  runs+=("$name")
}
measure "pair_${a}_${b}" --cpus "$a,$b"
if [[ $a != "$b" ]]; then
  measure "pair_${b}_${a}" --cpus "$b,$a"
fi
measure "pair_${a}_${b}_plain_rdtsc" --cpus "$a,$b" --variant rdtsc

csvs=()
for name in "${runs[@]}"; do csvs+=("$dir/$name.csv"); done
"$bin" analyze "${csvs[@]}" --out "$dir/analysis.txt"
"$bin" analyze "${csvs[@]}" --format json --out "$dir/analysis.json"
"$bin" analyze "${csvs[@]}" --format csv --out "$dir/analysis.csv"

{
  echo "# tscsync report of $(hostname)"
  echo
  echo "Generated $(date -u +%Y-%m-%dT%H:%M:%SZ) by \`make report\`. Every round is in the .csv files"
  echo "(tscsync-run/1 format); their analysis is in analysis.txt, analysis.json and analysis.csv."
  echo "The all-pairs matrix, the variant comparison and the heatmaps are still to come."
  echo
  echo "## Platform"
  echo
  echo '```'
  cat "$dir/info.txt"
  echo '```'
  for name in "${runs[@]}"; do
    echo
    echo "## $name"
    echo
    echo '```'
    cat "$dir/$name.txt"
    echo '```'
  done
  echo
  echo "## Analysis"
  echo
  echo '```'
  cat "$dir/analysis.txt"
  echo '```'
} >"$dir/report.md.tmp"
mv "$dir/report.md.tmp" "$dir/report.md"
echo "report: $dir/report.md" >&2
