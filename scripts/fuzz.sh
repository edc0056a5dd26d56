#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer harnesses of fuzz/ with clang
# (-fsanitize=fuzzer,address,undefined) into build-fuzz/ and runs each for FUZZ_SECONDS
# over a working copy of its committed corpus, on one core (one process, no -jobs: other
# work shares the machine). Fails on the first finding; the input that did it is saved
# under build-fuzz/findings/TARGET/ (copy it to fuzz/regressions/TARGET/ once fixed).
#
#   FUZZ_SECONDS  seconds per target (default 60)
#   FUZZ_TARGET   one target (run_format, ...); default every fuzz/fuzz_*.cpp
#   FUZZ_BUILD    build directory (default build-fuzz)
#   JOBS          build jobs (default 2)
#   FUZZ_ARGS     more libFuzzer options (e.g. -seed=1)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
build=${FUZZ_BUILD:-build-fuzz}
jobs=${JOBS:-2}
if [[ -n ${FUZZ_TARGET:-} ]]; then
  targets=("$FUZZ_TARGET")
else
  targets=()
  for f in fuzz/fuzz_*.cpp; do
    t=${f#fuzz/fuzz_}
    t=${t%.cpp}
    [[ $t == support ]] || targets+=("$t")
  done
fi
for t in "${targets[@]}"; do
  if [[ ! -f fuzz/fuzz_$t.cpp || ! -d fuzz/corpus/$t ]]; then
    echo "fuzz: no target '$t' (fuzz/fuzz_$t.cpp and fuzz/corpus/$t/)" >&2
    exit 2
  fi
done

bash scripts/install-deps.sh build fuzz

if [[ ! -f $build/build.ninja ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DTSCAUDIT_FUZZ=ON -DTSCAUDIT_SANITIZE=address,undefined -DTSCAUDIT_BUILD_TESTS=OFF -DTSCAUDIT_BUILD_BENCH=OFF
fi
cmake --build "$build" -j "$jobs" --target "${targets[@]/#/fuzz_}"

# Any sanitizer report ends the run as a finding, with a symbolized stack.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1:symbolize=1}

for t in "${targets[@]}"; do
  work=$build/corpus/$t         # grows from run to run; the committed corpus is only read
  findings=$build/findings/$t
  mkdir -p "$work" "$findings"
  cp -n fuzz/corpus/"$t"/* "$work"/
  dict=()
  [[ -f fuzz/dict/$t.dict ]] && dict=(-dict=fuzz/dict/$t.dict)
  log=$build/fuzz_$t.log
  echo "fuzz: $t for $seconds s over $work (log $log)" >&2
  # -max_len above twice the 64 KiB line limit, so that inputs can hold a line past it.
  # shellcheck disable=SC2086
  if ! "$build/fuzz/fuzz_$t" "$work" "${dict[@]}" -max_total_time="$seconds" -max_len=140000 -timeout=10 \
       -artifact_prefix="$findings/" -print_final_stats=1 ${FUZZ_ARGS:-} >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    echo "fuzz: $t: FINDING (reproducer in $findings/, log $log)" >&2
    exit 1
  fi
  # The last status line (coverage) and the final statistics.
  grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | tail -n 1 >&2 || true
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" >&2 || true
done
echo "fuzz: no finding in ${targets[*]} (${seconds} s each)" >&2
