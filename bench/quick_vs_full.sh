#!/usr/bin/env bash
# The quick check's bound against the full check's, interleaved on the same machine
# (bench/README.md, "The quick check"): a full check of --budget S seconds, then
# tscaudit_bench_quick's calls with that check's bound, then a second full check, whose
# bound the calls are compared with too. The latency between CPUs of a shared machine swings
# between regimes within seconds, so the two full checks say how much the reference itself
# moves.
#   build/tscaudit_bench_quick_vs_full [--budget S] [--calls N]   (defaults 90, 50)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
budget=90
calls=50
while [ $# -gt 0 ]; do
  case $1 in
    --budget) budget=$2; shift 2 ;;
    --calls) calls=$2; shift 2 ;;
    *) echo "usage: $0 [--budget S] [--calls N]" >&2; exit 2 ;;
  esac
done
full_bound() {
  "$here/tscaudit" check --budget "$budget" --format json 2>/dev/null |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["bound_ns"])'
}
first=$(full_bound)
echo "full check 1 (--budget $budget): bound $first ns"
"$here/tscaudit_bench_quick" --calls "$calls" --seeds 0 --full-bound-ns "$first"
second=$(full_bound)
echo "full check 2 (--budget $budget): bound $second ns"
"$here/tscaudit_bench_quick" --calls "$calls" --seeds 0 --full-bound-ns "$second"
