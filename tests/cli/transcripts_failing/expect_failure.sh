#!/bin/bash
# The transcript runner's own test: runs it on a transcript of this folder, which must fail
# (exit 1) and print every line the transcript gives after "#= " (in order, other lines
# between them allowed).
#   expect_failure.sh RUNNER TSCAUDIT SOURCE_DIR SCRATCH FILE.t
set -u
runner=$1 file=$5
out=$(env -u TSCAUDIT_TRANSCRIPT_UPDATE bash "$runner" "${@:2}" 2>&1)
rc=$?
printf '%s\n' "$out"
echo "--- the runner exited $rc"
((rc == 1)) || { echo "FAIL: the runner exited $rc, expected 1 (a transcript that fails)"; exit 1; }
mapfile -t want < <(sed -n 's/^#= //p' "$file")
((${#want[@]})) || { echo "FAIL: $file gives no '#= ' line to expect"; exit 1; }
mapfile -t got <<<"$out"
j=0
for w in "${want[@]}"; do
  while ((j < ${#got[@]})) && [[ ${got[j]} != "$w" ]]; do ((j++)); done
  ((j < ${#got[@]})) || { echo "FAIL: the runner did not print (in this order): $w"; exit 1; }
  ((j++))
done
echo "the runner failed as expected"
