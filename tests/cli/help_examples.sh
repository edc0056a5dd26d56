#!/bin/bash
# The examples at the end of every command's --help work as written: each is run in a fresh
# directory (the commands in an order where an example's input comes from an earlier one:
# simulate and measure before analyze), except those that measure for minutes, named below.
# An example with a budget of minutes or hours runs with its budget cut to 5 s: its words and
# its answer within a budget are checked, and a budget of minutes buys only more visits
# (tests/cli/max_bound_visits.sh checks those). Every command must have at least one example
# run, and every command of `tscaudit --help` is in the list below. CPUs 0 and 1 only (taskset).
#   help_examples.sh TSCAUDIT WORK_DIR
set -u
tscaudit=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
# The examples name the tool as a user types it: a function of each example's shell.
export tscaudit
pin=()
command -v taskset >/dev/null && taskset -c 0,1 true 2>/dev/null && pin=(taskset -c 0,1)

# Measure for minutes, or until a signal: left out here.
long=(
  "tscaudit report"
  "tscaudit check"
  "tscaudit check --tolerance 15ns --format openmetrics > tsc.prom"
  "tscaudit monitor --cpus 0,1 --interval 10s --duration 1h --out pair.log"
  "tscaudit monitor --cpus 0,1 --duty 0.1 --out pair.log"
  "tscaudit variants"
  "tscaudit info --format json --ntp-seconds 10s"
)
is_long() {
  local l
  for l in "${long[@]}"; do [ "$1" = "$l" ] && return 0; done
  return 1
}

problems=0
# In an order where an example's input comes from an earlier one.
commands="simulate measure monitor analyze info matrix check compare state report variants"
for c in $commands; do
  ran=0
  if [ "$c" = compare ]; then
    # compare's examples read two runs of one machine: simulated here, CPU 1 moved in the second.
    topology="synthetic:package:1 core:2 pu:2"
    "$tscaudit" simulate --topology "$topology" --seed 1 --rounds 2000 --out before >/dev/null 2>&1 &&
      "$tscaudit" simulate --topology "$topology" --seed 2 --rounds 2000 --cpu-offset-ticks 1=400 --out after >/dev/null 2>&1 &&
      "$tscaudit" check --from before --format json >before.json 2>/dev/null
    "$tscaudit" check --from after --format json >after.json 2>/dev/null
    [ -s before.json ] && [ -s after.json ] || { echo "FAIL: compare's inputs not made"; problems=$((problems + 1)); }
  fi
  while IFS= read -r example; do
    [ -n "$example" ] || continue
    if is_long "$example"; then
      echo "skipped (measures for long): $example"
      continue
    fi
    # The timer's state, where no timer ran: the state command's other examples read one.
    if [ "$example" = "tscaudit state" ] && [ ! -e /var/lib/tscaudit/state ]; then
      echo "skipped (no state at /var/lib/tscaudit/state): $example"
      continue
    fi
    cut=$(sed -E 's/--budget [0-9.]+ ?(m|h)( |$)/--budget 5s\2/g' <<<"$example")
    if [ "$cut" != "$example" ]; then
      echo "run (its budget cut to 5 s): $example"
    else
      echo "run: $example"
    fi
    "${pin[@]}" bash -c "tscaudit() { \"\$tscaudit\" \"\$@\"; }; $cut" >"$c.$ran.out" 2>"$c.$ran.err"
    rc=$?
    ok=0
    [ $rc -eq 0 ] && ok=1
    # check and report answer with their exit code: 1 (not synchronized) and 5 (inconclusive)
    # are answers.
    [[ $example == "tscaudit check"* || $example == "tscaudit report"* || $example == "tscaudit compare"* ]] &&
      { [ $rc -eq 1 ] || [ $rc -eq 5 ]; } && ok=1
    if [ $ok -eq 0 ]; then
      echo "FAIL: '$example' exited $rc"
      tail -5 "$c.$ran.err"
      problems=$((problems + 1))
    fi
    ran=$((ran + 1))
  done < <("$tscaudit" "$c" --help | sed -n '/^Examples:$/,$p' |
    sed -n -e 's/^  \(tscaudit [^#]*[^# ]\) *#.*$/\1/p' -e 't' -e 's/^  \(tscaudit .*[^ ]\) *$/\1/p')
  if [ $ran -eq 0 ]; then
    echo "FAIL: $c: no example was run"
    problems=$((problems + 1))
  fi
done
# A command added to the tool and not to the list above fails here.
for listed in $("$tscaudit" --help | sed -n '/^Commands:$/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
  case " $commands " in
    *" $listed "*) ;;
    *) echo "FAIL: $listed: its examples are not run here"; problems=$((problems + 1)) ;;
  esac
done
((problems == 0)) || exit 1
echo "every command's examples work"
