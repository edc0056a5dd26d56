#!/bin/sh
# What hostile run directories cost `tscaudit check --from DIR` (bench/README.md, "Hostile
# run directories"; the limits in docs/formats.md, "Run directory"): for each kind and size,
# tests/house/hostile_dirs.py makes the directory from a small simulated run, and GNU time
# measures check --from on it. Prints one row per case: the kind, its size n, the directory's
# bytes, the exit code, the wall time and the peak RSS. A directory of N bytes should cost
# O(N) memory and O(N log N) time, or be refused (exit 2).
#
#   bench/bench_hostile_dirs.sh [--tscaudit PATH] [--kinds cpus,frames,keys,depth]
#                               [--sizes 1000,10000,100000,1000000] [--dir DIR] [--keep]
#
# --tscaudit  the binary (default: build/tscaudit of this tree)
# --kinds     what hostile_dirs.py makes (cpus, frames, keys, depth, claim, ...)
# --sizes     n of each kind
# --dir       where the directories go (default: a new directory in $TMPDIR, removed)
# --keep      leave them there
# Each run is capped at 4 GB of address space (ulimit -v) and 300 s: a case that needs more
# shows as exit 3 (an allocation failed) or 124 (the time ran out), never taking a shared
# machine's memory. Needs python3, the zstd command and GNU time (scripts/install-deps.sh).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tscaudit="$here/../build/tscaudit"
maker="$here/../tests/house/hostile_dirs.py"
kinds="cpus,frames,keys,depth"
sizes="1000,10000,100000,1000000"
dir=""
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tscaudit) tscaudit="$2"; shift 2 ;;
    --kinds) kinds="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "usage: $0 [--tscaudit PATH] [--kinds K,...] [--sizes N,...] [--dir DIR] [--keep]" >&2; exit 2 ;;
  esac
done
for tool in python3 zstd /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is not installed (scripts/install-deps.sh)" >&2; exit 4; }
done
if [ -z "$dir" ]; then
  dir=$(mktemp -d "${TMPDIR:-/tmp}/tscaudit-bench-hostile-XXXXXX")
fi
mkdir -p "$dir"
[ "$keep" -eq 1 ] || trap 'rm -rf "$dir"' EXIT

base="$dir/base"
rm -rf "$base"
"$tscaudit" simulate --topology "synthetic:package:1 core:2 pu:1" --rounds 300 --out "$base" >/dev/null 2>&1

printf '%-7s %9s %14s %5s %9s %12s\n' kind n bytes exit wall_s peak_rss_mb
for kind in $(echo "$kinds" | tr ',' ' '); do
  for n in $(echo "$sizes" | tr ',' ' '); do
    d="$dir/$kind-$n"
    python3 "$maker" make "$kind" "$n" "$d" "$base"
    bytes=$(du -sb --apparent-size "$d" | cut -f1)
    rc=0
    (ulimit -v 4000000 && exec /usr/bin/time -o "$dir/time" -f '%e %M' timeout 300 "$tscaudit" check --from "$d") \
      >/dev/null 2>"$dir/err" || rc=$?
    # GNU time's last line: wall seconds and peak RSS in KiB.
    set -- $(tail -n 1 "$dir/time")
    wall=$1
    rss_mb=$(awk -v k="$2" 'BEGIN { printf "%.1f", k / 1024 }')
    printf '%-7s %9s %14s %5s %9s %12s\n' "$kind" "$n" "$bytes" "$rc" "$wall" "$rss_mb"
    [ "$keep" -eq 1 ] || rm -rf "$d"
  done
done
