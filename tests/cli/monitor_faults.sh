#!/usr/bin/env bash
# End-to-end faults of `tscaudit monitor`, one case per call (ctest runs each as its own test):
#   monitor_faults.sh TSCAUDIT WORKDIR CASE
# Exit 0: the case behaved as documented; 1: it did not (the reason is printed); 4: skipped.
# Never a timing assertion: each case waits for the state it tests (intervals flushed to the
# .partial log, the proof that the log grows while the run goes on), and every wait on the
# monitor is bounded (no hang can pass).
set -u
. "$(dirname "$0")/said.sh"
tscaudit=$1
work=$2
case_name=$3
rm -rf "$work/$case_name"
mkdir -p "$work/$case_name"
dir="$work/$case_name"

fail() { echo "FAIL ($case_name): $*" >&2; [ -f "$dir/stderr" ] && sed 's/^/  stderr: /' "$dir/stderr" >&2; exit 1; }

if [ "$(nproc)" -lt 2 ]; then echo "skipped: fewer than two usable CPUs"; exit 4; fi

# Waits at most $2 seconds for pid $1; its exit code in $rc. A run that does not end fails.
wait_bounded() {
  local pid=$1 limit=$2 waited=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 0.2
    waited=$((waited + 1))
    if [ "$waited" -gt $((limit * 5)) ]; then
      kill -KILL "$pid" 2>/dev/null
      fail "the monitor did not end within $limit s (a hang)"
    fi
  done
  wait "$pid"
  rc=$?
}

# The value of column $2 in every interval line of log $1, one per line.
column() {
  awk -F, -v name="$2" '
    /^#/ || NF == 0 { next }
    !header { for (i = 1; i <= NF; i++) if ($i == name) c = i; header = 1; next }
    { print $c }' "$1"
}
intervals() { column "$1" interval | wc -l; }
# How many intervals of log $1 hold rounds after the first one with stall_ms >= 2000.
after_stall() {
  awk -F, '
    /^#/ || NF == 0 { next }
    !header { for (i = 1; i <= NF; i++) { if ($i == "stall_ms") s = i; if ($i == "rounds") r = i }; header = 1; next }
    seen && $r > 0 { n++ }
    $s >= 2000 { seen = 1 }
    END { print n + 0 }' "$1"
}
status_of() { sed -n 's/^# status: //p' "$1"; }

# Waits until log $1 holds at least $2 intervals (the threads are running and flushing),
# at most 60 s; a monitor that ends first, or never flushes, fails. Under load the start
# can take seconds: the cases wait for the state they test instead of sleeping a guess.
await_intervals() {
  local file=$1 want=$2 waited=0
  while [ ! -f "$file" ] || [ "$(intervals "$file")" -lt "$want" ]; do
    kill -0 "$pid" 2>/dev/null || fail "the monitor ended before $file held $want intervals"
    sleep 0.1
    waited=$((waited + 1))
    [ "$waited" -le 600 ] || fail "$file holds fewer than $want intervals after 60 s"
  done
}

start_monitor() {  # args: extra monitor options; sets $pid
  "$tscaudit" monitor --cpus 0,1 "$@" 2>"$dir/stderr" &
  pid=$!
}

