#!/usr/bin/env bash
# The progress line (docs/commands.md, "Conventions"): each command that can take a while, run
# on a pseudo-terminal (script -qc), shows its phase's line, rewritten in place (a carriage
# return, the line, erase to its end) and gone when done; the same command with standard error
# to a file writes no progress at all. One case per call:
#   progress.sh TSCAUDIT WORKDIR terminal|no-terminal
# The inputs are small, so $TSCAUDIT_PROGRESS_AFTER=0 shows the line from the first step (the
# default waits 2 s): what is checked is the line's words and that it is erased, never a
# timing. Live measuring (check, variants, monitor on CPUs 0 and 1) only where there are two
# CPUs. Exit 0: as documented; 1: not.
set -u
tscaudit=$1
work=$2
case_name=$3
failures=0
fail() { echo "FAIL ($case_name): $*" >&2; failures=$((failures + 1)); }

rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
"$tscaudit" simulate --topology "synthetic:package:2 core:2 pu:2" --rounds 2000 --out m8 >/dev/null 2>&1 ||
  fail "simulate m8"
two_cpus=yes
[ "$(nproc)" -ge 2 ] || two_cpus=no

# NAME|PHASE (the words the line must hold)|ARGS (shell words)
cases=(
  "simulate|simulate: simulating 4 CPUs: |simulate --topology 'synthetic:package:1 core:4 pu:1' --rounds 2000 --out s4"
  "check|check: reading and analysing the run: |check --from m8"
  "matrix|matrix: reading and analysing the run: |matrix --from m8"
  "matrix_pictures|matrix: drawing the pictures: |matrix --from m8 --out mo"
  "report|report: reading and analysing the run: |report --from m8 --out ro"
)
if [ $two_cpus = yes ]; then
  cases+=(
    "check_live|check: measuring: |check --cpus 0,1 --rounds 2000 --visits 2"
    "variants|variants: measuring the read variants: |variants --cpus 0,1 --rounds 4000 --passes 1 --warmup 100 --control-rounds 1000 --switch-rounds 1000"
    "monitor|monitor: monitoring: |monitor --cpus 0,1 --interval 0.5 --duration 1.5 --duty 0.2 --out mon.log"
  )
fi

for entry in "${cases[@]}"; do
  IFS='|' read -r name phase args <<<"$entry"
  rm -rf s4 mo ro mon.log
  if [ "$case_name" = terminal ]; then
    # script runs the command on a new pseudo-terminal: its standard error is a terminal.
    TSCAUDIT_PROGRESS_AFTER=0 TERM=xterm script -qec "$(printf %q "$tscaudit") $args" /dev/null </dev/null \
      >"$name.tty" 2>&1
    rc=$?
    # 0 and 1 are answers (synchronized or not); anything else failed.
    [ $rc -le 1 ] || { fail "$name: exit $rc: $(tr -d '\r' <"$name.tty" | tail -n 3)"; continue; }
    grep -aqF $'\r'"  $phase" "$name.tty" ||
      fail "$name: no progress line '  $phase...' on the terminal: $(tr '\r\033' '|~' <"$name.tty" | head -c 600)"
    grep -aqF "elapsed" "$name.tty" || fail "$name: the progress line says no elapsed time"
    # Gone when done: the last line drawn is erased (carriage return, erase to the end of line)
    # before the next output, and no line of the terminal ends in a progress line.
    grep -aqF $'\r\033[K' "$name.tty" || fail "$name: the progress line is never erased"
    if tr -d '\033' <"$name.tty" | awk '{ sub(/\r$/, "") } /\r  [a-z]+: [^\r]*elapsed[^\r]*$/ { bad = 1 } END { exit !bad }'; then
      fail "$name: a line of the terminal still ends with the progress line"
    fi
    # No line of the progress is wider than 100 columns.
    if tr '\r' '\n' <"$name.tty" | grep -a 'elapsed' | awk 'length($0) > 103 { bad = 1 } END { exit !bad }'; then
      fail "$name: a progress line is wider than 100 columns"
    fi
  else
    TSCAUDIT_PROGRESS_AFTER=0 eval "\"\$tscaudit\" $args" </dev/null >"$name.out" 2>"$name.err"
    rc=$?
    [ $rc -le 1 ] || { fail "$name: exit $rc: $(tail -n 3 "$name.err")"; continue; }
    if grep -aq $'\r' "$name.err" || grep -aq 'elapsed' "$name.err" || grep -aq $'\033' "$name.err"; then
      fail "$name: progress on standard error that is not a terminal: $(grep -a -m1 'elapsed' "$name.err")"
    fi
  fi
done
[ $two_cpus = yes ] || echo "progress ($case_name): one CPU: the live measuring (check, variants, monitor) not run"
if [ $failures -ne 0 ]; then
  echo "progress ($case_name): $failures failures" >&2
  exit 1
fi
echo "progress ($case_name): ${#cases[@]} commands as documented"
