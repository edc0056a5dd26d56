#!/usr/bin/env bash
# The run directory end to end (docs/formats.md, "Run directory"), one case per call:
#   run_dir.sh TSCAUDIT WORKDIR CASE
# Exit 0: the case behaved as documented; 1: it did not (the reason is printed); 4: skipped.
# Never a timing assertion: a wait only gives the run time to reach the state under test,
# and every wait is bounded (no hang can pass).
set -u
. "$(dirname "$0")/said.sh"
tscaudit=$1
work=$2
case_name=$3
dir="$work/$case_name"
rm -rf "$dir"
mkdir -p "$dir"

fail() { echo "FAIL ($case_name): $*" >&2; [ -f "$dir/stderr" ] && sed 's/^/  stderr: /' "$dir/stderr" >&2; exit 1; }
# Whether standard error says $1 (a grep pattern), its lines joined (said.sh).
stderr_says() { said "$1" "$dir/stderr"; }
json_field() { sed -n "s/^  \"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1" | head -1; }

# matrix.json without the one field that measures time: what live and offline must share.
timeless() { grep -v '^  "elapsed_seconds": ' "$1"; }

needs_two_cpus() { if [ "$(nproc)" -lt 2 ]; then echo "skipped: fewer than two usable CPUs"; exit 4; fi; }

# The first directory that the glob PATTERN names (an output directory is built aside, in
# OUT.tmp.XXXXXX, until it is complete); PATTERN itself when none.
first_match() { compgen -G "$1" | head -1 || echo "$1"; }

# visits_on_disk PATTERN: both CPUs' rounds files in the directory PATTERN names hold a visit.
visits_on_disk() {
  local rounds
  rounds=$(first_match "$1")
  [ -s "$rounds/cpu-0.zst" ] && [ -s "$rounds/cpu-1.zst" ]
}

# interrupt PID WHAT ROUNDS: waits (at most 60 s) until both CPUs' rounds files in the
# directory the glob ROUNDS names hold a visit, sends SIGINT to PID, waits (at most 60 s) for
# it to end; its exit code in $rc. WHAT names the command in messages.
interrupt() {
  local pid=$1 what=$2 rounds=$3 waited=0
  until visits_on_disk "$rounds"; do
    sleep 0.1
    waited=$((waited + 1))
    [ "$waited" -lt 600 ] || { kill -KILL "$pid"; fail "no visit on disk after 60 s"; }
    kill -0 "$pid" 2>/dev/null || fail "the $what ended before the signal"
  done
  kill -INT "$pid"
  waited=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 0.1
    waited=$((waited + 1))
    [ "$waited" -lt 600 ] || { kill -KILL "$pid"; fail "the $what did not end within 60 s of SIGINT (a hang)"; }
  done
  wait "$pid"
  rc=$?
}