case "$case_name" in
  complete)
    start_monitor --interval 0.2 --duration 1 --out "$dir/m.log"
    wait_bounded "$pid" 60
    [ "$rc" -eq 0 ] || fail "exit $rc, expected 0"
    [ -f "$dir/m.log" ] || fail "no log"
    [ ! -e "$dir/m.log.partial" ] || fail "the .partial file is still there"
    [ "$(status_of "$dir/m.log")" = complete ] || fail "status is not complete"
    [ "$(intervals "$dir/m.log")" -eq 5 ] || fail "$(intervals "$dir/m.log") intervals, expected 5"
    [ "$(head -1 "$dir/m.log")" = "# schema: tscaudit-monitor/1" ] || fail "no schema line first"
    ;;
  duty)
    # A tenth of each interval measured, the rest asleep: still one line per interval, each
    # with rounds, and the header says the duty.
    start_monitor --interval 0.2 --duration 2 --duty 0.1 --out "$dir/m.log"
    wait_bounded "$pid" 60
    [ "$rc" -eq 0 ] || fail "exit $rc, expected 0"
    [ "$(status_of "$dir/m.log")" = complete ] || fail "status is not complete"
    [ "$(intervals "$dir/m.log")" -eq 10 ] || fail "$(intervals "$dir/m.log") intervals, expected 10"
    grep -qx '# duty: 0.1' "$dir/m.log" || fail "the header does not say the duty"
    empty=$(column "$dir/m.log" rounds | grep -cx 0)
    [ "$empty" -eq 0 ] || fail "$empty intervals without a round"
    "$tscaudit" analyze "$dir/m.log" >"$dir/analysis" 2>"$dir/stderr" || fail "analyze of the log failed"
    ;;
  duty-sigterm)
    # SIGTERM while both threads rest (19/20 of each second): the rest ends, the responder
    # blocked on its futex wakes, and the log is complete up to the signal.
    start_monitor --interval 1 --duty 0.05 --out "$dir/m.log"
    await_intervals "$dir/m.log.partial" 1
    kill -TERM "$pid"
    wait_bounded "$pid" 30
    [ "$rc" -eq 0 ] || fail "exit $rc, expected 0"
    [ "$(status_of "$dir/m.log")" = interrupted ] || fail "status is not interrupted"
    ;;
  sigint | sigterm)
    sig=INT; [ "$case_name" = sigterm ] && sig=TERM
    start_monitor --interval 0.2 --out "$dir/m.log"
    await_intervals "$dir/m.log.partial" 2
    kill -"$sig" "$pid"
    wait_bounded "$pid" 30
    [ "$rc" -eq 0 ] || fail "exit $rc, expected 0"
    [ "$(status_of "$dir/m.log")" = interrupted ] || fail "status is not interrupted"
    grep -q "^# signal: SIG$sig\$" "$dir/m.log" || fail "the trailer does not name SIG$sig"
    [ "$(intervals "$dir/m.log")" -ge 2 ] || fail "fewer than 2 intervals"
    said "interrupted by SIG$sig" "$dir/stderr" || fail "stderr does not say it was interrupted"
    # An interrupted run is analysable, and says it was interrupted.
    "$tscaudit" analyze "$dir/m.log" >"$dir/analysis" 2>"$dir/stderr"
    rc=$?
    [ "$rc" -eq 0 ] || fail "analyze of the interrupted log: exit $rc, expected 0"
    grep -q "status    INTERRUPTED: interrupted by SIG$sig" "$dir/analysis" || fail "the analysis does not say interrupted"
    # The answer first: the log and its verdict.
    head -1 "$dir/analysis" |
      grep -Eq 'm\.log: (unsafe reads|offset stepped|the offset changed course|last piece|synchronized|offset of|drifting)' ||
      fail "the analysis does not start with a verdict"
    ;;
  sigkill)
    # A crash: no trailer, no rename. FILE.partial holds every interval flushed so far and
    # is analysable as a log cut short.
    start_monitor --interval 0.2 --out "$dir/m.log"
    await_intervals "$dir/m.log.partial" 2
    kill -KILL "$pid"
    wait_bounded "$pid" 30
    [ -f "$dir/m.log.partial" ] || fail "no m.log.partial after SIGKILL"
    [ ! -e "$dir/m.log" ] || fail "a log under the final name after a crash"
    n=$(intervals "$dir/m.log.partial")
    [ "$n" -ge 1 ] || fail "no interval in m.log.partial"
    "$tscaudit" analyze "$dir/m.log.partial" >"$dir/analysis" 2>"$dir/stderr"
    rc=$?
    [ "$rc" -eq 0 ] || fail "analyze of the crashed log: exit $rc, expected 0"
    grep -q "status    CUT SHORT" "$dir/analysis" || fail "the analysis does not say cut short"
    ;;
  sigstop)
    # The whole process stopped for longer than the partner timeout (2 s): not a fault, a
    # stall, marked in the interval it happened in; the run goes on. The run has no
    # duration: a test shell starved of CPU could send the stop after a short run ended.
    start_monitor --interval 0.2 --out "$dir/m.log"
    await_intervals "$dir/m.log.partial" 2
    kill -STOP "$pid"
    sleep 3
    kill -CONT "$pid"
    # It goes on: wait (bounded) for 3 intervals with rounds after the stall's.
    waited=0
    until [ "$(after_stall "$dir/m.log.partial")" -ge 3 ]; do
      kill -0 "$pid" 2>/dev/null || fail "the monitor ended after SIGCONT"
      sleep 0.1
      waited=$((waited + 1))
      [ "$waited" -le 600 ] || fail "no 3 intervals with rounds after a stall_ms >= 2000 within 60 s"
    done
    kill -INT "$pid"
    wait_bounded "$pid" 30
    [ "$rc" -eq 0 ] || fail "exit $rc, expected 0 (a stopped process is not a failed partner)"
    [ "$(status_of "$dir/m.log")" = interrupted ] || fail "status is not interrupted (by the test's SIGINT)"
    max_stall=$(column "$dir/m.log" stall_ms | sort -n | tail -1)
    [ "$max_stall" -ge 2000 ] || fail "longest stall_ms $max_stall, expected >= 2000 after a 3 s SIGSTOP"
    said "nothing ran for" "$dir/stderr" || fail "stderr does not report the stall"
    empty=$(column "$dir/m.log" rounds | grep -c '^0$')
    [ "$empty" -ge 5 ] || fail "$empty intervals without rounds, expected the stopped time to be kept as empty intervals"
    ;;
  sigstop-last)
    # A stop in the last interval: the run ends while the process is stopped, and the first
    # look after SIGCONT closes the last interval. Its stall is marked there all the same.
    start_monitor --interval 2 --duration 4 --out "$dir/m.log"
    await_intervals "$dir/m.log.partial" 1
    kill -STOP "$pid"
    # While it is stopped: the last interval not yet written proves the stop landed inside
    # the run (a shell starved for the whole last interval sends it after the end).
    before_end=$(intervals "$dir/m.log.partial")
    sleep 3
    kill -CONT "$pid"
    wait_bounded "$pid" 60
    [ "$rc" -eq 0 ] || fail "exit $rc, expected 0"
    [ "$(status_of "$dir/m.log")" = complete ] || fail "status is not complete"
    [ "$(intervals "$dir/m.log")" -eq 2 ] || fail "$(intervals "$dir/m.log") intervals, expected 2"
    if [ "$before_end" -ge 2 ]; then
      echo "skipped: the stop landed after the run's last interval was written"
      exit 4
    fi
    last_stall=$(column "$dir/m.log" stall_ms | tail -1)
    [ "$last_stall" -ge 2000 ] || fail "the last interval's stall_ms is $last_stall, expected >= 2000 after a 3 s SIGSTOP in it"
    ;;
  cpu-taken)
    # taskset on every thread of the process: the responder's CPU 1 is taken away.
    start_monitor --interval 0.2 --out "$dir/m.log"
    await_intervals "$dir/m.log.partial" 1
    # taskset walks the threads one by one and fails when one ends under it (a short-lived
    # helper thread); it is tried again, a bounded number of times.
    moved=0
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      if taskset -a -p -c 0 "$pid" >/dev/null 2>"$dir/taskset.err"; then moved=1; break; fi
      sleep 0.1
    done
    [ "$moved" -eq 1 ] || fail "taskset failed: $(cat "$dir/taskset.err")"
    wait_bounded "$pid" 60
    [ "$rc" -eq 3 ] || fail "exit $rc, expected 3"
    [ "$(status_of "$dir/m.log")" = aborted ] || fail "status is not aborted"
    grep -q "^# error: .*CPU 1 was taken away from the responder\|^# error: the responder thread was taken off CPU 1" \
      "$dir/m.log" || fail "the trailer does not say CPU 1 was taken away"
    said "ABORTED: .*CPU 1" "$dir/stderr" || fail "stderr does not say why it aborted"
    ;;
  queue-full)
    # A queue of 16 rounds cannot hold what comes between two wake-ups: rounds are lost,
    # and every one is counted in the interval it was lost in.
    start_monitor --interval 0.2 --duration 1 --queue-rounds 16 --out "$dir/m.log"
    wait_bounded "$pid" 60
    [ "$rc" -eq 0 ] || fail "exit $rc, expected 0"
    lost=$(column "$dir/m.log" lost | awk '{ s += $1 } END { print s + 0 }')
    [ "$lost" -gt 0 ] || fail "no lost rounds counted with a 16-round queue"
    grep -q "^# rounds_lost: $lost\$" "$dir/m.log" || fail "the trailer's rounds_lost differs from the intervals' sum $lost"
    said "lost [0-9]* rounds\? (the queue to the aggregator was full)" "$dir/stderr" ||
      fail "stderr does not report lost rounds"
    ;;
  dev-full)
    start_monitor --interval 0.2 --duration 1 --out /dev/full
    wait_bounded "$pid" 60
    [ "$rc" -eq 3 ] || fail "exit $rc, expected 3"
    said "cannot write /dev/full: No space left on device" "$dir/stderr" || fail "no path and reason"
    ;;
  missing-dir)
    start_monitor --interval 0.2 --duration 1 --out "$dir/missing/m.log"
    wait_bounded "$pid" 60
    [ "$rc" -eq 3 ] || fail "exit $rc, expected 3"
    said "cannot create $dir/missing/m.log.partial: No such file or directory" "$dir/stderr" || fail "no path and reason"
    ;;
  dir-vanishes)
    mkdir "$dir/out"
    start_monitor --interval 0.2 --out "$dir/out/m.log"
    await_intervals "$dir/out/m.log.partial" 1
    rm -rf "$dir/out"
    wait_bounded "$pid" 60
    [ "$rc" -eq 3 ] || fail "exit $rc, expected 3"
    said "m.log.partial was removed while it was written" "$dir/stderr" || fail "no reason given"
    ;;
  partial-exists)
    echo "left by a crash" >"$dir/m.log.partial"
    start_monitor --interval 0.2 --duration 1 --out "$dir/m.log"
    wait_bounded "$pid" 60
    [ "$rc" -eq 3 ] || fail "exit $rc, expected 3"
    said "cannot create $dir/m.log.partial: it exists" "$dir/stderr" || fail "no path and reason"
    [ "$(cat "$dir/m.log.partial")" = "left by a crash" ] || fail "the earlier partial log was overwritten"
    [ ! -e "$dir/m.log" ] || fail "a log was written anyway"
    ;;
  *)
    fail "unknown case"
    ;;
esac
echo "ok ($case_name)"
