#!/usr/bin/env bash
# Every command's text output starts with its answer and fits 100 columns
# (docs/commands.md, "Conventions"), one case per call:
#   text_output.sh TSCAUDIT WORKDIR DATADIR widths|first-lines
# widths: each command's standard output and standard error, line by line, no wider than
# 100 columns (UTF-8 characters, not bytes), and no number in exponent form ("1.035e+07",
# "5.684e-14"); a failure names the command and the line.
# first-lines: line 1 of check, matrix, analyze, variants and monitor's summary is the
# answer (a regex on the verdict words). Simulated input throughout, but info, variants,
# measure and monitor, which measure live with the fewest rounds: only widths and the first
# line's shape are checked there, never a timing. Exit 0: as documented; 1: not.
set -u
tscaudit=$1
work=$2
data=$3
case_name=$4
# The commands run once, in the widths case (the first-lines case needs it first: a CTest
# fixture), into $work/outputs; first-lines reads what they wrote.
dir="$work/outputs"
failures=0

fail() { echo "FAIL ($case_name): $*" >&2; failures=$((failures + 1)); }

# run NAME ARGS...: the command, run in $dir (so that a file named relative to it reads the
# same whatever the build directory's path, and wraps the same), its standard output in
# $dir/NAME.out, its standard error in $dir/NAME.err, its exit code in $dir/NAME.rc.
run() {
  local name=$1
  shift
  (cd "$dir" && "$tscaudit" "$@") >"$dir/$name.out" 2>"$dir/$name.err"
  echo $? >"$dir/$name.rc"
}

two_cpus=yes
[ "$(nproc)" -ge 2 ] || two_cpus=no

if [ "$case_name" = widths ] || [ ! -e "$dir/done" ]; then
rm -rf "$dir"
mkdir -p "$dir"
# Simulated inputs: a 2-CPU machine, a 256-CPU one (a sparse design), one pair's rounds,
# one round alone, and a monitor log with a step.
"$tscaudit" simulate --topology "synthetic:package:1 core:2 pu:1" --out "$dir/m2" >/dev/null 2>&1 ||
  fail "simulate m2"
"$tscaudit" simulate --topology "synthetic:package:2 core:64 pu:2" --rounds 100 --out "$dir/m256" >/dev/null 2>&1 ||
  fail "simulate m256"
"$tscaudit" simulate --rounds 20000 --out "$dir/pair.csv" >/dev/null 2>&1 || fail "simulate pair.csv"
# Early reads (evidence tables of raw rounds) and a step (segments, indented).
"$tscaudit" simulate --rounds 20000 --early-t2-rate 0.01 --early-t2-min-ticks 400 --early-t2-max-ticks 600 \
  --out "$dir/early.csv" >/dev/null 2>&1 || fail "simulate early.csv"
"$tscaudit" simulate --rounds 20000 --step-ticks 2000 --out "$dir/step.csv" >/dev/null 2>&1 || fail "simulate step.csv"
"$tscaudit" simulate --rounds 1 --out "$dir/one.csv" >/dev/null 2>&1 || fail "simulate one.csv"

run check2 check --from "$dir/m2"
run check256 check --from "$dir/m256"
run check256details check --from "$dir/m256" --details
run matrix2 matrix --from "$dir/m2"
run matrix256 matrix --from "$dir/m256"
run analyze_pair analyze pair.csv
run analyze_one analyze one.csv
run analyze_early analyze early.csv
run analyze_step analyze step.csv
cp "$data/monitor/step.log" "$dir/step.log" || fail "copy step.log"
run analyze_log analyze step.log
# A log cut short: the warning on standard error wraps as the text does.
cp "$data/monitor/cut_short.log" "$dir/cut_short.log" || fail "copy cut_short.log"
run analyze_cut analyze cut_short.log
run info info
# Plans: what --dry-run prints measures nothing; a budget too small for the plan on stderr.
run check_plan check --dry-run --cpus 0,1
run matrix_plan matrix --dry-run --cpus 0,1 --budget 0.001
run report_plan report --dry-run --cpus 0,1
run measure measure --cpus 0,0 --rounds 2000 --warmup 100 --out "$dir/measured.csv"
if [ "$two_cpus" = yes ]; then
  run variants variants --cpus 0,1 --rounds 4000 --passes 1 --warmup 100 --control-rounds 1000 --switch-rounds 1000
  run monitor monitor --cpus 0,1 --interval 0.5 --duration 1 --duty 0.2 --out "$dir/mon.log"
  # One round per ordered pair: too few to bound the offset, inconclusive.
  run check_one check --cpus 0,1 --visits 1 --rounds 1
