#!/usr/bin/env bash
# SIGINT and SIGTERM in the commands that measure or make runs (docs/commands.md, "Conventions"),
# one case per call:   signals.sh TSCAUDIT WORKDIR CASE
# Each command says what it kept, exits 3, and leaves no temporary file and no empty output
# directory; a signal before measuring begins is seen as one a moment later; a signal that
# ends a command while gnuplot draws leaves no gnuplot and no picture behind; a reader of
# standard output that goes away ends the command quietly (exit 141), its files whole.
# Exit 0: as documented; 1: not (the reason is printed); 4: skipped. No timing is asserted: a
# wait only lets the command reach the state under test, and every wait is bounded (no hang
# can pass); where a race is involved, every one of several tries must hold.
set -u
. "$(dirname "$0")/said.sh"
tscaudit=$1
work=$2
case_name=$3
dir="$work/$case_name"
rm -rf "$dir"
mkdir -p "$dir"

fail() { echo "FAIL ($case_name): $*" >&2; [ -f "$dir/stderr" ] && sed 's/^/  stderr: /' "$dir/stderr" >&2; exit 1; }
needs_two_cpus() { if [ "$(nproc)" -lt 2 ]; then echo "skipped: fewer than two usable CPUs"; exit 4; fi; }

# signal_when PID SIGNAL CONDITION: waits (at most 60 s) until the shell command CONDITION
# holds, sends SIGNAL, waits (at most 60 s) for PID to end; its exit code in $rc.
signal_when() {
  local pid=$1 sig=$2 condition=$3 waited=0
  until eval "$condition"; do
    sleep 0.05
    waited=$((waited + 1))
    [ "$waited" -lt 1200 ] || { kill -KILL "$pid"; fail "never reached the state to signal in ($condition)"; }
    kill -0 "$pid" 2>/dev/null || fail "the command ended before the signal"
  done
  sleep 1
  kill "-$sig" "$pid"
  waited=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 0.1
    waited=$((waited + 1))
    [ "$waited" -lt 600 ] || { kill -KILL "$pid"; fail "did not end within 60 s of $sig (a hang)"; }
  done
  wait "$pid"
  rc=$?
}

no_temporaries() {
  local left
  left=$(find "$dir" -name '*.tmp.*' -o -name '*.partial' | head -3)
  [ -z "$left" ] || fail "temporaries left: $left"
}

