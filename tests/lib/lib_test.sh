#!/usr/bin/env bash
# libtscaudit as its users get it: installed by `cmake --install` (what `make install` runs)
# into a staging directory, then used through its pkg-config file alone.
#   lib_test.sh SETTINGS MODE
# SETTINGS is the build's settings.sh (tests/lib/CMakeLists.txt writes it: the compilers, the
# sanitizer, the emulator); MODE one of
#   install    cmake --install into the staging directory: the files where they belong
#   c          the C99 program, linked with `pkg-config --libs`: the quick check's answer
#   cxx        the C++17 program: the same, then four calls at once from four threads
#   static     the C program linked with libtscaudit.a (`pkg-config --static --libs`)
#   python     Python's ctypes, loading the installed libtscaudit.so.0
#   one-cpu    the C program under taskset on one CPU
#   arguments  the C program's bad arguments
#   exports    what the installed libraries export and need, SONAME, the .pc's version
#   header     the installed header alone, compiled as C99, C11, C17 and C++98 to C++20 with
#              -Wall -Wextra -pedantic -Werror and more (header_only.c)
#   versions   the C program, without measuring: the header's version is the project's, its
#              number the library's; tscaudit_result_init's values
#   state      the C program over the state fixture (tests/lib/state_fixture.h, written by the
#              build's tscaudit_test_state_writer, $TSCAUDIT_STATE_WRITER): status, fields,
#              offsets, orders, tscaudit_stamp on each CPU
#   state-hostile  the C program over every kind of file a reader may meet: another boot, CPUs
#              or clocksource changed, aged, cut short, torn, a newer major, garbage, empty, a
#              FIFO, a directory, 100 MB, missing
#   state-threads  the C++ program: the fixture, then republished 1,000 times while four
#              threads open and ask it
#   docs-example  the state example of docs/library.md (merge.c), built as a reader would, run
#              over stamps whose order the fixture proves or not: its output, line for line
#   state-causality  the C++ program: a state of this machine (the installed tool's `check
#              --quick --publish`), two pinned threads passing a token 100,000 times, stamping
# Exit 0: every check held; 1: one did not (each printed); 4: skipped, with the reason.
set -u
settings=$1 mode=$2
# shellcheck source=/dev/null
source "$settings"
here=$(cd "$(dirname "$0")" && pwd)

skip() { echo "SKIPPED: $*"; exit 4; }
die() { echo "FAIL: $*" >&2; exit 1; }
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
# run ARGS...: a command echoed, then run; its exit code returned.
run() { echo "+ $*" >&2; "$@"; }