case "$case_name" in
  live-equals-offline)
    needs_two_cpus
    "$tscaudit" matrix --cpus 0,1 --rounds 20000 --visits 2 --out "$dir/live" >/dev/null 2>"$dir/stderr" ||
      fail "live matrix: exit $?"
    [ "$(json_field "$dir/live/run/manifest.json" status)" = complete ] || fail "the run directory is not complete"
    "$tscaudit" matrix --from "$dir/live" --out "$dir/offline" >/dev/null 2>"$dir/stderr" || fail "--from: exit $?"
    diff <(timeless "$dir/live/matrix.json") <(timeless "$dir/offline/matrix.json") >"$dir/diff" ||
      fail "matrix.json differs: $(head -20 "$dir/diff")"
    cmp -s "$dir/live/analysis.json" "$dir/offline/analysis.json" || fail "analysis.json differs"
    cmp -s "$dir/live/matrix.txt" "$dir/offline/matrix.txt" || fail "matrix.txt differs"
    for f in "$dir"/live/pairs/*.txt; do
      cmp -s "$f" "$dir/offline/pairs/$(basename "$f")" || fail "$(basename "$f") differs"
    done
    # check --from answers as a check of the same rounds would.
    "$tscaudit" check --from "$dir/live" --tolerance 1000000 >"$dir/stdout" 2>"$dir/stderr"
    rc=$?
    [ "$rc" -le 1 ] || fail "check --from: exit $rc, expected 0 or 1"
    grep -q "synchronized" "$dir/stdout" || fail "check --from gave no verdict"
    ;;
  sigint)
    needs_two_cpus
    # Long enough that the signal, sent once the first visit is on disk, comes mid-run.
    "$tscaudit" matrix --cpus 0,1 --visits 400 --rounds 100000 --out "$dir/m" >/dev/null 2>"$dir/stderr" &
    interrupt $! matrix "$dir/m.tmp.*/run/rounds"
    [ "$rc" -eq 3 ] || fail "exit $rc after SIGINT, expected 3"
    stderr_says "interrupted by SIGINT after" || fail "stderr does not say it was interrupted"
    [ "$(json_field "$dir/m/run/manifest.json" status)" = interrupted ] || fail "the manifest does not say interrupted"
    [ "$(json_field "$dir/m/matrix.json" status)" = interrupted ] || fail "matrix.json does not say interrupted"
    "$tscaudit" matrix --from "$dir/m" --out "$dir/again" >"$dir/stdout" 2>"$dir/stderr"
    rc=$?
    # Evidence is analyzed and shown as a part: a run cut short is incomplete, read back too.
    [ "$rc" -eq 3 ] || fail "--from an interrupted run: exit $rc, expected 3"
    stderr_says "not complete: .*interrupted by SIGINT after" || fail "--from does not say the run was interrupted"
    [ "$(json_field "$dir/again/matrix.json" status)" = interrupted ] || fail "the rebuilt matrix.json is not marked"
    grep -q "^Per-CPU offset" "$dir/stdout" || fail "--from of an interrupted run printed no matrix"
    # The answer first (no verdict), then the figures, marked as a part.
    head -1 "$dir/stdout" | grep -q "^incomplete, no verdict: interrupted by SIGINT after " ||
      fail "the matrix text does not start with its answer, incomplete"
    grep -q "^cut short (interrupted by SIGINT after " "$dir/stdout" || fail "the matrix text is not marked cut short"
    head -1 "$dir/again/matrix.txt" | grep -q "^incomplete, no verdict: interrupted by SIGINT after " ||
      fail "matrix.txt does not start with its answer, incomplete"
    grep -q "^cut short (" "$dir/again/matrix.txt" || fail "matrix.txt is not marked cut short"
    grep -q "^# title: .* - cut short, a part of the run$" "$dir/again/offset_ticks.dat" ||
      fail "the heatmap's title does not say cut short"
    ;;
  report-sigint)
    needs_two_cpus
    # A live report stopped by SIGINT in its first matrix, then rebuilt with report --from.
    "$tscaudit" report --no-variants --visits 400 --rounds 100000 --over-budget --out "$dir/r" >/dev/null 2>"$dir/stderr" &
    interrupt $! report "$dir/r.tmp.*/matrix/run/rounds"
    [ "$rc" -eq 3 ] || fail "exit $rc after SIGINT, expected 3"
    [ "$(json_field "$dir/r/matrix/run/manifest.json" status)" = interrupted ] || fail "the manifest does not say interrupted"
    [ ! -e "$dir/r/matrix_plain_rdtsc/run" ] || fail "the plain matrix was measured after the signal"
    grep -q "interrupted by SIGINT" "$dir/r/report.md" || fail "report.md does not say the run was interrupted"
    "$tscaudit" report --from "$dir/r" --out "$dir/again" >"$dir/stdout" 2>"$dir/stderr"
    rc=$?
    # A run cut short is never a verdict, read back either (docs/machine.md §10.3).
    [ "$rc" -eq 3 ] || fail "report --from an interrupted report: exit $rc, expected 3"
    grep -q "^incomplete, no verdict: interrupted by SIGINT after" "$dir/stdout" || fail "stdout: $(cat "$dir/stdout")"
    grep -q "planned to be visited 400 times each and cut short" "$dir/again/report.md" ||
      fail "the rebuilt report.md claims every visit"
    stderr_says "not complete: .*interrupted by SIGINT after" || fail "report --from does not say interrupted"
    grep -q "not complete: .*interrupted by SIGINT after" "$dir/again/report.md" || fail "the rebuilt report.md does not say interrupted"
    [ -s "$dir/again/report.html" ] || fail "no report.html rebuilt"
    # The same matrix (live, the interruption is a problem of the command; rebuilt, a note).
    cmp -s "$dir/r/matrix/matrix.txt" "$dir/again/matrix/matrix.txt" || fail "the rebuilt matrix.txt differs"
    cmp -s "$dir/r/matrix/analysis.json" "$dir/again/matrix/analysis.json" || fail "the rebuilt analysis.json differs"
    ;;
  two-writers)
    needs_two_cpus
    # A long matrix holds $dir/out; a second one into the same --out, started once the first
    # holds the lock, is refused at once (exit 3, the first's pid named) and the first ends as
    # if alone. (The one timing assertion of this script: the refusal comes before any
    # measuring, within a second however loaded the machine.)
    "$tscaudit" matrix --cpus 0,1 --rounds 100000 --visits 4 --out "$dir/out" >/dev/null 2>"$dir/stderr.first" &
    first=$!
    waited=0
    until grep -qx "pid: $first" "$dir/out/.lock" 2>/dev/null; do
      sleep 0.05
      waited=$((waited + 1))
      [ "$waited" -lt 1200 ] || { kill -KILL "$first"; fail "the first matrix holds no lock after 60 s"; }
      kill -0 "$first" 2>/dev/null || fail "the first matrix ended before it was seen holding its lock"
    done
    start=$(date +%s%N)
    "$tscaudit" check --cpus 0,1 --out "$dir/out" >/dev/null 2>"$dir/stderr"
    rc=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    [ "$rc" -eq 3 ] || { kill -KILL "$first"; fail "the second writer exited $rc, expected 3"; }
    grep -q "cannot write $dir/out: it is being written by pid $first (.*tscaudit matrix --cpus 0,1" \
      "$dir/stderr" || { kill -KILL "$first"; fail "the refusal does not name the first writer"; }
    [ "$ms" -lt 1000 ] || { kill -KILL "$first"; fail "the second writer was refused after $ms ms, not at once"; }
    echo "the second writer was refused in $ms ms: $(cat "$dir/stderr")"
    # A reader meanwhile (once both CPUs' rounds files hold a visit) says who is still
    # writing, unless the first has finished by then.
    waited=0
    until visits_on_disk "$dir/out.tmp.*/run/rounds"; do
      sleep 0.05
      waited=$((waited + 1))
      [ "$waited" -lt 1200 ] || { kill -KILL "$first"; fail "no visit on disk after 60 s"; }
      kill -0 "$first" 2>/dev/null || break
    done
    # The directory named holds nothing until the first puts its output in place: a reader is
    # told who is writing it; the directory being built aside reads as a run still running.
    aside=$(first_match "$dir/out.tmp.*")
    "$tscaudit" matrix --from "$dir/out" --out "$dir/during" >/dev/null 2>"$dir/stderr"
    rc=$?
    if kill -0 "$first" 2>/dev/null; then
      [ "$rc" -eq 3 ] || { kill -KILL "$first"; fail "--from a directory being written exited $rc, expected 3"; }
      stderr_says "$dir/out: it is being written by pid $first (.*): nothing is in place until it ends" ||
        { kill -KILL "$first"; fail "--from a directory being written does not say who writes it"; }
      [ ! -e "$dir/during" ] || { kill -KILL "$first"; fail "a refused reader made its --out"; }
      echo "a reader meanwhile: $(cat "$dir/stderr")"
      "$tscaudit" matrix --from "$aside" --out "$dir/during" >/dev/null 2>"$dir/stderr"
      rc=$?
      if kill -0 "$first" 2>/dev/null; then
        [ "$rc" -eq 3 ] || { kill -KILL "$first"; fail "--from the run being built exited $rc, expected 3"; }
        stderr_says "manifest.json says running: it is still being written by pid $first (" ||
          { kill -KILL "$first"; fail "--from the run being built does not say who writes it"; }
        echo "a reader of $aside meanwhile: $(grep -m1 'still being written' "$dir/stderr")"
      fi
    fi
    wait "$first"
    rc=$?
    [ "$rc" -eq 0 ] || { cp "$dir/stderr.first" "$dir/stderr"; fail "the first matrix exited $rc"; }
    [ "$(json_field "$dir/out/run/manifest.json" status)" = complete ] || fail "the first run is not complete"
    [ ! -e "$dir/out/run/.lock" ] || fail "a finished run directory keeps its lock file"
    [ ! -e "$dir/out/.lock" ] || fail "a finished output directory keeps its lock file"
    [ -z "$(compgen -G "$dir/out.*")" ] || fail "the writer left $(compgen -G "$dir/out.*")"
    [ -s "$dir/out/matrix.json" ] || fail "the first matrix wrote no matrix.json"
    "$tscaudit" matrix --from "$dir/out" --out "$dir/offline" >/dev/null 2>"$dir/stderr" || fail "--from: exit $?"
    ! stderr_says "not complete" || fail "--from says the first run is not complete"
    cmp -s "$dir/out/analysis.json" "$dir/offline/analysis.json" || fail "the first run reads back otherwise"
    # Once it is finished, a new run into the same --out replaces it, as before.
    "$tscaudit" matrix --cpus 0,1 --rounds 2000 --out "$dir/out" >/dev/null 2>"$dir/stderr" || fail "a later run: exit $?"
    ;;
  two-at-once)
    needs_two_cpus
    # A scheduled check and a person's matrix started a fraction of a second apart into one
    # --out: exactly one measures, the other is refused with exit 3.
    "$tscaudit" check --cpus 0,1 --out "$dir/out" >/dev/null 2>"$dir/stderr.a" &
    a=$!
    sleep 0.1
    "$tscaudit" matrix --cpus 0,1 --rounds 20000 --out "$dir/out" >/dev/null 2>"$dir/stderr.b" &
    b=$!
    wait "$a"
    ra=$?
    wait "$b"
    rb=$?
    case "$ra,$rb" in
      0,3 | 1,3) winner=a loser=b ;;
      3,0) winner=b loser=a ;;
      *) cat "$dir/stderr.a" "$dir/stderr.b" >"$dir/stderr"; fail "exits $ra (check) and $rb (matrix): expected one 3" ;;
    esac
    grep -q "it is being written by pid " "$dir/stderr.$loser" || { cp "$dir/stderr.$loser" "$dir/stderr"; fail "the refusal names no writer"; }
    [ "$(json_field "$dir/out/run/manifest.json" status)" = complete ] || fail "the winner's run is not complete"
    echo "the $( [ $winner = a ] && echo check || echo matrix) measured; the other: $(tail -1 "$dir/stderr.$loser")"
    ;;
  *)
    echo "unknown case $case_name" >&2
    exit 1
    ;;
esac
exit 0
