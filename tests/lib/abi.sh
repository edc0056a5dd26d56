#!/usr/bin/env bash
# libtscaudit's ABI against the baseline kept in the repository (src/quick/libtscaudit.abi):
#   abi.sh check LIBRARY BASELINE HEADERS_DIR   abidiff of the baseline and LIBRARY: exit 0 when
#                                               they are the same ABI, 1 on any change (abidiff's
#                                               report printed), 4 when it cannot be judged here
#   abi.sh write LIBRARY BASELINE HEADERS_DIR   writes LIBRARY's ABI as the new baseline
#                                               (`make abi-baseline`; tests/lib/README.md says when)
# Both describe LIBRARY with the same abidw command: the exported functions and the types of
# the public header (HEADERS_DIR) they reach, without paths or line numbers, so that the
# baseline changes only when the ABI does. abidw reads them from the library's DWARF; the
# entry points' file is compiled with full debug information for that (cmake/TscauditLibrary.cmake).
set -u
mode=$1 library=$2 baseline=$3 headers=$4

skip() { echo "SKIPPED: $*"; exit 4; }

for tool in abidw abidiff; do
  command -v $tool >/dev/null || skip "$tool is not installed (abigail-tools: scripts/install-deps.sh package)"
done
[ -e "$library" ] || { echo "no library at $library: build tscaudit_shared first" >&2; exit 2; }

# describe LIBRARY OUT: LIBRARY's ABI as abidw writes it, less what names this build rather
# than the ABI: the compilation unit's path (the build directory) is dropped, and the needed
# libraries are left to the test "lib: exported symbols, needed libraries, SONAME".
describe() {
  abidw --no-corpus-path --no-comp-dir-path --no-show-locs --no-elf-needed --exported-interfaces-only \
    --headers-dir "$headers" --drop-private-types --out-file "$2.abidw" "$1" || return 1
  sed "s/^\( *<abi-instr [^>]*\) path='[^']*'/\1/" "$2.abidw" >"$2" && rm -f "$2.abidw"
}

case $mode in
  write)
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    describe "$library" "$work/new.abi" || exit 2
    # The baseline is the x86-64 build's: the test compares nothing else with it.
    grep -q "architecture='elf-amd-x86_64'" "$work/new.abi" ||
      { echo "$library is not an x86-64 library: the baseline stays as it is" >&2; exit 2; }
    grep -q "<class-decl name='tscaudit_result'" "$work/new.abi" ||
      { echo "$library has no debug information of its types: build it with -g (RelWithDebInfo)" >&2; exit 2; }
    cp "$work/new.abi" "$baseline"
    echo "wrote $baseline from $library"
    ;;
  check)
    [ -e "$baseline" ] || { echo "no baseline at $baseline (make abi-baseline writes it)" >&2; exit 2; }
    # The baseline is of the x86-64 build: the ABI of another architecture (aarch64, under
    # emulation) has other sizes and another ELF machine, and is not compared with it.
    want=$(grep -o "architecture='[^']*'" "$baseline" | head -1)
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    describe "$library" "$work/built.abi" || { echo "abidw could not read $library" >&2; exit 1; }
    have=$(grep -o "architecture='[^']*'" "$work/built.abi" | head -1)
    [ "$want" = "$have" ] || skip "the baseline is of $want; this library is of $have"
    # Without the header's types (a library built without debug information), abidiff would see
    # every function's types vanish: that is this build's lack, not an ABI change.
    grep -q "<class-decl name='tscaudit_result'" "$work/built.abi" ||
      skip "$library has no debug information of struct tscaudit_result: abidw sees only its symbols"
    abidiff --no-show-locs "$baseline" "$work/built.abi" >"$work/report" 2>&1
    rc=$?
    cat "$work/report"
    # abidiff's exit code is a bit field: 1 an error, 2 a usage error, 4 an ABI change, 8 an
    # incompatible one. Any of them fails: the baseline changes only on purpose.
    if [ $rc -ne 0 ]; then
      echo "abidiff exit code $rc: $library differs from $baseline." >&2
      echo "If the change is deliberate, refresh the baseline (make abi-baseline; tests/lib/README.md)." >&2
      exit 1
    fi
    echo "$library: the same ABI as $baseline ($(grep -c "<elf-symbol name='tscaudit_" "$baseline") functions, $have)"
    ;;
  *)
    echo "usage: abi.sh check|write LIBRARY BASELINE HEADERS_DIR" >&2
    exit 2
    ;;
esac