root=$stage$install_prefix
# CMAKE_INSTALL_LIBDIR: under the prefix (lib/<triplet> on Debian), or a path of its own.
if [[ $libdir == /* ]]; then lib=$stage$libdir; else lib=$root/$libdir; fi
pcdir=$lib/pkgconfig

if [ "$mode" = install ]; then
  rm -rf "$stage"
  # DESTDIR keeps every file under the staging directory, absolute destinations included; the
  # .pc finds its prefix from where it lies (${pcfiledir}), so /usr in it is never read.
  DESTDIR=$stage run "$cmake" --install "$build_dir" --prefix "$install_prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; die "cmake --install failed"; }
  for f in "$lib/libtscaudit.so.$abi_version" "$lib/libtscaudit.a" "$pcdir/tscaudit.pc" "$root/include/tscaudit.h"; do
    [ -f "$f" ] && [ ! -L "$f" ] || fail "not installed as a file: $f"
  done
  # The links a program's link and its loader follow: the development name to the SONAME, the
  # SONAME to the file.
  [ "$(readlink "$lib/libtscaudit.so")" = libtscaudit.so.$soversion ] ||
    fail "libtscaudit.so links to '$(readlink "$lib/libtscaudit.so")', not libtscaudit.so.$soversion"
  [ "$(readlink "$lib/libtscaudit.so.$soversion")" = libtscaudit.so.$abi_version ] ||
    fail "libtscaudit.so.$soversion links to '$(readlink "$lib/libtscaudit.so.$soversion")', not libtscaudit.so.$abi_version"
  [ $failures -eq 0 ] || exit 1
  echo "installed into $stage (prefix $install_prefix):"
  (cd "$stage" && find . -path "*tscaudit*" -type f -o -path "*tscaudit*" -type l | sort | sed 's/^/  /')
  exit 0
fi

[ -e "$pcdir/tscaudit.pc" ] || die "no $pcdir/tscaudit.pc: the fixture 'lib: install into a staging directory' installs it"
command -v pkg-config >/dev/null || skip "pkg-config is not installed (pkgconf: scripts/install-deps.sh)"
# The installed .pc and nothing else: PKG_CONFIG_LIBDIR replaces the default search path, so a
# tscaudit.pc left in /usr/local by an earlier `make install` cannot answer instead.
export PKG_CONFIG_PATH=$pcdir PKG_CONFIG_LIBDIR=$pcdir
[ "$(pkg-config --variable=pcfiledir tscaudit)" = "$pcdir" ] ||
  die "pkg-config reads tscaudit.pc from '$(pkg-config --variable=pcfiledir tscaudit)', not $pcdir"
pc_libdir=$(pkg-config --variable=libdir tscaudit)
read -r -a pc_cflags <<<"$(pkg-config --cflags tscaudit)"
read -r -a pc_libs <<<"$(pkg-config --libs tscaudit)"
read -r -a pc_static_libs <<<"$(pkg-config --static --libs tscaudit)"
read -r -a emulator <<<"$emulator_words"
read -r -a san <<<"$sanitize_flags"
out=$work/$mode
rm -rf "$out"
mkdir -p "$out"

# build_c OUTPUT LIBS...: consumer.c as a C99 program, warnings as errors. The program's rpath
# stands for the loader's search of an installed prefix.
build_c() {
  local output=$1
  shift
  run "${cc[@]}" -std=c99 -Wall -Wextra -pedantic -Werror -O1 -g "${san[@]}" "${pc_cflags[@]}" "$here/consumer.c" \
    -x none -o "$output" "$@" -lm || die "the C program does not build with pkg-config's flags"
}
build_c_shared() { build_c "$1" "${pc_libs[@]}" "-Wl,-rpath,$pc_libdir"; }

# state_file KIND FILE: a state file of that kind, written by the build's state writer.
state_file() {
  [ -n "${TSCAUDIT_STATE_WRITER:-}" ] || die "TSCAUDIT_STATE_WRITER is not set (tests/lib/CMakeLists.txt sets it)"
  run "${emulator[@]}" "$TSCAUDIT_STATE_WRITER" "$1" "$2" || die "the state writer failed to write a '$1' state"
}

# needed FILE: the NEEDED entries of FILE's dynamic section, one a line.
needed() { "$readelf" -dW "$1" | sed -n 's/.*(NEEDED).*Shared library: \[\(.*\)\]/\1/p'; }

# The C program's shared link names the library by its SONAME.
expect_shared_link() {
  needed "$1" | grep -qx "libtscaudit.so.$soversion" || fail "$1 does not need libtscaudit.so.$soversion: $(needed "$1" | tr '\n' ' ')"
}

case $mode in
  c)
    build_c_shared "$out/consumer"
    expect_shared_link "$out/consumer"
    run "${emulator[@]}" "$out/consumer" check || fail "the C program's checks failed (exit $?)"
    # A caller with a real-time policy keeps it: the library's own threads leave it behind, the
    # calling thread must not. Where the policy may not be set (not root, a container), the
    # default policy's run above is the check.
    if command -v chrt >/dev/null && chrt -f 1 true 2>/dev/null; then
      run chrt -f 1 "${emulator[@]}" "$out/consumer" check || fail "the C program's checks under SCHED_FIFO failed (exit $?)"
    else
      echo "SCHED_FIFO may not be set here: the program ran with the default policy only"
    fi
    ;;
  cxx)
    run "${cxx[@]}" -std=c++17 -Wall -Wextra -pedantic -Werror -O1 -g -pthread "${san[@]}" "${pc_cflags[@]}" \
      "$here/consumer_threads.cpp" -o "$out/consumer_threads" "${pc_libs[@]}" "-Wl,-rpath,$pc_libdir" ||
      die "the C++ program does not build with pkg-config's flags"
    expect_shared_link "$out/consumer_threads"
    run "${emulator[@]}" "$out/consumer_threads" || fail "the C++ program's checks failed (exit $?)"
    ;;
  static)
    # -ltscaudit as the archive: -Bstatic for it alone, the C++ runtime and libm that
    # Libs.private names from their shared libraries as usual.
    static_libs=()
    for word in "${pc_static_libs[@]}"; do
      if [ "$word" = -ltscaudit ]; then
        static_libs+=(-Wl,-Bstatic -ltscaudit -Wl,-Bdynamic)
      else
        static_libs+=("$word")
      fi
    done
    [[ " ${static_libs[*]} " == *" -Wl,-Bstatic -ltscaudit "* ]] ||
      die "pkg-config --static --libs does not name -ltscaudit: ${pc_static_libs[*]}"
    build_c "$out/consumer_static" "${static_libs[@]}"
    if needed "$out/consumer_static" | grep -q libtscaudit; then
      fail "the static program needs a shared libtscaudit: $(needed "$out/consumer_static" | tr '\n' ' ')"
    fi
    if [ -z "$crosscompiling" ]; then
      ldd "$out/consumer_static" | grep -q libtscaudit && fail "ldd lists libtscaudit: $(ldd "$out/consumer_static")"
    fi
    "$nm" -g --defined-only "$out/consumer_static" | grep -q ' T tscaudit_quick_check$' ||
      fail "the static program does not define tscaudit_quick_check"
    echo "needed: $(needed "$out/consumer_static" | tr '\n' ' ')"
    run "${emulator[@]}" "$out/consumer_static" check || fail "the static program's checks failed (exit $?)"
    state_file current "$out/state"
    run "${emulator[@]}" "$out/consumer_static" state "$out/state" || fail "the static program's state checks failed (exit $?)"
    ;;
  python)
    [ -z "$crosscompiling" ] || skip "this host's python3 cannot load the ${processor} libtscaudit.so.$soversion"
    command -v "$python" >/dev/null || skip "$python is not installed (scripts/install-deps.sh package)"
    preload=()
    case $sanitize in
      "") ;;
      *address*)
        # The library needs the ASan runtime loaded first; python3 is not built with it, so it
        # comes preloaded, and LeakSanitizer stays off: the interpreter's own allocations at
        # exit are not the library's. libstdc++ comes preloaded too: python3 does not link it,
        # and ASan's interceptor of __cxa_throw, set up before the library loads it, would
        # find no function to call at the library's first exception.
        runtime=$("${cc[@]}" -print-file-name=libasan.so)
        cxx_runtime=$("${cxx[@]}" -print-file-name=libstdc++.so.6)
        [ -e "$runtime" ] && [ -e "$cxx_runtime" ] ||
          skip "no ASan or C++ runtime to preload into python3 ($runtime, $cxx_runtime)"
        preload=(env "LD_PRELOAD=$runtime $cxx_runtime" "ASAN_OPTIONS=${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0")
        ;;
      *) skip "python3 cannot load a library built with -fsanitize=$sanitize" ;;
    esac
    build_c_shared "$out/consumer"
    run "$out/consumer" layout >"$out/layout.txt" || die "the C program's layout mode failed"
    state_file current "$out/state"
    run "${preload[@]}" "$python" "$here/lib_ctypes.py" "$lib/libtscaudit.so.$soversion" "$out/layout.txt" "$out/state" ||
      fail "the Python checks failed (exit $?)"
    ;;
  one-cpu)
    command -v taskset >/dev/null || skip "taskset (util-linux) is not installed"
    allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
    first=${allowed%%[-,]*}
    build_c_shared "$out/consumer"
    run taskset -c "$first" "${emulator[@]}" "$out/consumer" one-cpu || fail "the C program's checks on CPU $first failed (exit $?)"
    ;;
  arguments)
    build_c_shared "$out/consumer"
    run "${emulator[@]}" "$out/consumer" arguments || fail "the C program's argument checks failed (exit $?)"
    ;;
  exports)
    so=$lib/libtscaudit.so.$abi_version
    # The functions the installed header declares: exactly what the library exports, each at
    # the version node TSCAUDIT_0, which nm lists as an absolute symbol of its own.
    # (An inline function of the header, static, is the caller's own code: exported by none.)
    declared=$(grep -vE '^static ' "$root/include/tscaudit.h" | grep -oE '^[a-z].*[ *](tscaudit_[a-z_]+)\(' |
      grep -oE 'tscaudit_[a-z_]+' | sort)
    [ -n "$declared" ] || die "no function declarations found in $root/include/tscaudit.h"
    exported=$("$nm" -D --defined-only "$so" | awk '{print $NF}' | sort)
    echo "exported by $so:"
    sed 's/^/  /' <<<"$exported"
    while read -r symbol; do
      case $symbol in
        TSCAUDIT_0 | TSCAUDIT_0@@TSCAUDIT_0) ;;
        tscaudit_*@@TSCAUDIT_0) grep -qx "${symbol%@@*}" <<<"$declared" ||
          fail "$symbol is exported but not declared in tscaudit.h" ;;
        *) fail "exported beyond tscaudit_*: $symbol" ;;
      esac
    done <<<"$exported"
    for function in $declared; do
      grep -qx "$function@@TSCAUDIT_0" <<<"$exported" || fail "$function is declared but not exported at TSCAUDIT_0"
    done
    soname=$("$readelf" -dW "$so" | sed -n 's/.*(SONAME).*Library soname: \[\(.*\)\]/\1/p')
    [ "$soname" = "libtscaudit.so.$soversion" ] || fail "SONAME is '$soname', not libtscaudit.so.$soversion"
    # Nothing beyond the C and C++ runtimes (hwloc and zstd are the tool's, not the quick
    # check's); a sanitizer build needs its runtimes too.
    echo "needed: $(needed "$so" | tr '\n' ' ')"
    while read -r dep; do
      case $dep in
        libc.so.6 | libm.so.6 | libstdc++.so.6 | libgcc_s.so.1 | ld-linux*.so.* ) ;;
        libasan.so.* | libubsan.so.* | libtsan.so.*) [ -n "$sanitize" ] || fail "needs $dep without a sanitizer build" ;;
        *) fail "needs $dep, beyond the C and C++ runtimes" ;;
      esac
    done < <(needed "$so")
    # The archive: one relocatable object whose only global definitions are the header's.
    archive=$lib/libtscaudit.a
    members=$("$ar" t "$archive" | wc -l)
    [ "$members" -eq 1 ] || fail "libtscaudit.a holds $members objects, not one"
    # nm's type letter is kept with each name: 'u' is a GNU unique symbol (an inline variable
    # or a static local of an inline function), global though it is no function of the API.
    typed=$("$nm" -g --defined-only "$archive" | awk 'NF == 3 {print $3 " (" $2 ")"}' | sort)
    globals=$(awk '{print $1}' <<<"$typed")
    echo "global definitions in libtscaudit.a: $(tr '\n' ' ' <<<"$globals")"
    others=$(grep -v '^tscaudit_' <<<"$typed")
    [ -z "$others" ] || fail "libtscaudit.a defines $(wc -l <<<"$others") global symbols beyond tscaudit_*: $(tr '\n' ' ' <<<"$others")"
    for function in $declared; do
      grep -qx "$function" <<<"$globals" || fail "libtscaudit.a does not define $function"
    done
    # The .pc's version is the header's.
    header_version=$(awk '/#define TSCAUDIT_VERSION_(MAJOR|MINOR|PATCH)/ {v = v (v == "" ? "" : ".") $3} END {print v}' \
      "$root/include/tscaudit.h")
    [ "$(pkg-config --modversion tscaudit)" = "$header_version" ] ||
      fail "tscaudit.pc says version $(pkg-config --modversion tscaudit), tscaudit.h $header_version"
    ;;
  header)
    # Each standard a caller may build with; the warnings a strict project turns on. The C++
    # compiler is the build's; `-x c++` reads the C file as C++.
    c_warnings=(-Wall -Wextra -pedantic -Werror -Wundef -Wshadow -Wconversion -Wsign-conversion -Wstrict-prototypes
                -Wmissing-prototypes -Wold-style-definition -Wc++-compat)
    cxx_warnings=(-Wall -Wextra -pedantic -Werror -Wundef -Wshadow -Wconversion -Wsign-conversion -Wold-style-cast
                  -Wzero-as-null-pointer-constant)
    # -Wuseless-cast is GCC's alone: where the compiler knows it, it is on too.
    if "${cxx[@]}" -Werror -Wuseless-cast -x c++ -fsyntax-only /dev/null 2>/dev/null; then
      cxx_warnings+=(-Wuseless-cast)
    fi
    for std in c99 c11 c17; do
      run "${cc[@]}" "-std=$std" "${c_warnings[@]}" "${pc_cflags[@]}" -c "$here/header_only.c" -o "$out/header_$std.o" ||
        fail "tscaudit.h does not compile as -std=$std with ${c_warnings[*]}"
    done
    for std in c++98 c++11 c++17 c++20; do
      run "${cxx[@]}" "-std=$std" "${cxx_warnings[@]}" "${pc_cflags[@]}" -x c++ -c "$here/header_only.c" \
        -o "$out/header_$std.o" || fail "tscaudit.h does not compile as -std=$std with ${cxx_warnings[*]}"
    done
    ;;
  versions)
    build_c_shared "$out/consumer"
    run "${emulator[@]}" "$out/consumer" versions "$tool_version" || fail "the C program's version checks failed (exit $?)"
    ;;
  state)
    build_c_shared "$out/consumer"
    state_file current "$out/state"
    run "${emulator[@]}" "$out/consumer" state "$out/state" || fail "the C program's state checks failed (exit $?)"
    ;;
  state-hostile)
    build_c_shared "$out/consumer"
    for kind in current other-boot no-boot cpus clocksource aged truncated torn major garbage empty; do
      state_file "$kind" "$out/$kind"
    done
    mkfifo "$out/fifo" || die "mkfifo failed"
    mkdir "$out/directory"
    truncate -s 100M "$out/large" || die "truncate failed" # sparse: 100 MB that take no disk
    run "${emulator[@]}" "$out/consumer" state-hostile "$out" || fail "the C program's hostile state checks failed (exit $?)"
    ;;
  state-threads)
    run "${cxx[@]}" -std=c++17 -Wall -Wextra -pedantic -Werror -O1 -g -pthread "${san[@]}" "${pc_cflags[@]}" \
      "$here/consumer_threads.cpp" -o "$out/consumer_threads" "${pc_libs[@]}" "-Wl,-rpath,$pc_libdir" ||
      die "the C++ program does not build with pkg-config's flags"
    state_file current "$out/state"
    mkdir "$out/versions"
    run "${emulator[@]}" "$TSCAUDIT_STATE_WRITER" versions "$out/versions" 10 || die "the state writer failed"
    run "${emulator[@]}" "$out/consumer_threads" state "$out/state" "$out/versions" 10 ||
      fail "the C++ program's state checks failed (exit $?)"
    ;;
  docs-example)
    # The block that begins "/* merge.c:", as the document shows it.
    awk '/^```c$/ { getline line; if (line ~ /^\/\* merge\.c:/) { inside = 1; print line }; next }
         inside && /^```$/ { exit } inside' "$here/../../docs/library.md" >"$out/merge.c"
    [ -s "$out/merge.c" ] || die "docs/library.md has no merge.c example"
    run "${cc[@]}" -std=c99 -Wall -Wextra -pedantic -Werror -O1 "${san[@]}" "${pc_cflags[@]}" "$out/merge.c" -x none \
      -o "$out/merge" "${pc_libs[@]}" "-Wl,-rpath,$pc_libdir" || die "the example of docs/library.md does not build"
    read -r _ t _ c0 c1 _ < <("${emulator[@]}" "$TSCAUDIT_STATE_WRITER" current "$out/state") ||
      die "the state writer failed"
    [ -n "${c1:-}" ] || skip "one CPU online: the fixture has no second CPU to order against"
    # The fixture's second CPU is 95 to 105 ticks ahead (state_fixture.h): b1, 50 ticks after a1
    # by the counters, was read before it; a2 and b2, 100 apart, cannot be ordered.
    printf '%s\n' "$c0 $t a1" "$c1 $((t + 50)) b1" "$c0 $((t + 200)) a2" "$c1 $((t + 300)) b2" "$c0 $((t + 1000)) a3" \
      >"$out/events"
    printf '%s\n' "$c1 $((t + 50)) b1" "$c0 $t a1" "$c0 $((t + 200)) a2 (order unproven)" \
      "$c1 $((t + 300)) b2 (order unproven)" "$c0 $((t + 1000)) a3" >"$out/expected"
    run "${emulator[@]}" "$out/merge" "$out/state" <"$out/events" >"$out/merged" || fail "the example failed (exit $?)"
    diff "$out/expected" "$out/merged" || fail "the example merged the events otherwise"
    ;;
  state-causality)
    [ -z "$crosscompiling" ] || skip "an emulated machine's counters and CPUs are not what the table describes"
    tool=$root/bin/tscaudit
    [ -x "$tool" ] || die "the tool is not installed at $tool"
    run "${cxx[@]}" -std=c++17 -Wall -Wextra -pedantic -Werror -O1 -g -pthread "${san[@]}" "${pc_cflags[@]}" \
      "$here/consumer_threads.cpp" -o "$out/consumer_threads" "${pc_libs[@]}" "-Wl,-rpath,$pc_libdir" ||
      die "the C++ program does not build with pkg-config's flags"
    run "$tool" check --quick --publish "$out/state" >"$out/check.txt" 2>&1
    rc=$?
    cat "$out/check.txt"
    [ -s "$out/state" ] || skip "check --quick published no state here (exit $rc)"
    run "$out/consumer_threads" causality "$out/state"
    rc=$?
    [ $rc -eq 4 ] && exit 4
    [ $rc -eq 0 ] || fail "the causality checks failed (exit $rc)"
    ;;
  state-truth)
    # A simulated machine (package 1 600 ticks ahead, CPU 5 drifting +300 ppb) published by
    # the tool as a user publishes it, read through the library against the machine's truth.
    [ -z "$crosscompiling" ] || skip "this host's python3 cannot load the ${processor} libtscaudit.so.$soversion"
    command -v "$python" >/dev/null || skip "$python is not installed (scripts/install-deps.sh package)"
    [ -z "$sanitize" ] || skip "python3 runs the library of the plain build only here (the ctypes test covers ASan)"
    tool=$root/bin/tscaudit
    [ -x "$tool" ] || die "the tool is not installed at $tool"
    run "$tool" simulate --topology "synthetic:package:2 core:4 pu:1" --package-offset-ticks 1=600 \
      --cpu-drift-ppb 5=300 --rounds 2000 --seed 38 --out "$out/sim" >/dev/null 2>&1 || die "simulate failed"
    run "$tool" check --from "$out/sim" --publish "$out/state" >"$out/check.txt" 2>&1
    rc=$?
    cat "$out/check.txt"
    [ $rc -eq 1 ] || fail "check --from the simulated machine exited $rc, not 1 (a package ahead, a CPU drifting)"
    run "$python" "$here/state_truth.py" "$lib/libtscaudit.so.$soversion" "$out/state" "$out/sim/truth.json" ||
      fail "the published table does not hold the machine's truth (exit $?)"
    ;;
  *)
    echo "unknown mode '$mode'" >&2
    exit 2
    ;;
esac
[ $failures -eq 0 ] || exit 1
echo "lib: $mode: every check held"
