#!/usr/bin/env bash
# The Debian package end to end, one case per call:
#   package.sh BUILD_DIR WORKDIR CASE        CASE: lintian | apt-install
# lintian: CPack builds the .deb (what `make package` runs) with the files where Debian
# expects them, a stripped binary and Depends from dpkg-shlibdeps, and lintian reports no
# error. apt-install: `apt-get install ./tscaudit_*.deb` in a throwaway root (an overlay of
# this machine's root, in a mount namespace of its own, discarded at the end) gives a working
# `tscaudit report`, its man page, its completion, and units that systemd-analyze verifies.
# Exit 0 ok, 1 failed (the reason printed), 4 skipped with the reason.
set -u
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

case $case_name in
  lintian)
    dpkg-deb -c "$deb" | awk '{ print $6 }' >"$dir/contents"
    for f in ./usr/bin/tscaudit ./usr/share/man/man1/tscaudit.1.gz ./usr/share/bash-completion/completions/tscaudit \
      ./usr/lib/systemd/system/tscaudit.service ./usr/lib/systemd/system/tscaudit.timer \
      ./usr/lib/tscaudit/tscaudit-check-failed ./usr/share/doc/tscaudit/copyright ./usr/share/doc/tscaudit/changelog.gz \
      ./usr/share/doc/tscaudit/examples/tscaudit.rules.yml; do
      grep -qx -- "$f" "$dir/contents" || fail "$f is not in the package"
    done
    depends=$(dpkg-deb -f "$deb" Depends)
    [[ $depends == *libhwloc15* && $depends == *libzstd1* && $depends == *libstdc++6* ]] ||
      fail "Depends is not what dpkg-shlibdeps finds: '$depends'"
    dpkg-deb -x "$deb" "$dir/root"
    if command -v file >/dev/null; then
      file "$dir/root/usr/bin/tscaudit" | grep -q ', stripped' || fail "the binary is not stripped"
    fi
    "$dir/root/usr/bin/tscaudit" --version | grep -qx 'tscaudit [0-9.]*' || fail "the packaged binary does not run"
    command -v lintian >/dev/null || skip "lintian is not installed (scripts/install-deps.sh package)"
    lintian --fail-on error --tag-display-limit 0 "$deb" >"$dir/lintian.txt" 2>&1
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
deb=$2
m=$dir/merged
mount -t overlay overlay -o "lowerdir=/,upperdir=$dir/upper,workdir=$dir/overlay-work" "$m" ||
  { echo "SKIPPED: overlayfs cannot be mounted here"; exit 4; }
mount --rbind /dev "$m/dev"
mount -t proc proc "$m/proc"
mount --rbind /sys "$m/sys"
mount -t tmpfs tmpfs "$m/tmp"
mount -t tmpfs tmpfs "$m/run"
cp "$deb" "$m/tmp/"
in_root() { chroot "$m" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
in_root sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y /tmp/tscaudit_*.deb' >"$dir/apt.log" 2>&1 ||
  { echo "FAIL: apt-get install: $(tail -5 "$dir/apt.log")"; exit 1; }
in_root dpkg -s tscaudit | grep -q '^Status: install ok installed' || { echo "FAIL: dpkg does not list it"; exit 1; }
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
echo "installed, report written, units verified"
EOF
    unshare --mount --propagation private bash "$dir/inside.sh" "$dir" "$deb" >"$dir/inside.out" 2>&1
    rc=$?
    cat "$dir/inside.out"
    rm -rf "$dir/upper" "$dir/overlay-work" "$dir/merged"
    [ "$rc" = 4 ] && skip "$(grep SKIPPED "$dir/inside.out")"
    [ "$rc" = 0 ] || fail "exit $rc"
    ;;

  *) fail "unknown case" ;;
esac
echo "ok: $case_name"
