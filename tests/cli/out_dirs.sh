#!/usr/bin/env bash
# The directories tscaudit writes (docs/formats.md, "Output directories"; "What a reader may
# conclude from a directory's state"), one case per call:
#   out_dirs.sh TSCAUDIT WORKDIR CASE
# Exit 0: the case behaved as documented; 1: it did not (the reason is printed); 4: skipped.
# No timing is asserted: a wait only lets a command reach the state under test, and every wait
# is bounded (no hang can pass).
set -u
. "$(dirname "$0")/said.sh"
tscaudit=$1
work=$2
case_name=$3
dir="$work/$case_name"
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir" || exit 1

fail() { echo "FAIL ($case_name): $*" >&2; [ -f stderr ] && sed 's/^/  stderr: /' stderr >&2; exit 1; }
needs_two_cpus() { if [ "$(nproc)" -lt 2 ]; then echo "skipped: fewer than two usable CPUs"; exit 4; fi; }
# The manifest's CPUs of the run directory DIR, as one line ("0,1,2,3").
cpus_of() { python3 -c 'import json,sys; print(",".join(map(str, json.load(open(sys.argv[1]))["cpus"])))' "$1/manifest.json"; }
# Two simulated machines: A of 4 CPUs, B of 2.
machines() {
  "$tscaudit" simulate --topology "synthetic:package:2 core:2 pu:1" --rounds 300 --out A 2>/dev/null || fail "simulate A"
  "$tscaudit" simulate --topology "synthetic:package:1 core:2 pu:1" --rounds 300 --out B 2>/dev/null || fail "simulate B"
}
# wait_until CONDITION PID: waits (at most 60 s) until the shell command CONDITION holds while
# PID runs; fails when PID ends first.
wait_until() {
  local waited=0
  until eval "$1"; do
    sleep 0.05
    waited=$((waited + 1))
    [ "$waited" -lt 1200 ] || { kill -KILL "$2"; fail "never reached: $1"; }
    kill -0 "$2" 2>/dev/null || fail "the writer ended before: $1"
  done
}
# A machine large enough that simulating it takes a while: a writer to catch in the act.
big_machine=(simulate --topology "synthetic:package:2 core:4 pu:1" --rounds 20000)