fi

touch "$dir/done"
fi

case "$case_name" in
  widths)
    for f in "$dir"/*.out "$dir"/*.err; do
      name=$(basename "$f")
      # UTF-8 characters, not bytes: "±" and "θ" take one column each.
      perl -CSD -ne 'chomp; printf "%s line %d is %d columns: %s\n", $ARGV, $., length, $_ if length > 100' "$f" \
        >"$work/wide" || fail "perl failed on $name"
      if [ -s "$work/wide" ]; then
        fail "$name: text over 100 columns"
        sed 's/^/  /' "$work/wide" >&2
      fi
      # A digit, then e and an exponent: 1e+06, 2.5e-07 (a word such as "0x1e" has no sign).
      if grep -nE '[0-9]e[+-][0-9]' "$f" >"$work/exponent"; then
        fail "$name: a number in exponent form"
        sed 's/^/  /' "$work/exponent" >&2
      fi
    done
    ;;
  first-lines)
    first() { head -n 1 "$dir/$1"; }
    expect_first() {  # FILE REGEX
      local line
      line=$(first "$1")
      echo "$line" | grep -Eq "$2" || fail "$1: line 1 is not the answer: '$line' (expected /$2/)"
    }
    verdict='(synchronized to within|not synchronized:|inconclusive:|incomplete, no verdict:)'
    expect_first check2.out "^$verdict"
    expect_first check256.out "^synchronized to within ±[0-9.]+ ns \([0-9.]+ ticks\): "
    expect_first matrix2.out "^$verdict"
    expect_first matrix256.out "^$verdict"
    pair='(synchronized within the band|offset of|drifting by|unsafe reads:|offset stepped|too few rounds)'
    outcome='(synchronized within the band|synchronized; |not synchronized: |inconclusive: |incomplete, no verdict: )'
    expect_first analyze_pair.out "^pair\.csv: $outcome"
    expect_first analyze_early.out "^early\.csv: synchronized; unsafe reads: "
    expect_first analyze_step.out "^step\.csv: not synchronized: offset stepped by 2000 ticks"
    expect_first analyze_one.out '^one\.csv: inconclusive: too few rounds to bound the offset'
    tr '\n' ' ' <"$dir/analyze_one.out" | tr -s ' ' | grep -q 'too few rounds to bound the offset (1 round; at least 2 needed) run ' ||
      fail "analyze_one.out: the answer is not 'too few rounds to bound the offset (1 round; at least 2 needed)'"
    expect_first analyze_log.out "^step\.log: $pair"
    [ "$(cat "$dir/analyze_one.rc")" = 5 ] || fail "analyze of one round: exit $(cat "$dir/analyze_one.rc"), expected 5"
    [ "$(cat "$dir/check2.rc")" = 0 ] || fail "check of the simulated 2-CPU machine: exit $(cat "$dir/check2.rc")"
    expect_first measure.out '^tscaudit measure: 2000 rounds of CPU 0 -> CPU 0 \(status: complete\) written to'
    if [ "$two_cpus" = yes ]; then
      expect_first check_one.out '^inconclusive: too few rounds to bound the offset \(1 round; at least 2 needed\): '
      [ "$(cat "$dir/check_one.rc")" = 5 ] || fail "check of one round a pair: exit $(cat "$dir/check_one.rc"), expected 5"
      expect_first variants.out '^tscaudit variants: (recommended receive read: |no receive read to recommend)'
      # The summary is on standard error (the log went to a file), after the line that says
      # what runs and any warning.
      line=$(grep '^tscaudit monitor: ' "$dir/monitor.err" | grep -v -e '^tscaudit monitor: warning' \
        -e '^tscaudit monitor: measuring ' | head -n 1)
      echo "$line" | grep -Eq "^tscaudit monitor: ($pair|no verdict)" ||
        fail "monitor.err: the summary does not start with the answer: '$line'"
    fi
    ;;
  *) echo "unknown case $case_name" >&2; exit 2 ;;
esac
[ "$failures" = 0 ] || exit 1
echo "ok: $case_name"
