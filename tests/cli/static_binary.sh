#!/usr/bin/env bash
# The fully static binary of `make static` (README, "What the binary needs at run time"):
#   static_binary.sh BINARY [WORKDIR]
# It is statically linked (file), not a dynamic executable (ldd), has no program interpreter
# and no dynamic section (readelf); copied alone into an empty directory it runs info, check
# and report; hwloc's plugin loader loads nothing into it.
# Exit 0: all of that holds; 1: something does not (each failure printed); 4: skipped, with the
# reason (no such binary yet, or fewer than two CPUs for check and report). Never a timing
# assertion: check may answer 0 or 1, the verdict line is what shows it ran.
set -u
binary=$1
work=${2:-$(mktemp -d)}

if [ ! -e "$binary" ]; then
  echo "SKIPPED: no static binary at $binary: build it with \`make static\`"
  exit 4
fi

failures=()
fail() { failures+=("$*"); }
# show NAME FILE: FILE's lines, indented, under NAME (what a failure needs to be understood).
show() { [ -s "$2" ] && { echo "  $1:"; sed 's/^/    /' "$2"; }; }

rm -rf "$work/alone" "$work/plugins"
mkdir -p "$work/alone" "$work/plugins"
alone=$work/alone

# What the file is. `file` and `ldd` are the checks a person runs; readelf says the same from
# the program headers: no INTERP (no dynamic loader) and no DYNAMIC (no shared library).
if command -v file >/dev/null; then
  what=$(file -b "$binary")
  [[ $what == *"statically linked"* ]] || fail "file does not say 'statically linked': $what"
else
  fail "file is not installed (scripts/install-deps.sh installs it)"
fi
linked=$(ldd "$binary" 2>&1)
[[ $linked == *"not a dynamic executable"* ]] || fail "ldd does not say 'not a dynamic executable': $linked"
headers=$(readelf -lW "$binary" 2>&1)
if grep -Eq '^ +(INTERP|DYNAMIC) ' <<<"$headers"; then
  fail "readelf shows a program interpreter or a dynamic section: $(grep -E '^ +(INTERP|DYNAMIC) ' <<<"$headers")"
fi

# The binary alone in an empty directory, run from there.
cp "$binary" "$alone/tscaudit"
cd "$alone" || exit 1

./tscaudit info >"$work/info.out" 2>"$work/info.err"
rc=$?
[ "$rc" -eq 0 ] || fail "info: exit code $rc, expected 0"
# The topology line comes from hwloc, linked in without udev: it must still see the CPUs.
grep -Eq '^topology +[0-9]+ packages?, .*[0-9]+ PUs?$' "$work/info.out" ||
  fail "info: no topology line with packages and PUs: $(grep '^topology' "$work/info.out")"
grep -Eq '^cpus +present ' "$work/info.out" || fail "info: no 'cpus present' line"

# hwloc lists $HWLOC_PLUGINS_PATH and hands every hwloc_*.so to dlopen; in the static binary
# that dlopen loads nothing and says why (src/platform/static_hwloc.cpp). glibc's real dlopen
# would have tried the file and said something else about it.
echo "not a shared object" >"$work/plugins/hwloc_fake.so"
HWLOC_PLUGINS_PATH=$work/plugins HWLOC_PLUGINS_VERBOSE=1 ./tscaudit info >/dev/null 2>"$work/plugins.err"
rc=$?
[ "$rc" -eq 0 ] || fail "info with a plugin directory: exit code $rc, expected 0"
grep -q "hwloc: Failed to load plugin: tscaudit is statically linked: it loads no shared object" "$work/plugins.err" ||
  fail "hwloc's plugin loader did not get the static binary's refusal (HWLOC_PLUGINS_VERBOSE=1 said: $(grep -i plugin "$work/plugins.err" | tr '\n' ' '))"

if [ "$(nproc)" -lt 2 ]; then
  if [ ${#failures[@]} -gt 0 ]; then
    printf 'FAIL (static binary): %s\n' "${failures[@]}" >&2
    exit 1
  fi
  echo "SKIPPED: check and report need two CPUs, this machine lets the test use $(nproc) (the static checks and info passed)"
  exit 4
fi

# check: exit 0 (synchronized) or 1 (not) both mean it measured and judged; the verdict is the
# first line of standard output.
./tscaudit check --cpus 0,1 --rounds 5000 --visits 2 >"$work/check.out" 2>"$work/check.err"
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then fail "check: exit code $rc, expected 0 or 1"; fi
head -1 "$work/check.out" | grep -Eq '^(synchronized to within [^:]+|not synchronized): .*2 CPUs' ||
  fail "check: the first line is not a verdict on 2 CPUs: $(head -1 "$work/check.out")"

# report: the whole directory; the pictures when gnuplot is there, else the one line that
# names those not drawn.
./tscaudit report --cpus 0,1 --rounds 5000 --visits 2 --variants-rounds 8000 --out r >"$work/report.out" 2>"$work/report.err"
rc=$?
[ "$rc" -eq 0 ] || fail "report: exit code $rc, expected 0"
for f in report.md report.html info.txt info.json pair_verdicts.txt matrix/matrix.json matrix/matrix.txt \
         matrix_plain_rdtsc/matrix.json variants/variants.json; do
  [ -s "r/$f" ] || fail "report: r/$f is missing or empty"
done
grep -q 'report: wrote r/report.md and r/report.html$' "$work/report.err" ||
  fail "report: stderr does not say 'wrote r/report.md and r/report.html'"
if command -v gnuplot >/dev/null; then
  for f in matrix/offset_ticks.png matrix/offset_ticks.svg variants/variants_cost.png; do
    [ -s "r/$f" ] || fail "report: gnuplot is installed but r/$f was not drawn"
  done
else
  grep -q 'gnuplot not found' "$work/report.err" || fail "report: without gnuplot, no 'gnuplot not found' line"
fi

if [ ${#failures[@]} -gt 0 ]; then
  printf 'FAIL (static binary): %s\n' "${failures[@]}" >&2
  for part in info plugins check report; do
    show "$part stdout" "$work/$part.out" >&2
    show "$part stderr" "$work/$part.err" >&2
  done
  exit 1
fi
echo "static binary $binary: $what; ldd: $linked"
echo "copied alone to $alone: info, check ($(head -1 "$work/check.out" | cut -c1-60)...) and report ran"
