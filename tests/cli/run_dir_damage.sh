#!/usr/bin/env bash
# Damaged evidence in a run directory (docs/formats.md, "Run directory", "Damage"):
#   run_dir_damage.sh TSCAUDIT WORKDIR
# A simulated 2-CPU machine (4 visits per ordered pair) has 8 bytes of the middle of
# rounds/cpu-0.zst overwritten. check --from, matrix --from and report --from analyse the
# rest: the exit code is the analysis' (the same as before the damage: 0 or 1, never 2), and
# the loss is named in the text, the JSON and the HTML report. Every frame of every file
# destroyed leaves no pair with rounds: inconclusive, exit 5, the losses named. Exit 0: as
# documented; 1: not (the reason is printed).
set -u
. "$(dirname "$0")/said.sh"
tscaudit=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
run="$work/run"

fail() { echo "FAIL: $*" >&2; exit 1; }

"$tscaudit" simulate --topology "synthetic:package:1 core:2 pu:1" --rounds 300 --seed 3 --out "$run" \
  >/dev/null 2>"$work/simulate.err" || fail "simulate: $(cat "$work/simulate.err")"
"$tscaudit" check --from "$run" >/dev/null 2>&1
want=$?
[ "$want" -eq 0 ] || [ "$want" -eq 1 ] || fail "check --from the undamaged run: exit $want"

# 8 bytes in the middle of the file: inside a frame (a visit of pair 0 -> 1).
file="$run/rounds/cpu-0.zst"
size=$(stat -c %s "$file")
printf '\377\377\377\377\377\377\377\377' | dd of="$file" bs=1 seek=$((size / 2)) conv=notrunc status=none

"$tscaudit" check --from "$run" >"$work/check.out" 2>"$work/check.err"
rc=$?
[ "$rc" -eq "$want" ] || fail "check --from: exit $rc, expected $want (as without the damage); $(cat "$work/check.err")"
grep -q '^evidence lost: rounds/cpu-0\.zst at byte [0-9]* (frame [0-9]*, [0-9]* bytes): pair 0 -> [1?]' "$work/check.out" ||
  fail "check --from does not name the loss: $(cat "$work/check.out")"

"$tscaudit" check --from "$run" --format json >"$work/check.json" 2>"$work/check_json.err"
rc=$?
[ "$rc" -eq "$want" ] || fail "check --from --format json: exit $rc, expected $want"
grep -q '"lost_evidence": true' "$work/check.json" || fail "check's JSON lacks \"lost_evidence\": true"
grep -q '"file": "rounds/cpu-0.zst"' "$work/check.json" || fail "check's JSON does not name the file"
said 'evidence lost: rounds/cpu-0\.zst' "$work/check_json.err" || fail "check --format json: no loss on stderr"

"$tscaudit" matrix --from "$run" >"$work/matrix.out" 2>"$work/matrix.err"
rc=$?
[ "$rc" -eq 0 ] || fail "matrix --from: exit $rc, expected 0; $(cat "$work/matrix.err")"
grep -q '^  evidence lost: rounds/cpu-0\.zst at byte ' "$work/matrix.err" ||
  fail "matrix --from does not name the loss: $(cat "$work/matrix.err")"
"$tscaudit" matrix --from "$run" --format json --out "$work/matrix_out" >"$work/matrix.json" 2>/dev/null
rc=$?
[ "$rc" -eq 0 ] || fail "matrix --from --format json: exit $rc, expected 0"
grep -q '"lost_evidence": *true' "$work/matrix.json" || fail "matrix's JSON lacks \"lost_evidence\": true"
grep -q '"file": *"rounds/cpu-0.zst"' "$work/matrix.json" || fail "matrix's JSON does not name the file"
grep -q '"lost_evidence": *true' "$work/matrix_out/matrix.json" || fail "matrix.json of --out lacks the loss"

"$tscaudit" report --from "$run" --out "$work/report" >"$work/report.out" 2>"$work/report.err"
rc=$?
[ "$rc" -eq 0 ] || fail "report --from: exit $rc, expected 0; $(cat "$work/report.err")"
grep -q 'Evidence lost' "$work/report/report.html" || fail "report.html does not say evidence was lost"
grep -q 'rounds/cpu-0\.zst at byte ' "$work/report/report.html" || fail "report.html does not name the loss"
said 'evidence lost: rounds/cpu-0\.zst' "$work/report.err" || fail "report --from: no loss on stderr"

# Nothing readable: no pair has rounds, and nothing is proven either way: inconclusive
# (exit 5), with what was lost.
for f in "$run"/rounds/cpu-*.zst; do
  head -c 4096 /dev/zero >"$f"
done
"$tscaudit" check --from "$run" >"$work/nothing.out" 2>"$work/nothing.err"
rc=$?
[ "$rc" -eq 5 ] || fail "check --from with nothing readable: exit $rc, expected 5"
tr '\n' ' ' <"$work/nothing.out" | tr -s ' ' |
  grep -q '^inconclusive: 2 ordered pairs of 2 have no rounds (0->1, 1->0): lost from the run directory (evidence lost: rounds/cpu-0\.zst at byte 0' ||
  fail "check --from with nothing readable: $(cat "$work/nothing.out")"
echo "ok"
