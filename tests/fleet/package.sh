#!/usr/bin/env bash
# The Debian packages end to end, one case per call:
#   package.sh BUILD_DIR WORKDIR CASE        CASE: lintian | apt-install
# lintian: CPack builds the three .debs (what `make package` runs): tscaudit (the tool),
# libtscaudit0 (the shared library, with its shlibs file and the ldconfig trigger) and
# libtscaudit-dev (header, .pc, the libtscaudit.so link, libtscaudit.a, the library's man pages),
# with the files where Debian expects them, stripped binaries and Depends from dpkg-shlibdeps,
# and lintian reports no error on any of them. apt-install: docs/fleets.md's install block, as
# written, in a throwaway root (an overlay of this machine's root, in a mount namespace of its
# own, discarded at the end): its `apt install` of the three and `systemctl enable` of the
# timer (no systemd runs there to start it) give a working `tscaudit report`, its man page,
# its completion, units that systemd-analyze verifies, and a library that a C program finds
# through pkg-config, links (shared and static) and runs, with the Depends dpkg-shlibdeps gives
# such a program.
# Exit 0 ok, 1 failed (the reason printed), 4 skipped with the reason.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
work=$2
case_name=$3
dir="$work/$case_name"
rm -rf "$dir"
mkdir -p "$dir"
fail() {
  echo "FAIL ($case_name): $*" >&2
  exit 1
}
skip() {
  echo "SKIPPED: $*"
  exit 4
}

