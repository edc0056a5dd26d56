#!/usr/bin/env bash
# Hostile run directories (docs/formats.md, "Run directory", "Limits"), made by
# tests/house/hostile_dirs.py from a small simulated run, each read by check --from and
# matrix --from under `timeout 60` and a 2 GB address-space limit:
#   hostile_dirs.sh TSCAUDIT WORKDIR HOSTILE_DIRS_PY
# A directory beyond a limit is refused: exit 2, the file named. Evidence that is well-formed
# but more than a visit holds is lost: the analysis goes on (exit 0, 1 or 5) and says
# `evidence lost:`. Never a timeout (124), a kill (137) or a crash (139), and standard error
# printable. Every case runs; the failures are listed at the end.
# Exit 0: as documented; 1: not; 4: skipped (python3 or the zstd command missing).
set -u
tscaudit=$1
work=$2
maker=$3

for tool in python3 zstd timeout; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIPPED: $tool is not installed (scripts/install-deps.sh installs it)"
    exit 4
  fi
done

rm -rf "$work"
mkdir -p "$work"
base="$work/base"
"$tscaudit" simulate --topology "synthetic:package:1 core:2 pu:1" --rounds 300 --seed 3 --out "$base" \
  >/dev/null 2>"$work/simulate.err" || { echo "FAIL: simulate: $(cat "$work/simulate.err")" >&2; exit 1; }

# 2 GB of address space for each read: a hostile directory must not cost more. A binary
# under AddressSanitizer reserves terabytes of shadow address space at start and cannot run
# under such a limit; there the reads are held to the time limit and the sanitizer's own
# checks only (the plain build holds the memory).
memory_kb=2000000
if [ -n "${ASAN_OPTIONS:-}" ] || ldd "$tscaudit" 2>/dev/null | grep -q 'libasan'; then memory_kb=unlimited; fi

failures=()
fail() { failures+=("$*"); echo "FAIL: $*" >&2; }

# make KIND N [NAME]: the directory $work/NAME (KIND-N by default).
make_dir() {
  local dir="$work/${3:-$1-$2}"
  python3 "$maker" make "$1" "$2" "$dir" "$base" 2>"$work/make.err" || { fail "make $1 $2: $(cat "$work/make.err")"; return 1; }
  echo "$dir"
}

# run CASE COMMAND DIR: sets rc, out and err (files) of `tscaudit COMMAND --from DIR`.
run() {
  local case=$1 command=$2 dir=$3
  out="$work/$case.$command.out"
  err="$work/$case.$command.err"
  # The limit applies to this subshell and what it runs only.
  (ulimit -v "$memory_kb" && exec timeout 60 "$tscaudit" "$command" --from "$dir") >"$out" 2>"$err"
  rc=$?
  case $rc in
    124) fail "$case: $command --from ran past 60 s (timeout)" ;;
    137) fail "$case: $command --from was killed (out of memory?)" ;;
    139) fail "$case: $command --from crashed (SIGSEGV)" ;;
  esac
  if LC_ALL=C grep -q '[^[:print:][:space:]]' "$err"; then
    fail "$case: $command --from wrote bytes outside printable ASCII to standard error"
  fi
}

# refused CASE DIR WHAT: exit 2 and standard error names the file with WHAT (an extended
# regular expression), for check and matrix.
refused() {
  local case=$1 dir=$2 what=$3
  for command in check matrix; do
    run "$case" "$command" "$dir"
    [ "$rc" -eq 2 ] || { fail "$case: $command --from: exit $rc, expected 2; $(tail -c 400 "$err")"; continue; }
    grep -Eq "$what" "$err" || fail "$case: $command --from does not say '$what': $(tail -c 400 "$err")"
  done
}

# lost CASE DIR WHAT: the analysis goes on (exit 0, 1 or 5) and an `evidence lost:` line says
# WHAT (an extended regular expression), for check and matrix.
lost() {
  local case=$1 dir=$2 what=$3
  for command in check matrix; do
    run "$case" "$command" "$dir"
    case $rc in 0 | 1 | 5) ;; *) fail "$case: $command --from: exit $rc, expected 0, 1 or 5; $(tail -c 400 "$err")"; continue ;; esac
    # The text is wrapped at 100 columns: a line that starts with spaces goes on the one before.
    cat "$out" "$err" | awk 'NR > 1 && /^ / { sub(/^ +/, " "); printf "%s", $0; next } NR > 1 { print "" } { printf "%s", $0 } END { print "" }' \
      >"$work/$case.$command.unwrapped"
    grep -E "evidence lost: .*$what" "$work/$case.$command.unwrapped" >/dev/null ||
      fail "$case: $command --from has no 'evidence lost: ... $what' line: $(head -c 400 "$out") $(tail -c 400 "$err")"
  done
}

q='[0-9]+:[0-9]+'
if dir=$(make_dir depth 100000); then refused depth "$dir" "$dir/manifest\\.json:$q: nested deeper than 64"; fi
if dir=$(make_dir keys 100000); then
  refused keys "$dir" "$dir/manifest\\.json:$q: pair_header: 100011 keys, more than the 4096"
fi
for n in 100000 5000; do
  if dir=$(make_dir cpus $n); then
    refused "cpus-$n" "$dir" "$dir/manifest\\.json:$q: cpus: $n CPUs, more than the 4096 a run directory may hold"
  fi
done
if dir=$(make_dir frames 100000); then
  lost frames "$dir" "rounds/cpu-0\\.zst at byte [0-9]+ \\(frame 99999, [0-9]+ bytes\\): pair 0 -> 1, visit=0 .*appears twice"
fi
if dir=$(make_dir claim 5000000); then
  lost claim "$dir" "claims 5000000 rounds, the plan's visits hold at most 300"
fi
# The same frame in a directory whose manifest has no plan spec: nothing says how many rounds
# a visit holds, and the frame (made by a stream: no content size in its header) is stopped
# while it decompresses.
if dir=$(make_dir claim 5000000 claim-nospec); then
  python3 -c 'import json, sys
m = json.load(open(sys.argv[1])); del m["plan"]["spec"]; json.dump(m, open(sys.argv[1], "w"))' "$dir/manifest.json"
  lost claim-nospec "$dir" "the zstd frame decompresses to more than [0-9]+ bytes, 256 times its"
fi
if dir=$(make_dir fifo 0); then refused fifo "$dir" "$dir/manifest\\.json: not a regular file \\(a FIFO\\)"; fi
if dir=$(make_dir topofifo 0); then refused topofifo "$dir" "$dir/topology\\.xml: not a regular file \\(a FIFO\\)"; fi
if dir=$(make_dir zero 0); then
  refused zero "$dir" "$dir/topology\\.xml: not a regular file \\(a character device\\)"
fi

if [ ${#failures[@]} -gt 0 ]; then
  echo "${#failures[@]} failures:" >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
echo "every hostile directory refused or read past, within 60 s and 2 GB"