# The bit of signal number $2 in the hexadecimal mask $1 (a line of /proc/PID/status).
mask_has() { [ -n "$1" ] && (((16#$1 >> ($2 - 1)) & 1)); }

# status_field PID FIELD: FIELD of /proc/PID/status in $field_value, read by the shell alone
# (no process started: the loops below poll it as fast as it changes).
status_field() {
  local key value
  field_value=
  while IFS=$'\t' read -r key value; do
    if [ "$key" = "$2:" ]; then
      field_value=$value
      return 0
    fi
  done 2>/dev/null <"/proc/$1/status"
  return 1
}

# catches PID SIGNUM: PID runs tscaudit (exec done) and has a handler of SIGNUM.
tscaudit_exe=$(readlink -f "$tscaudit")
catches() {
  status_field "$1" SigCgt && mask_has "$field_value" "$2" &&
    [ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$tscaudit_exe" ]
}

# pending PID SIGNUM: SIGNUM was sent to PID and not delivered yet.
pending() {
  { status_field "$1" ShdPnd && mask_has "$field_value" "$2"; } ||
    { status_field "$1" SigPnd && mask_has "$field_value" "$2"; }
}

# wait_for PID CONDITION: waits (at most 60 s) until the shell command CONDITION holds while
# PID runs.
wait_for() {
  local pid=$1 condition=$2 waited=0
  until eval "$condition"; do
    sleep 0.02
    waited=$((waited + 1))
    [ "$waited" -lt 3000 ] || { kill -KILL "$pid"; fail "never reached the state to signal in ($condition)"; }
    kill -0 "$pid" 2>/dev/null || fail "the command ended before the signal"
  done
}

# wait_end PID: waits (at most 60 s) for PID to end; its exit code in $rc.
wait_end() {
  local waited=0
  while kill -0 "$1" 2>/dev/null; do
    sleep 0.05
    waited=$((waited + 1))
    [ "$waited" -lt 1200 ] || { kill -KILL "$1"; fail "did not end within 60 s of the signal (a hang)"; }
  done
  wait "$1"
  rc=$?
}

# Runs "$@" (tscaudit and its arguments) with a SIGTERM pending from the start: the process
# that execs it blocks SIGTERM and sends it to itself; a mask and a pending signal survive
# exec. A signal that comes before the tool's first instruction that could see it.
with_sigterm_pending() {
  perl -MPOSIX -e 'sigprocmask(SIG_BLOCK, POSIX::SigSet->new(SIGTERM)) or die "sigprocmask: $!";
                   kill "TERM", $$; exec { $ARGV[0] } @ARGV or die "exec: $!"' "$@"
}

# A gnuplot that draws slowly: it notes its pid (it leads its own process group) in
# $FAKE_GNUPLOT_PIDS, sleeps (a child of its own, in its group), then writes its picture
# (gnuplot -c SCRIPT IN OUT: $4) as a real one still drawing would, late.
make_slow_gnuplot() {
  mkdir -p "$dir/bin"
  cat >"$dir/bin/gnuplot" <<'GNUPLOT'
#!/bin/sh
echo $$ >>"$FAKE_GNUPLOT_PIDS"
sleep 600
printf 'a picture written late' >"$4"
GNUPLOT
  chmod +x "$dir/bin/gnuplot"
  # Whatever happens, no fake gnuplot outlives the test.
  trap 'for g in $(cat "$dir"/gnuplot*.pids 2>/dev/null); do kill -KILL -- "-$g" 2>/dev/null; done' EXIT
}

# group_runs PGID: a process of that group runs (a zombie, ended and not reaped, does not).
group_runs() { ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }'; }

case "$case_name" in
  measure)
    needs_two_cpus
    # The output is opened (as OUT.tmp.XXXXXX) once the signals are the command's own.
    "$tscaudit" measure --cpus 0,1 --rounds 20000000 --out "$dir/cut.run" >"$dir/stdout" 2>"$dir/stderr" &
    signal_when $! INT 'compgen -G "$dir/cut.run.tmp.*" >/dev/null'
    [ "$rc" = 3 ] || fail "exit $rc, expected 3"
    no_temporaries
    if [ ! -e "$dir/cut.run" ]; then
      # Cut before the first measured round (in the warm-up): nothing to keep, and it says so.
      grep -q '^tscaudit measure: interrupted by SIGINT before the first measured round: nothing written$' \
        "$dir/stderr" || fail "no file, and no word of why"
      exit 0
    fi
    # The summary (on standard output: the rounds went to a file) says it first.
    grep -q '^tscaudit measure: [0-9]* of 20000000 rounds of CPU 0 -> CPU 1 (status: interrupted) written to' \
      "$dir/stdout" || fail "it does not say what it kept"
    grep -q '^# status: interrupted$' "$dir/cut.run" || fail "the run's trailer does not say interrupted"
    grep -q '^# error: interrupted by SIGINT after [0-9]* of 20000000 rounds$' "$dir/cut.run" || fail "no error line"
    # A run cut short is analyzed, and answers incomplete (exit 3) as check would.
    "$tscaudit" analyze "$dir/cut.run" >"$dir/analyze.txt" 2>"$dir/stderr"
    rc=$?
    [ "$rc" -eq 3 ] || fail "analyze of the cut run: exit $rc, expected 3"
    head -2 "$dir/analyze.txt" | tr '\n' ' ' | tr -s ' ' | grep -q "^[^ ]*cut.run: incomplete, no verdict: status is 'interrupted'" ||
      fail "analyze does not answer incomplete first: $(head -2 "$dir/analyze.txt")"
    grep -q 'NOT COMPLETE' "$dir/analyze.txt" || fail "analyze does not flag it"
    ;;
  variants)
    needs_two_cpus
    "$tscaudit" variants --out "$dir/v" >/dev/null 2>"$dir/stderr" &
    signal_when $! TERM '[ -d "$dir/v" ]'
    [ "$rc" = 3 ] || fail "exit $rc, expected 3"
    [ ! -e "$dir/v" ] || fail "the empty --out was left: $(ls -A "$dir/v" | head -3)"
    grep -q '^tscaudit variants: interrupted by SIGTERM after [0-9]* of [0-9]* visits: nothing written' \
      "$dir/stderr" || fail "it does not say what it kept"
    ;;
  simulate)
    # A machine of 64 simulated CPUs: the run directory appears (built aside, as
    # m.tmp.XXXXXX) once the signals are its own.
    "$tscaudit" simulate --topology "synthetic:package:2 core:16 pu:2" --rounds 20000 --out "$dir/m" \
      2>"$dir/stderr" &
    signal_when $! INT 'compgen -G "$dir/m.tmp.*/manifest.json" >/dev/null'
    [ "$rc" = 3 ] || fail "exit $rc, expected 3"
    [ ! -e "$dir/m" ] || fail "half a machine was left: $(ls -A "$dir/m" | head -3)"
    no_temporaries
    said 'interrupted by SIGINT after [0-9]* of [0-9]* slots: nothing kept' "$dir/stderr" ||
      fail "it does not say what it kept"
    ;;
  report-variants)
    needs_two_cpus
    # SIGINT in the report's last phase, the read variants: the report is written from what
    # was measured and says what was not; no variants directory is left half-made.
    "$tscaudit" report --rounds 20000 --visits 1 --no-plain --out "$dir/r" >"$dir/stdout" 2>"$dir/stderr" &
    signal_when $! INT 'compgen -G "$dir/r.tmp.*/variants" >/dev/null'
    [ "$rc" = 3 ] || fail "exit $rc, expected 3"
    no_temporaries
    [ -s "$dir/r/report.html" ] || fail "no report.html"
    [ ! -e "$dir/r/variants" ] || fail "the variants directory was left: $(ls -A "$dir/r/variants" | head -3)"
    grep -q 'not complete: the read variants were interrupted by SIGINT after [0-9]* of [0-9]* visits' \
      "$dir/stderr" || fail "it does not say what was not measured"
    grep -q 'the read variants were interrupted by SIGINT' "$dir/r/report.md" || fail "report.md does not say so"
    ;;
  check-twice)
    needs_two_cpus
    # A second SIGTERM ends a check at once: killed by the signal (exit 143), or, when the
    # first one already ended it cleanly, 3; either way no temporary stays, the metrics
    # file's included.
    mkdir -p "$dir/textfile"
    "$tscaudit" check --cpus 0,1 --rounds 200000 --visits 200 --out "$dir/c" \
      --openmetrics "$dir/textfile/tscaudit.prom" >/dev/null 2>"$dir/stderr" &
    pid=$!
    for i in $(seq 600); do compgen -G "$dir/c.tmp.*/run/manifest.json" >/dev/null && break; sleep 0.05; done
    kill -TERM "$pid"
    kill -TERM "$pid"
    for i in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { kill -KILL "$pid"; fail "did not end within 60 s of two SIGTERMs"; }
    wait "$pid"
    rc=$?
    [ "$rc" = 143 ] || [ "$rc" = 3 ] || fail "exit $rc, expected 143 (killed) or 3 (stopped cleanly)"
    no_temporaries
    ;;
  gnuplot-second-sigint | gnuplot-sighup)
    # A signal that ends a command while gnuplot draws its picture aside (NAME.tmp.XXXXXX.png):
    # a second SIGINT (the first is recorded, and matrix --from goes on), or one SIGHUP. gnuplot
    # is killed with its group and reaped before the temporaries go, so nothing writes the
    # picture again after the end. Five tries, every one must hold.
    "$tscaudit" simulate --topology "synthetic:package:1 core:4 pu:1" --rounds 2000 --out "$dir/machine" \
      >/dev/null 2>"$dir/stderr" || fail "simulate failed"
    make_slow_gnuplot
    for try in 1 2 3 4 5; do
      pids="$dir/gnuplot$try.pids"
      FAKE_GNUPLOT_PIDS=$pids PATH="$dir/bin:$PATH" "$tscaudit" matrix --from "$dir/machine" --out "$dir/out$try" \
        >/dev/null 2>"$dir/stderr" &
      pid=$!
      # gnuplot runs (the tool blocks the signals from its spawn until it has registered it,
      # so a signal from here on finds it registered), wherever the directory is being built.
      wait_for "$pid" '[ -s "$pids" ]'
      if [ "$case_name" = gnuplot-sighup ]; then
        kill -HUP "$pid"
        expected=129
      else
        kill -INT "$pid"
        wait_for "$pid" '! pending "$pid" 2'  # the first one is recorded
        kill -INT "$pid"
        expected=130
      fi
      wait_end "$pid"
      [ "$rc" = "$expected" ] || fail "try $try: exit $rc, expected $expected (killed by the signal)"
      group=$(head -1 "$pids")
      if group_runs "$group"; then
        fail "try $try: gnuplot (process group $group) still runs after the command ended"
      fi
      no_temporaries
    done
    ;;
  early-check-quick)
    needs_two_cpus
    # A SIGTERM before anything (pending when the process starts): the quick check answers
    # incomplete, exit 3, and its metrics say so instead of the previous file's.
    for try in 1 2 3; do
      echo previous >"$dir/tscaudit.prom"
      with_sigterm_pending "$tscaudit" check --quick --cpus 0,1 --openmetrics "$dir/tscaudit.prom" \
        >"$dir/stdout" 2>"$dir/stderr"
      rc=$?
      [ "$rc" = 3 ] || fail "try $try: exit $rc, expected 3 (incomplete)"
      head -1 "$dir/stdout" | grep -q '^incomplete, no verdict: interrupted by SIGTERM' ||
        fail "try $try: the answer is not incomplete: $(head -1 "$dir/stdout")"
      grep -q '^tscaudit_check_success{reason="interrupted"} 0$' "$dir/tscaudit.prom" ||
        fail "try $try: the metrics do not say interrupted: $(head -3 "$dir/tscaudit.prom")"
      no_temporaries
    done
    # A SIGTERM as soon as the process has its handler, ten times: wherever it lands, the check
    # answers (incomplete, or its verdict when it landed after the measuring) and writes its
    # metrics; it is never killed with the previous metrics left as if current.
    for try in $(seq 10); do
      echo previous >"$dir/tscaudit.prom"
      "$tscaudit" check --quick --cpus 0,1 --openmetrics "$dir/tscaudit.prom" >"$dir/stdout" 2>"$dir/stderr" &
      pid=$!
      until catches "$pid" 15; do kill -0 "$pid" 2>/dev/null || break; done
      kill -TERM "$pid" 2>/dev/null
      wait_end "$pid"
      ! grep -q '^previous$' "$dir/tscaudit.prom" || fail "try $try: exit $rc, and the previous metrics stay"
      tail -1 "$dir/tscaudit.prom" | grep -q '^# EOF$' || fail "try $try: the metrics are not whole"
      case "$rc" in
        3)
          head -1 "$dir/stdout" | grep -q '^incomplete, no verdict: interrupted by SIGTERM' ||
            fail "try $try: exit 3 without an incomplete answer: $(head -1 "$dir/stdout")"
          grep -q 'reason="interrupted"' "$dir/tscaudit.prom" || fail "try $try: the metrics do not say interrupted"
          ;;
        0 | 1 | 5 | 143) ;;  # a verdict (143: the signal came after the metrics were written)
        *) fail "try $try: exit $rc" ;;
      esac
      no_temporaries
    done
    ;;
  early-monitor)
    needs_two_cpus
    # A SIGTERM before anything: the monitor stops before its first round (exit 3, it says so),
    # and its metrics file is rewritten to say it has ended, not left as the previous run's.
    echo previous >"$dir/monitor.prom"
    with_sigterm_pending "$tscaudit" monitor --cpus 0,1 --duration 5 --out "$dir/m.log" \
      --openmetrics "$dir/monitor.prom" >/dev/null 2>"$dir/stderr"
    rc=$?
    [ "$rc" = 3 ] || fail "exit $rc, expected 3"
    said 'interrupted by SIGTERM before the first round; no log was written' "$dir/stderr" ||
      fail "it does not say it was interrupted"
    grep -q '^tscaudit_monitor_running{a="0",b="1"} 0$' "$dir/monitor.prom" || fail "the metrics do not say ended"
    [ ! -e "$dir/m.log" ] || fail "a log was written"
    no_temporaries
    # As soon as the process has its handler, ten times: interrupted, before its first round
    # (exit 3) or with the rounds so far in a log that says so (exit 0); never killed.
    for try in $(seq 10); do
      rm -f "$dir/m.log"
      echo previous >"$dir/monitor.prom"
      "$tscaudit" monitor --cpus 0,1 --interval 0.1 --duration 5 --out "$dir/m.log" \
        --openmetrics "$dir/monitor.prom" >/dev/null 2>"$dir/stderr" &
      pid=$!
      until catches "$pid" 15; do kill -0 "$pid" 2>/dev/null || break; done
      kill -TERM "$pid" 2>/dev/null
      wait_end "$pid"
      grep -q '^tscaudit_monitor_running{a="0",b="1"} 0$' "$dir/monitor.prom" ||
        fail "try $try: exit $rc, and the metrics do not say ended: $(head -1 "$dir/monitor.prom")"
      case "$rc" in
        3) said 'interrupted by SIGTERM before the first round' "$dir/stderr" || fail "try $try: exit 3, not interrupted" ;;
        0) grep -q '^# status: interrupted$' "$dir/m.log" || fail "try $try: the log does not say interrupted" ;;
        *) fail "try $try: exit $rc, expected 3 or 0" ;;
      esac
      no_temporaries
    done
    ;;
  closed-pipe)
    # Standard output's reader goes away (| head -1): the command ends quietly with 141, says
    # nothing more on standard error than without the pipe, and its --out files are whole: the
    # same bytes as without the pipe. The output (about 400 KB of JSON) is larger than a pipe
    # holds, so the reader is gone before the last write, every time.
    "$tscaudit" simulate --topology "synthetic:package:2 core:8 pu:2" --rounds 200 --out "$dir/machine" \
      >/dev/null 2>"$dir/stderr" || fail "simulate failed"
    "$tscaudit" matrix --from "$dir/machine" --format json --out "$dir/whole" >"$dir/whole.json" 2>"$dir/whole.err"
    expected_rc=$?
    [ "$(wc -c <"$dir/whole.json")" -gt 262144 ] || fail "the output is too small for the test"
    sed "s#$dir/whole#OUT#g" "$dir/whole.err" >"$dir/expected.err"
    for try in $(seq 10); do
      "$tscaudit" matrix --from "$dir/machine" --format json 2>"$dir/stderr" | head -1 >"$dir/first"
      rc=${PIPESTATUS[0]}
      [ "$rc" = 141 ] || fail "try $try: exit $rc, expected 141"
      grep -v 'wrote OUT' "$dir/expected.err" | cmp -s - "$dir/stderr" || fail "try $try: more on standard error"
      [ "$(cat "$dir/first")" = "{" ] || fail "try $try: the first line is $(cat "$dir/first")"
    done
    for try in 1 2 3; do
      out="$dir/out$try"
      "$tscaudit" matrix --from "$dir/machine" --format json --out "$out" 2>"$dir/stderr" | head -1 >/dev/null
      rc=${PIPESTATUS[0]}
      [ "$rc" = 141 ] || fail "try $try with --out: exit $rc, expected 141 (without the pipe: $expected_rc)"
      sed "s#$out#OUT#g" "$dir/stderr" | cmp -s - "$dir/expected.err" || fail "try $try with --out: more on standard error"
      (cd "$dir/whole" && find . -type f | sort) >"$dir/files"
      (cd "$out" && find . -type f | sort) | cmp -s - "$dir/files" || fail "try $try: not the same files in $out"
      while read -r f; do cmp -s "$dir/whole/$f" "$out/$f" || fail "try $try: $out/$f is not whole"; done <"$dir/files"
    done
    # A command that writes standard output as a file (simulate --out -): the same quiet end,
    # its other file whole.
    "$tscaudit" simulate --rounds 200000 --out - --truth "$dir/truth.json" 2>"$dir/stderr" | head -1 >/dev/null
    rc=${PIPESTATUS[0]}
    [ "$rc" = 141 ] || fail "simulate --out - | head -1: exit $rc, expected 141"
    [ ! -s "$dir/stderr" ] || fail "simulate --out - | head -1 said something"
    tail -1 "$dir/truth.json" | grep -q '^}$' || fail "simulate --out - | head -1: the truth is not whole"
    no_temporaries
    ;;
  inputs-first)
    # Every input is checked before anything is written: a bad CPU leaves no output directory.
    for args in "variants --cpus 0,4095 --out $dir/v" "report --cpus 0,4095 --out $dir/r" \
      "matrix --cpus 0,4095 --out $dir/m" "check --cpus 0,4095 --out $dir/c" "check --cpus '' --out $dir/e" \
      "measure --cpus 0,4095 --out $dir/x.run" "monitor --cpus 0,4095 --out $dir/x.log"; do
      eval "\"\$tscaudit\" $args" >/dev/null 2>"$dir/stderr"
      rc=$?
      [ "$rc" = 2 ] || fail "$args: exit $rc, expected 2"
      left=$(find "$dir" -mindepth 1 ! -name stderr | head -3)
      [ -z "$left" ] || fail "$args left $left"
    done
    ;;
  *)
    echo "unknown case $case_name" >&2
    exit 1
    ;;
esac
exit 0