command -v cpack >/dev/null || skip "cpack is not installed"
command -v dpkg-shlibdeps >/dev/null || skip "dpkg-shlibdeps is not installed (scripts/install-deps.sh package)"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$dir" >"$dir/cpack.log" 2>&1 || fail "cpack: $(tail -5 "$dir/cpack.log")"
deb=$(ls "$dir"/tscaudit_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "cpack made no tscaudit_*.deb: $(tail -5 "$dir/cpack.log")"
lib_deb=$(ls "$dir"/libtscaudit[0-9]*_*.deb 2>/dev/null | head -1)
[ -n "$lib_deb" ] || fail "cpack made no libtscaudit<SOVERSION>_*.deb: $(tail -5 "$dir/cpack.log")"
dev_deb=$(ls "$dir"/libtscaudit-dev_*.deb 2>/dev/null | head -1)
[ -n "$dev_deb" ] || fail "cpack made no libtscaudit-dev_*.deb: $(tail -5 "$dir/cpack.log")"
[ "$(ls "$dir"/*.deb | wc -l)" = 3 ] || fail "cpack made other packages too: $(ls "$dir"/*.deb)"
version=$(dpkg-deb -f "$deb" Version)
lib_package=$(dpkg-deb -f "$lib_deb" Package)
# Where the libraries go: Debian's multiarch directory for the packages' architecture.
multiarch=$(dpkg-architecture -a "$(dpkg-deb -f "$deb" Architecture)" -qDEB_HOST_MULTIARCH 2>/dev/null) ||
  fail "dpkg-architecture knows no multiarch triplet for $(dpkg-deb -f "$deb" Architecture)"
libdir=/usr/lib/$multiarch

case $case_name in
  lintian)
    # has_files DEB FILE...: every FILE is in DEB (as dpkg-deb -c lists it, ./ in front).
    has_files() {
      local package=$1
      shift
      dpkg-deb -c "$package" | awk '{ print $6 }' >"$dir/contents"
      for f in "$@"; do
        grep -qx -- "$f" "$dir/contents" || fail "$f is not in $(basename "$package")"
      done
    }
    has_files "$deb" ./usr/bin/tscaudit ./usr/share/man/man1/tscaudit.1.gz ./usr/share/bash-completion/completions/tscaudit \
      ./usr/share/zsh/vendor-completions/_tscaudit ./usr/share/fish/vendor_completions.d/tscaudit.fish \
      ./usr/lib/systemd/system/tscaudit.service ./usr/lib/systemd/system/tscaudit.timer \
      ./usr/lib/tscaudit/tscaudit-check-failed ./usr/share/doc/tscaudit/copyright ./usr/share/doc/tscaudit/changelog.gz \
      ./usr/share/doc/tscaudit/examples/tscaudit.rules.yml ./usr/share/doc/tscaudit/runbook.md
    # The library's file is named by its own (ABI) version, not the package's (docs/library.md,
    # "Versions"): libtscaudit.so.MAJOR.MINOR.PATCH, one of them.
    lib_files=$(dpkg-deb -c "$lib_deb" | awk '{ print $6 }' | grep -E "^\.$libdir/libtscaudit\.so\.[0-9]+\.[0-9]+\.[0-9]+\$")
    [ "$(wc -w <<<"$lib_files")" = 1 ] || fail "$lib_package holds not one libtscaudit.so.M.m.p: '$lib_files'"
    has_files "$lib_deb" ".$libdir/libtscaudit.so.0" "$lib_files" \
      "./usr/share/doc/$lib_package/copyright" "./usr/share/doc/$lib_package/changelog.gz"
    has_files "$dev_deb" ./usr/include/tscaudit.h ".$libdir/pkgconfig/tscaudit.pc" ".$libdir/libtscaudit.so" \
      ".$libdir/libtscaudit.a" ./usr/share/man/man3/tscaudit_quick_check.3.gz ./usr/share/man/man3/tscaudit_version.3.gz \
      ./usr/share/man/man3/tscaudit_state_open.3.gz ./usr/share/man/man3/tscaudit_state_order.3.gz \
      ./usr/share/man/man3/tscaudit_stamp.3.gz \
      ./usr/share/doc/libtscaudit-dev/copyright ./usr/share/doc/libtscaudit-dev/changelog.gz
    # Each file in one package only: the library's files are in none of the tool's.
    if dpkg-deb -c "$deb" | grep -q 'libtscaudit\|tscaudit\.h\|tscaudit\.pc'; then
      fail "the tool's package holds library files"
    fi
    depends=$(dpkg-deb -f "$deb" Depends)
    [[ $depends == *libhwloc15* && $depends == *libzstd1* && $depends == *libstdc++6* ]] ||
      fail "Depends is not what dpkg-shlibdeps finds: '$depends'"
    [[ $depends != *libtscaudit* ]] || fail "the tool depends on the library's package: '$depends'"
    lib_depends=$(dpkg-deb -f "$lib_deb" Depends)
    [[ $lib_depends == *libc6* && $lib_depends == *libstdc++6* ]] ||
      fail "$lib_package's Depends is not what dpkg-shlibdeps finds: '$lib_depends'"
    [ "$(dpkg-deb -f "$dev_deb" Depends)" = "$lib_package (= $version)" ] ||
      fail "libtscaudit-dev's Depends is '$(dpkg-deb -f "$dev_deb" Depends)'"
    for f in "$deb:utils" "$lib_deb:libs" "$dev_deb:libdevel"; do
      [ "$(dpkg-deb -f "${f%:*}" Section)" = "${f##*:}" ] || fail "$(basename "${f%:*}") is not in Section ${f##*:}"
    done
    # What dpkg-shlibdeps reads for a program linked with the library, and the trigger that
    # runs ldconfig.
    dpkg-deb -e "$lib_deb" "$dir/lib-control"
    [ "$(cat "$dir/lib-control/shlibs" 2>/dev/null)" = "libtscaudit ${lib_package#libtscaudit} $lib_package (>= $version)" ] ||
      fail "$lib_package's shlibs file is '$(cat "$dir/lib-control/shlibs" 2>/dev/null)'"
    grep -qx 'activate-noawait ldconfig' "$dir/lib-control/triggers" 2>/dev/null ||
      fail "$lib_package does not activate the ldconfig trigger"
    for package in "$deb" "$lib_deb" "$dev_deb"; do
      dpkg-deb -x "$package" "$dir/root"
    done
    # The package is named after the SONAME (Debian policy 8.1: libtscaudit.so.0 is
    # libtscaudit0), and the SONAME is the name the link in the package has.
    soname=$(readelf -dW "$dir/root${lib_files#.}" | sed -n 's/.*(SONAME).*Library soname: \[\(.*\)\]/\1/p')
    [ -n "$soname" ] || fail "${lib_files#.} has no SONAME"
    [ "$lib_package" = "$(sed 's/\.so\.\([0-9]*\)$/\1/' <<<"$soname")" ] ||
      fail "the package $lib_package holds the SONAME $soname (it would be $(sed 's/\.so\.\([0-9]*\)$/\1/' <<<"$soname"))"
    [ "$(readlink "$dir/root$libdir/$soname")" = "$(basename "$lib_files")" ] ||
      fail "$libdir/$soname links to '$(readlink "$dir/root$libdir/$soname")', not $(basename "$lib_files")"
    echo "$lib_package: SONAME $soname, file $(basename "$lib_files"), package version $version"
    if command -v file >/dev/null; then
      file "$dir/root/usr/bin/tscaudit" | grep -q ', stripped' || fail "the binary is not stripped"
      file -L "$dir/root$libdir/libtscaudit.so.0" | grep -q ', stripped' || fail "the shared library is not stripped"
    fi
    "$dir/root/usr/bin/tscaudit" --version | grep -qx 'tscaudit [0-9.]*' || fail "the packaged binary does not run"
    command -v lintian >/dev/null || skip "lintian is not installed (scripts/install-deps.sh package)"
    lintian --fail-on error --tag-display-limit 0 "$deb" "$lib_deb" "$dev_deb" >"$dir/lintian.txt" 2>&1
    rc=$?
    cat "$dir/lintian.txt"
    [ "$rc" = 0 ] || fail "lintian reports errors (exit $rc)"
    grep -q '^E: ' "$dir/lintian.txt" && fail "lintian reports errors"
    ;;

  apt-install)
    [ "$(id -u)" = 0 ] || skip "installing in a throwaway root needs root (mount namespaces, overlayfs, chroot)"
    command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
    mkdir -p "$dir/upper" "$dir/overlay-work" "$dir/merged"
    # The throwaway root: this machine's root, every write going to $dir/upper, in a mount
    # namespace that ends with the script; apt finds the package's dependencies installed.
    cat >"$dir/inside.sh" <<'EOF'
