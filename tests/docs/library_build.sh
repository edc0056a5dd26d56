#!/usr/bin/env bash
# docs/library.md as a reader follows it: its example (the C block with `int main(void)`) saved
# as example.c, then the shell blocks of "Building, installing, linking", in order, in one shell
# whose HOME is a scratch directory: install, pkg-config from the installed .pc, the rpath link,
# ./example, then the static link and ./example again.
#   library_build.sh SOURCE_DIR BUILD_DIR WORKDIR
# The blocks run as written but for `make install PREFIX=P`: a `make` first on PATH runs what
# the Makefile's install target runs once the tool and the library are built (they are, in
# BUILD_DIR): `cmake --install BUILD_DIR --prefix P`. Each ./example must answer (exit 0 and one
# of its two sentences); the second must not load libtscaudit.so.
# Exit 0 ok, 1 failed (the reason and the blocks' output printed), 4 skipped.
set -u
src=$1
build=$2
work=$3/library-build
fail() {
  echo "FAIL (docs/library.md): $*" >&2
  [ -f "$work/out" ] && sed 's/^/  | /' "$work/out" >&2
  exit 1
}
for tool in cc pkg-config cmake; do
  command -v "$tool" >/dev/null || { echo "SKIPPED: $tool is not installed"; exit 4; }
done
rm -rf "$work"
mkdir -p "$work/home" "$work/bin" "$work/run"
doc=$src/docs/library.md

# The fenced blocks of LANG, each followed by a line "@@END@@"; with SECTION, only those under
# that "## " heading.
blocks() {
  awk -v lang="$1" -v section="${2-}" '
    /^## / { here = (section == "" || $0 == "## " section) }
    /^```/ { if (inside) { inside = 0; if (take) print "@@END@@"; next }
             inside = 1; take = here && $0 == "```" lang; next }
    inside && take' "$doc"
}
blocks c | awk '/^@@END@@$/ { if (found) exit; text = ""; next } { text = text $0 "\n" }
  /int main\(void\)/ { found = 1 } END { if (found) printf "%s", text }' >"$work/run/example.c"
grep -q 'tscaudit_quick_check' "$work/run/example.c" || fail "no example with int main(void) and tscaudit_quick_check"
blocks sh "Building, installing, linking" | grep -vx '@@END@@' >"$work/steps.sh"
[ "$(grep -c . "$work/steps.sh")" -ge 6 ] || fail "the section's shell blocks were not found: $(cat "$work/steps.sh")"
grep -q '^make install PREFIX=' "$work/steps.sh" || fail "the blocks no longer install with make install PREFIX="

cat >"$work/bin/make" <<EOF
#!/bin/sh
# make install PREFIX=P, as the Makefile's install target runs it once the build is done.
case "\$1" in install) ;; *) echo "make \$*: not a step of docs/library.md this test knows" >&2; exit 1 ;; esac
exec cmake --install "$build" --prefix "\${2#PREFIX=}"
EOF
chmod +x "$work/bin/make"

# The first block, then a check of what it ran; the second block, the same check.
split_at=$(grep -n '^cc .*libtscaudit\.a' "$work/steps.sh" | cut -d: -f1)
[ -n "$split_at" ] || fail "no static link (libtscaudit.a) in the blocks"
{
  head -n "$((split_at - 1))" "$work/steps.sh"
  echo 'echo "@@rc $?"; ldd ./example | grep -q libtscaudit && echo "@@shared yes" || echo "@@shared no"'
  tail -n "+$split_at" "$work/steps.sh"
  echo './example; echo "@@rc $?"; ldd ./example | grep -q libtscaudit && echo "@@shared yes" || echo "@@shared no"'
} >"$work/run.sh"
(cd "$work/run" && env HOME="$work/home" PATH="$work/bin:$PATH" bash -e "$work/run.sh") >"$work/out" 2>&1 ||
  fail "the blocks stopped with exit $?"
answers=$(grep -cE '^(the counters of [0-9]+ CPUs agree within [0-9]+ ns|do not compare counters across CPUs: .+)$' "$work/out")
[ "$answers" = 2 ] || fail "./example answered $answers times, not twice"
[ "$(grep -c '^@@rc 0$' "$work/out")" = 2 ] || fail "./example did not exit 0 both times"
[ "$(grep '^@@shared' "$work/out" | tr '\n' ' ')" = "@@shared yes @@shared no " ] ||
  fail "the first link should load libtscaudit.so, the archive's should not"
echo "ok: docs/library.md's example builds and runs, installed to a prefix, linked shared (rpath) and static"
