#!/usr/bin/env bash
# The analysis is pure (docs/development.md, "Layout"): no clock, no random numbers, no
# signals, no locks or threads, no /proc or /sys. This reads what the compiled libraries of
# analysis/ ask the linker for (undefined symbols, nm -u) and the strings of their read-only
# data (readelf -p .rodata*), so that a call that slips in is named, object and symbol, by
# the suite rather than by a user who finds the same rounds analyzed twice disagree.
#   pure_analysis.sh NM READELF LIBRARY.a...
# NM and READELF are the toolchain's (CMAKE_NM, CMAKE_READELF: the cross build's read aarch64
# objects). Exit 0 when no library asks for a denied symbol nor holds "/proc/" or "/sys/";
# 1 naming each (library, object, what); 4, a skip, when a tool is missing.
set -u
nm=$1
readelf=$2
shift 2

for tool in "$nm" "$readelf"; do
  if [ -z "$tool" ] || ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIPPED: no binutils to read the analysis' objects with (nm '$nm', readelf '$readelf')"
    exit 4
  fi
done
[ $# -gt 0 ] || { echo "FAIL: no library given"; exit 1; }

# Denied by exact name: the C library's calls.
deny_exact=" clock_gettime clock_getres gettimeofday time clock ftime nanosleep clock_nanosleep usleep sleep \
alarm setitimer timer_create getrandom getentropy rand srand rand_r random srandom drand48 arc4random \
sigaction signal kill raise sigprocmask pthread_sigmask pthread_kill sigsuspend \
flock lockf pthread_create thrd_create "
# Denied by the start of the demangled name: the C++ library's threads, clocks and entropy.
deny_prefix=("std::thread::" "std::this_thread::" "std::jthread::" "std::random_device::"
             "std::chrono::_V2::system_clock::now" "std::chrono::_V2::steady_clock::now"
             "std::chrono::_V2::high_resolution_clock::now")

# Which sources an object of a unity build holds: CMake's Unity/unity_N_cxx.cxx beside the
# library's objects, its #include lines. Empty for an object compiled from one source.
sources_of() {
  local lib=$1 object=$2
  local name
  name=$(basename "$lib" .a)
  local unity
  unity="$(dirname "$lib")/CMakeFiles/${name#lib}.dir/Unity/${object%.o}"
  [ -f "$unity" ] || return 0
  local files
  files=$(sed -n 's|^#include "\(.*\)"$|\1|p' "$unity" | xargs -r -n1 basename | paste -sd' ' -)
  [ -n "$files" ] && printf ' (%s)' "$files"
}

found=0
seen=0
for lib in "$@"; do
  if [ ! -f "$lib" ]; then
    echo "FAIL: $lib: missing (build the analysis first)"
    found=1
    continue
  fi
  # "LIB:OBJECT:   U NAME", one line per undefined symbol of each object; awk prints
  # "count N" once, then "OBJECT<TAB>NAME" for each denied one.
  report=$("$nm" -A -u -C "$lib" | awk -v lib="$lib" -v exact="$deny_exact" -v prefixes="${deny_prefix[*]}" '
    BEGIN { n = split(exact, e, " "); for (i = 1; i <= n; i++) denied[e[i]] = 1; np = split(prefixes, p, " ") }
    {
      rest = substr($0, length(lib) + 2)
      object = substr(rest, 1, index(rest, ":") - 1)
      symbol = substr(rest, index(rest, ":") + 1)
      sub(/^[[:space:]]*[Uw][[:space:]]+/, "", symbol)
      count++
      hit = (symbol in denied)
      for (i = 1; i <= np && !hit; i++) hit = index(symbol, p[i]) == 1
      if (hit) hits[++nh] = object "\t" symbol
    }
    END { print "count " count + 0; for (i = 1; i <= nh; i++) print hits[i] }')
  first=${report%%$'\n'*}
  seen=$((seen + ${first#count }))
  while IFS=$'\t' read -r object symbol; do
    echo "FAIL: $(basename "$lib"): $object$(sources_of "$lib" "$object") calls $symbol"
    found=1
  done < <(printf '%s\n' "$report" | tail -n +2)
  # The strings of every read-only data section, per object ("File: LIB(OBJECT)" before each).
  sections=$("$readelf" -W -S "$lib" | grep -o '\.rodata[^ ]*' | sort -u)
  for section in $sections; do
    object=""
    while IFS= read -r line; do
      case "$line" in
        "File: "*) object=${line##*(}; object=${object%)} ;;
        *"/proc/"* | *"/sys/"*)
          text=$(printf '%s' "$line" | sed -E 's/^[[:space:]]*\[[[:space:]]*[0-9a-f]+\][[:space:]]*//')
          echo "FAIL: $(basename "$lib"): $object$(sources_of "$lib" "$object") holds \"$text\" ($section)"
          found=1
          ;;
      esac
    done < <("$readelf" -p "$section" "$lib" 2>/dev/null | grep -E '^File: |/proc/|/sys/')
  done
done

# nm that read nothing would pass anything: every library asks for something (operator new,
# memcpy...).
if [ "$seen" -eq 0 ]; then
  echo "FAIL: $nm listed no undefined symbol in $*: it cannot read these objects"
  exit 1
fi
[ "$found" -eq 0 ] && echo "ok: $# libraries of analysis/ ($seen undefined symbols) call no clock, random, signal, lock or thread, and name no /proc or /sys"
exit "$found"