set -eu
dir=$1
debs=$2
version=$3
lib_package=$4
libdir=$5
m=$dir/merged
mount -t overlay overlay -o "lowerdir=/,upperdir=$dir/upper,workdir=$dir/overlay-work" "$m" ||
  { echo "SKIPPED: overlayfs cannot be mounted here"; exit 4; }
mount --rbind /dev "$m/dev"
mount -t proc proc "$m/proc"
mount --rbind /sys "$m/sys"
mount -t tmpfs tmpfs "$m/tmp"
mount -t tmpfs tmpfs "$m/run"
in_root() { chroot "$m" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
# docs/fleets.md's block, run in a source tree whose build/ holds the packages its `make
# package` made (here, the fixture's); apt is told to assume yes, as the reader answers. No
# systemd runs in the throwaway root: the timer is enabled (`--now` left out), not started.
mkdir -p "$m/tmp/src/build"
cp "$debs"/*.deb "$m/tmp/src/build/"
sed 's/^make package && //; s/^systemctl enable --now /systemctl enable /' "$dir/fleets-install.sh" \
  >"$m/tmp/fleets-install.sh"
echo 'APT::Get::Assume-Yes "true";' >"$m/etc/apt/apt.conf.d/99reader-answers-yes"
in_root sh -c 'cd /tmp/src && DEBIAN_FRONTEND=noninteractive sh -ex /tmp/fleets-install.sh' >"$dir/apt.log" 2>&1 ||
  { echo "FAIL: docs/fleets.md's install block: $(tail -5 "$dir/apt.log")"; exit 1; }
[ -L "$m/etc/systemd/system/timers.target.wants/tscaudit.timer" ] ||
  { echo "FAIL: systemctl enable did not enable tscaudit.timer: $(tail -3 "$dir/apt.log")"; exit 1; }
for package in tscaudit "$lib_package" libtscaudit-dev; do
  in_root dpkg -s "$package" | grep -q '^Status: install ok installed' || { echo "FAIL: dpkg does not list $package"; exit 1; }
done
[ "$(in_root sh -c 'command -v tscaudit')" = /usr/bin/tscaudit ] || { echo "FAIL: tscaudit is not on PATH"; exit 1; }
in_root tscaudit report --rounds 2000 --visits 1 --variants-rounds 2000 --out /tmp/report >"$dir/report.log" 2>&1 ||
  { echo "FAIL: tscaudit report: $(tail -5 "$dir/report.log")"; exit 1; }
for f in report.html report.md matrix/matrix.json; do
  [ -s "$m/tmp/report/$f" ] || { echo "FAIL: the report has no $f"; exit 1; }
done
in_root man -w tscaudit | grep -q '/usr/share/man/man1/tscaudit.1.gz' || { echo "FAIL: man -w tscaudit"; exit 1; }
got=$(in_root bash -c '. /usr/share/bash-completion/completions/tscaudit; COMP_WORDS=(tscaudit rep); COMP_CWORD=1; _tscaudit; echo "${COMPREPLY[*]}"')
[ "$got" = report ] || { echo "FAIL: the installed completion gives '$got'"; exit 1; }
in_root systemd-analyze verify /usr/lib/systemd/system/tscaudit.service /usr/lib/systemd/system/tscaudit.timer \
  >"$dir/verify.log" 2>&1 || { echo "FAIL: systemd-analyze verify: $(cat "$dir/verify.log")"; exit 1; }
[ ! -s "$dir/verify.log" ] || { echo "FAIL: systemd-analyze verify warns: $(cat "$dir/verify.log")"; exit 1; }

# The library, as a program's build finds it: the loader's cache (the ldconfig trigger; it
# may name the library by /lib, merged with /usr/lib), the .pc, the header, both libraries,
# the man pages.
in_root ldconfig -p | grep -q 'libtscaudit\.so\.0 .*=> .*/libtscaudit\.so\.0$' ||
  { echo "FAIL: ldconfig's cache has no libtscaudit.so.0"; exit 1; }
flags=$(in_root pkg-config --cflags --libs tscaudit) || { echo "FAIL: pkg-config finds no tscaudit"; exit 1; }
[[ $flags == *-ltscaudit* ]] || { echo "FAIL: pkg-config --libs tscaudit gives '$flags'"; exit 1; }
pc_libdir=$(in_root sh -c 'realpath "$(pkg-config --variable=libdir tscaudit)"')
[ "$pc_libdir" = "$libdir" ] || { echo "FAIL: tscaudit.pc's libdir is $pc_libdir, not $libdir"; exit 1; }
# The other functions' pages are links to tscaudit_quick_check(3), which man -w resolves.
for page in tscaudit_quick_check tscaudit_options_init tscaudit_version tscaudit_error_name tscaudit_verdict_name; do
  in_root man -w "$page" | grep -qx /usr/share/man/man3/tscaudit_quick_check.3.gz || { echo "FAIL: man -w $page"; exit 1; }
done
# The state's functions lead to tscaudit_state_open(3).
for page in tscaudit_state_open tscaudit_state_close tscaudit_state_get_info tscaudit_state_offset tscaudit_state_order; do
  in_root man -w "$page" | grep -qx /usr/share/man/man3/tscaudit_state_open.3.gz || { echo "FAIL: man -w $page"; exit 1; }
done
in_root man -w tscaudit_stamp | grep -qx /usr/share/man/man3/tscaudit_stamp.3.gz || { echo "FAIL: man -w tscaudit_stamp"; exit 1; }
cat >"$m/tmp/quick.c" <<'C'
#include <stdio.h>
#include <tscaudit.h>
int main(void) {
  struct tscaudit_result result = {.size = sizeof result};
  int rc = tscaudit_quick_check(NULL, &result);
  printf("%s %s, %s: %s\n", tscaudit_version(), tscaudit_error_name(rc), tscaudit_verdict_name(result.verdict),
         result.reason);
  return rc;
}
C
# Shared, with pkg-config's flags; static, with its --static ones and the archive.
in_root sh -c 'cc -std=c99 -Wall -Werror -o /tmp/quick /tmp/quick.c $(pkg-config --cflags --libs tscaudit) &&
  cc -std=c99 -Wall -Werror -o /tmp/quick-static /tmp/quick.c $(pkg-config --cflags tscaudit) \
     $(pkg-config --static --libs tscaudit | sed "s/-ltscaudit\b/-l:libtscaudit.a/")' >"$dir/cc.log" 2>&1 ||
  { echo "FAIL: a program does not build against the installed library: $(tail -5 "$dir/cc.log")"; exit 1; }
in_root sh -c 'readelf -d /tmp/quick-static' | grep -q 'NEEDED.*libtscaudit' &&
  { echo "FAIL: the program linked with libtscaudit.a needs libtscaudit.so"; exit 1; }
for program in quick quick-static; do
  out=$(in_root "/tmp/$program" 2>&1) || { echo "FAIL: /tmp/$program: exit $?: $out"; exit 1; }
  [[ $out == "$version ok, "* ]] || { echo "FAIL: /tmp/$program printed '$out'"; exit 1; }
done
echo "the installed library answers: $out"
# A package of that program would get its Depends from the library's shlibs file.
mkdir -p "$m/tmp/shlibdeps/debian"
printf 'Source: quick\n\nPackage: quick\nArchitecture: any\n' >"$m/tmp/shlibdeps/debian/control"
shlibs=$(in_root sh -c 'cd /tmp/shlibdeps && dpkg-shlibdeps -O /tmp/quick' 2>&1) ||
  { echo "FAIL: dpkg-shlibdeps: $shlibs"; exit 1; }
[[ $shlibs == *"$lib_package (>= $version)"* ]] || { echo "FAIL: dpkg-shlibdeps gives '$shlibs'"; exit 1; }
echo "installed, report written, units verified, the library built against and run"
EOF
    # The install block of docs/fleets.md, as its reader copies it.
    awk '/^## Install$/ { here = 1 } here && /^```sh$/ { inside = 1; next } inside && /^```$/ { exit } inside' \
      "$src/docs/fleets.md" >"$dir/fleets-install.sh"
    grep -q '^make package && apt install ./build/tscaudit_' "$dir/fleets-install.sh" ||
      fail "docs/fleets.md's install block is not the one this test runs: $(cat "$dir/fleets-install.sh")"
    unshare --mount --propagation private bash "$dir/inside.sh" "$dir" "$dir" "$version" "$lib_package" "$libdir" \
      >"$dir/inside.out" 2>&1
    rc=$?
    cat "$dir/inside.out"
    rm -rf "$dir/upper" "$dir/overlay-work" "$dir/merged"
    [ "$rc" = 4 ] && skip "$(grep SKIPPED "$dir/inside.out")"
    [ "$rc" = 0 ] || fail "exit $rc"
    ;;

  *) fail "unknown case" ;;
esac
echo "ok: $case_name"