case "$case_name" in
  over-an-earlier-output)
    # matrix --from A --out D over an earlier D made from B: D holds A's run, and reads back as A.
    machines
    "$tscaudit" matrix --from B --out D >/dev/null 2>stderr || fail "matrix --from B: exit $?"
    "$tscaudit" matrix --from A --out D >/dev/null 2>stderr || fail "matrix --from A: exit $?"
    [ "$(cpus_of D/run)" = "$(cpus_of A)" ] || fail "D/run names CPUs $(cpus_of D/run), not A's $(cpus_of A)"
    "$tscaudit" check --from A >check_a 2>/dev/null
    rc_a=$?
    "$tscaudit" check --from D >check_d 2>stderr
    rc_d=$?
    [ "$rc_a" = "$rc_d" ] || fail "check --from D exits $rc_d, check --from A $rc_a"
    cmp -s check_a check_d || fail "check --from D answers otherwise than check --from A: $(diff check_a check_d | head -5)"
    said "rebuilt from D/run (the run of the matrix in D)" stderr || fail "check --from D does not say which run answers"
    cmp -s A/rounds/cpu-0.zst D/run/rounds/cpu-0.zst || fail "D/run/rounds/cpu-0.zst is not A's"
    # A report over an older report keeps nothing of it: neither its facts nor its variants.
    "$tscaudit" report --from B --out R >/dev/null 2>stderr || fail "report --from B: exit $?"
    mkdir -p R/variants && echo '{}' >R/variants/variants.json && echo facts >R/info.txt && echo '{}' >R/info.json
    "$tscaudit" report --from A --out R >/dev/null 2>stderr || fail "report --from A: exit $?"
    for kept in R/info.txt R/info.json R/variants; do [ ! -e "$kept" ] || fail "the earlier report's $kept was kept"; done
    [ "$(cpus_of R/matrix/run)" = "$(cpus_of A)" ] || fail "R/matrix/run is not A's"
    "$tscaudit" report --from R --out R2 >/dev/null 2>stderr || fail "report --from R: exit $?"
    said "rebuilt from R/matrix/run" stderr || fail "report --from R does not read R's own run"
    ls -d ./*.tmp.* 2>/dev/null && fail "a directory was left aside"
    ;;
  two-writers)
    # check --from B --out D while simulate writes D: refused at once, naming the writer; D
    # ends whole, one writer's.
    machines
    "$tscaudit" "${big_machine[@]}" --out D 2>/dev/null &
    writer=$!
    wait_until '[ -f D/.lock ] && grep -q "^pid: $writer$" D/.lock' "$writer"
    "$tscaudit" check --from B --out D >/dev/null 2>stderr
    rc=$?
    [ "$rc" = 3 ] || { kill -KILL "$writer"; fail "the second writer exited $rc, expected 3"; }
    said "cannot write D: it is being written by pid $writer (.*simulate --topology" stderr ||
      { kill -KILL "$writer"; fail "the refusal does not name the writer"; }
    # Meanwhile a reader is told who is writing it (nothing is in place yet).
    "$tscaudit" check --from D >/dev/null 2>stderr
    rc=$?
    if kill -0 "$writer" 2>/dev/null; then
      [ "$rc" = 3 ] || { kill -KILL "$writer"; fail "a reader of D being written exited $rc, expected 3"; }
      grep -q "^tscaudit: error: D: it is being written by pid $writer (.*): nothing is in place until it ends$" stderr ||
        { kill -KILL "$writer"; fail "the reader is not told who writes D"; }
    fi
    wait "$writer" || fail "the writer exited $?"
    [ "$(cpus_of D)" = "$(python3 -c 'print(",".join(map(str, range(8))))')" ] || fail "D is not the 8-CPU machine"
    [ ! -e D/matrix.json ] && [ ! -e D/pairs ] || fail "D holds the refused writer's files"
    ;;
  writer-stopped)
    # A writer killed midway: the directory says so, and where what it wrote is.
    "$tscaudit" "${big_machine[@]}" --out D 2>/dev/null &
    writer=$!
    wait_until 'compgen -G "D.tmp.*/rounds/cpu-0.zst" >/dev/null' "$writer"
    kill -KILL "$writer"
    wait "$writer"
    aside=$(compgen -G "D.tmp.*")
    "$tscaudit" check --from D >/dev/null 2>stderr
    rc=$?
    [ "$rc" = 3 ] || fail "check --from D of a stopped writer: exit $rc, expected 3"
    grep -q "^tscaudit: error: D: its writer (pid $writer (.*)) stopped before it put its output in place; what it had written is in .*$aside$" stderr ||
      fail "the reader is not told the writer stopped, and where its output is"
    "$tscaudit" check --from "$aside" >/dev/null 2>stderr
    rc=$?
    [ "$rc" = 3 ] || fail "check --from the stopped writer's directory: exit $rc, expected 3 (incomplete)"
    said "manifest.json says running: the writer (pid $writer (" stderr || fail "the stopped run is not said to be one"
    # The next writer takes D (the stale lock holds nothing); what the stopped one wrote stays.
    "$tscaudit" simulate --topology "synthetic:package:1 core:2 pu:1" --rounds 300 --out D 2>stderr || fail "a new writer of D: exit $?"
    [ -d "$aside" ] || fail "the stopped writer's directory was removed"
    [ ! -e D/.lock ] || fail "D keeps a lock file"
    ;;
  planted-links)
    # A link planted at a directory inside an output directory is refused, never followed.
    machines
    "$tscaudit" matrix --from B --out D >/dev/null 2>stderr || fail "matrix --from B: exit $?"
    rm -rf D/run && ln -s "$dir/A" D/run
    before=$(cd A && find . -type f | sort | xargs md5sum)
    "$tscaudit" matrix --from B --out D >/dev/null 2>stderr
    rc=$?
    [ "$rc" = 3 ] || fail "a link at D/run: exit $rc, expected 3"
    said "cannot write D: it holds run, which tscaudit does not write there" stderr || fail "a link at D/run is not named"
    [ "$(cd A && find . -type f | sort | xargs md5sum)" = "$before" ] || fail "the run the link leads to was changed"
    rm D/run && mkdir other && rm -rf D/pairs && ln -s "$dir/other" D/pairs
    "$tscaudit" check --from B --out D >/dev/null 2>stderr
    [ $? = 3 ] || fail "a link at D/pairs: not refused"
    [ -z "$(ls -A other)" ] || fail "files were written through the link at D/pairs: $(ls other | head -3)"
    "$tscaudit" report --from B --out R >/dev/null 2>stderr || fail "report --from B: exit $?"
    rm -rf R/matrix && ln -s "$dir/other" R/matrix
    "$tscaudit" report --from B --out R >/dev/null 2>stderr
    [ $? = 3 ] || fail "a link at R/matrix: not refused"
    said "cannot write R: it holds matrix, which tscaudit does not write there" stderr || fail "a link at R/matrix is not named"
    [ -z "$(ls -A other)" ] || fail "files were written through the link at R/matrix"
    ;;
  read-back)
    # Every directory tscaudit writes reads back, and says which run answers.
    machines
    "$tscaudit" report --from A --out R >/dev/null 2>/dev/null || fail "report --from A: exit $?"
    "$tscaudit" check --from A --out C >check_a 2>/dev/null
    rc_a=$?
    for from in R C; do
      "$tscaudit" check --from "$from" >check_from 2>stderr
      [ $? = "$rc_a" ] || fail "check --from $from: another exit than check --from A"
      cmp -s check_a check_from || fail "check --from $from answers otherwise than check --from A"
      "$tscaudit" matrix --from "$from" >/dev/null 2>>stderr || fail "matrix --from $from: exit $?"
    done
    said "rebuilt from R/matrix/run (the ordering-read matrix of the report in R)" stderr ||
      said "rebuilt from C/run (the run of the matrix in C)" stderr || fail "which run answers is not said"
    # One CPU: nothing measured, and its --out reads back as the same inconclusive answer.
    "$tscaudit" matrix --cpus 0 --out ONE >one_live 2>/dev/null
    rc_live=$?
    [ "$rc_live" = 5 ] || fail "matrix --cpus 0: exit $rc_live, expected 5 (inconclusive)"
    "$tscaudit" matrix --from ONE >one_back 2>stderr
    [ $? = 5 ] || fail "matrix --from a one-CPU --out: exit $?, expected 5"
    cmp -s one_live one_back || fail "a one-CPU --out reads back otherwise: $(diff one_live one_back | head -4)"
    # What is not there, or holds no run, is said as such (exit 2), and no --out is made for it.
    "$tscaudit" check --from /nonexistent-tscaudit --out N 2>stderr
    [ $? = 2 ] || fail "--from a missing directory: not exit 2"
    grep -q "^tscaudit: error: --from /nonexistent-tscaudit: no such directory$" stderr || fail "a missing --from is not said"
    [ ! -e N ] || fail "an --out was made for a missing --from"
    mkdir EMPTY
    "$tscaudit" matrix --from EMPTY 2>stderr
    [ $? = 2 ] || fail "--from an empty directory: not exit 2"
    said "EMPTY: holds no run" stderr || fail "an empty --from is not said to hold no run"
    ;;
  second-signal)
    # A second signal ends the writer at once: nothing of its run is left, an earlier output
    # stays whole.
    needs_two_cpus
    "$tscaudit" matrix --cpus 0,1 --rounds 2000 --out D >/dev/null 2>/dev/null || fail "an earlier matrix: exit $?"
    before=$(cd D && find . -type f | sort | xargs md5sum)
    for sig in INT TERM; do
      "$tscaudit" matrix --cpus 0,1 --rounds 200000 --visits 200 --out D >/dev/null 2>stderr &
      writer=$!
      wait_until 'compgen -G "D.tmp.*/run/rounds/cpu-0.zst" >/dev/null' "$writer"
      kill -$sig "$writer"
      kill -$sig "$writer"
      wait "$writer"
      rc=$?
      [ "$rc" -gt 128 ] || [ "$rc" = 3 ] || fail "two SIG$sig: exit $rc"
      [ -z "$(compgen -G 'D.*')" ] || fail "two SIG$sig left $(compgen -G 'D.*')"
      [ ! -e D/.lock ] || fail "two SIG$sig left D/.lock"
      # Killed before its exchange, the earlier D stays as it was; the first signal may also
      # have let the writer reach the exchange of its interrupted run first, which D then holds
      # whole (the second signal ending it after the rename, the earlier one's removal done).
      if [ "$rc" -gt 128 ] && [ "$(cd D && find . -type f | sort | xargs md5sum)" != "$before" ]; then
        status=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"])' D/run/manifest.json 2>&1)
        [ "$status" = interrupted ] || fail "two SIG$sig changed the earlier D into a run whose status is $status"
        before=$(cd D && find . -type f | sort | xargs md5sum)
      fi
    done
    ;;
  *)
    echo "unknown case $case_name" >&2
    exit 1
    ;;
esac
exit 0
