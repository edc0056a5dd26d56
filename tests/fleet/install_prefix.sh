#!/usr/bin/env bash
# `make install PREFIX=P` (cmake --install --prefix P) installs units that start what it
# installed: the service's ExecStart names P/bin/tscaudit and its ExecStopPost
# P/lib/tscaudit/tscaudit-check-failed, both there and executable; with the package's prefix
# (/usr) the unit is the one in contrib/systemd/, byte for byte.
#   install_prefix.sh BUILD_DIR SOURCE_DIR WORKDIR        Exit 0 ok, 1 failed (the reason printed).
set -u
build=$1
src=$2
work=$3/install-prefix
fail() { echo "FAIL (install prefix): $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
for prefix in "$work/opt/tscaudit" /usr; do
  stage=$work/stage
  rm -rf "$stage"
  if [ "$prefix" = /usr ]; then
    DESTDIR=$stage cmake --install "$build" --prefix /usr --component tool >"$work/install.log" 2>&1 ||
      fail "cmake --install --prefix /usr failed: $(tail -n 3 "$work/install.log")"
    cmp "$stage/usr/lib/systemd/system/tscaudit.service" "$src/contrib/systemd/tscaudit.service" ||
      fail "with prefix /usr the installed unit differs from contrib/systemd/tscaudit.service"
    continue
  fi
  cmake --install "$build" --prefix "$prefix" --component tool >"$work/install.log" 2>&1 ||
    fail "cmake --install --prefix $prefix failed: $(tail -n 3 "$work/install.log")"
  unit=$prefix/lib/systemd/system/tscaudit.service
  [ -f "$unit" ] || fail "no unit at $unit"
  start=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit")
  stop=$(sed -n 's/^ExecStopPost=\([^ ]*\).*/\1/p' "$unit")
  [ "$start" = "$prefix/bin/tscaudit" ] || fail "ExecStart=$start, not $prefix/bin/tscaudit"
  [ "$stop" = "$prefix/lib/tscaudit/tscaudit-check-failed" ] ||
    fail "ExecStopPost=$stop, not $prefix/lib/tscaudit/tscaudit-check-failed"
  [ -x "$start" ] || fail "ExecStart's $start is not installed"
  [ -x "$stop" ] || fail "ExecStopPost's $stop is not installed"
  "$start" --version >/dev/null || fail "$start --version failed"
  if grep -n '/usr/bin/\|/usr/lib/tscaudit' "$unit"; then fail "the unit still names a path of /usr"; fi
done
echo "install prefix: the units start $work/opt/tscaudit/bin/tscaudit; with /usr, the unit as shipped"
