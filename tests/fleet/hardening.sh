#!/usr/bin/env bash
# The service's sandbox and the metrics file's writing, one case per call:
#   hardening.sh TSCAUDIT SOURCE_DIR WORKDIR CASE
#   unit-security      systemd-analyze security --offline scores every shipped service unit
#                      2.5 or less (systemd's package; no running systemd needed)
#   sandboxed-check    the unit's ExecStart, its Environment= defaults substituted, run as the
#                      unit runs it as far as this machine allows without systemd: no capability
#                      (setpriv: empty bounding, inheritable and ambient sets, no new privileges,
#                      UMask 0022), private network, IPC, UTS and mount namespaces (unshare)
#                      with only the pseudo devices in /dev (PrivateDevices=); also as an
#                      unprivileged user. Not applied: the system call filter (@system-service
#                      is systemd's own list, compiled into seccomp by the service manager) and
#                      ProtectKernelLogs= (a seccomp filter on syslog(2) too): the kernel log is
#                      denied here only where kernel.dmesg_restrict=1.
#   concurrent-metrics two `check --quick --openmetrics F` at once, again and again: every file
#                      observed at F is one whole check's (promtool), never a mix
# Exit 0: as documented; 1: not (the reason printed); 4: skipped, with the reason.
set -u
tscaudit=$1
src=$2
work=$3
case_name=$4
dir="$work/hardening-$case_name"
rm -rf "$dir"
mkdir -p "$dir"
unit="$src/contrib/systemd/tscaudit.service"
max_exposure=2.5

fail() {
  echo "FAIL ($case_name): $*" >&2
  [ -f "$dir/stderr" ] && sed 's/^/  stderr: /' "$dir/stderr" >&2
  exit 1
}
skip() {
  echo "SKIPPED: $*"
  exit 4
}
need() { command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed ($2)"; }

# The value of KEY= in the unit's [Service] (the last one given), without quotes.
unit_value() { sed -n "s/^$1=//p" "$unit" | tail -1; }
# The default of an Environment= variable of the unit: Environment=NAME=V or "NAME=V".
unit_env() { sed -n -e "s/^Environment=\"$1=\(.*\)\"$/\1/p" -e "s/^Environment=$1=\(.*\)$/\1/p" "$unit" | tail -1; }

# The unit's ExecStart= as words, $VAR and ${VAR} replaced by the Environment= defaults
# (TSCAUDIT_METRICS by $1, TSCAUDIT_STATE by $2, TSCAUDIT_HISTORY by $3), the tool by the one
# under test.
exec_start_words() {
  local line args
  line=$(unit_value ExecStart)
  args=$(unit_env TSCAUDIT_CHECK_ARGS)
  line=${line//\$\{TSCAUDIT_METRICS\}/$1}
  line=${line//\$TSCAUDIT_METRICS/$1}
  line=${line//\$\{TSCAUDIT_STATE\}/$2}
  line=${line//\$TSCAUDIT_STATE/$2}
  line=${line//\$\{TSCAUDIT_HISTORY\}/$3}
  line=${line//\$TSCAUDIT_HISTORY/$3}
  line=${line//\$\{TSCAUDIT_CHECK_ARGS\}/$args}
  line=${line//\$TSCAUDIT_CHECK_ARGS/$args}
  line=${line/\/usr\/bin\/tscaudit/$tscaudit}
  echo "$line"
}

case "$case_name" in
  unit-security)
    need systemd-analyze "Debian's systemd package"
    found=0
    for u in "$src"/contrib/systemd/*.service; do
      found=1
      systemd-analyze security --offline=true "$u" >"$dir/analysis" 2>"$dir/stderr" || true
      score=$(sed -n 's/^→ Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p' "$dir/analysis")
      [ -n "$score" ] || fail "no exposure level for $(basename "$u"): $(cat "$dir/analysis")"
      echo "$(basename "$u"): $score"
      awk -v s="$score" -v m="$max_exposure" 'BEGIN { exit !(s <= m) }' ||
        fail "$(basename "$u") scores $score, above $max_exposure: $(grep '✗' "$dir/analysis")"
      # And systemd-analyze's own verdict with the same bound (exit status).
      systemd-analyze security --offline=true --threshold=25 "$u" >/dev/null 2>&1 ||
        fail "$(basename "$u"): systemd-analyze security --threshold=25 fails"
    done
    [ "$found" = 1 ] || fail "no service unit in contrib/systemd"
    # A timer starts no process: it has no sandbox to score (systemd-analyze scores one as a
    # service that has none of the settings, which a timer cannot take). It must start our
    # service and nothing else.
    for t in "$src"/contrib/systemd/*.timer; do
      ! grep -q '^Unit=' "$t" || fail "$(basename "$t") names another unit to start"
      [ -f "${t%.timer}.service" ] || fail "$(basename "$t") has no service of its name"
      grep -q '^\[Service\]' "$t" && fail "$(basename "$t") has a [Service] section"
      echo "$(basename "$t"): starts $(basename "${t%.timer}.service") (a timer runs no process: not scored)"
    done
    ;;

  sandboxed-check)
    need setpriv "util-linux"
    need unshare "util-linux"
    [ "$(id -u)" = 0 ] || skip "not root: the unit's identity (root without capabilities) and the namespaces need root"
    # The unit's identity, as the fleet test reads it.
    grep -qx 'CapabilityBoundingSet=' "$unit" || fail "the unit's CapabilityBoundingSet= is not empty"
    ! grep -Eq '^(User|DynamicUser|AmbientCapabilities)=.' "$unit" || fail "the unit's identity is not root without capabilities"
    [ "$(unit_value UMask)" = 0022 ] || fail "the unit's UMask is not 0022"
    mkdir -p "$dir/dev" "$dir/textfile" "$dir/nobody"
    chmod 0755 "$dir/textfile"
    chown 65534:65534 "$dir/nobody"
    chmod 0755 "$work" "$dir" 2>/dev/null || true
    # PrivateDevices=: /dev with the pseudo devices only (no /dev/cpu/*/msr, no disks).
    # PrivateNetwork=, PrivateIPC=, ProtectHostname=: new namespaces. Capabilities: none.
    sandbox() {
      local who=$1
      shift
      local ids=()
      [ "$who" = nobody ] && ids=(--reuid=65534 --regid=65534 --clear-groups)
      unshare --mount --net --ipc --uts --propagation private -- bash -c '
        set -e
        d=$1; shift
        for n in null zero full random urandom tty; do touch "$d/dev/$n"; mount --bind "/dev/$n" "$d/dev/$n"; done
        mount --bind "$d/dev" /dev
        umask 0022
        exec "$@"' sandbox "$dir" setpriv "${ids[@]}" --no-new-privs --bounding-set=-all --inh-caps=-all \
        --ambient-caps=-all -- "$@"
    }
    for who in root nobody; do
      target="$dir/textfile/tscaudit.prom"
      state="$dir/textfile/state"
      history="$dir/textfile/boots"
      [ "$who" = nobody ] && target="$dir/nobody/tscaudit.prom" state="$dir/nobody/state" history="$dir/nobody/boots"
      read -r -a words <<<"$(exec_start_words "$target" "$state" "$history")"
      echo "as $who: ${words[*]}"
      sandbox "$who" "${words[@]}" >"$dir/stdout" 2>"$dir/stderr"
      rc=$?
      case $rc in 0 | 1 | 5) ;; *) fail "the check exited $rc as $who in the sandbox" ;; esac
      [ -f "$target" ] || fail "no metrics file as $who"
      [ "$(stat -c %a "$target")" = 644 ] || fail "the metrics file is mode $(stat -c %a "$target"), not 644"
      grep -q '^tscaudit_check_success' "$target" || fail "no tscaudit_check_success in the metrics ($who)"
      [ "$(tail -1 "$target")" = "# EOF" ] || fail "the metrics file is not whole ($who)"
      # The published state, for programs: 0644 whatever the umask, and read back whole.
      [ -f "$state" ] || fail "no published state as $who"
      [ "$(stat -c %a "$state")" = 644 ] || fail "the published state is mode $(stat -c %a "$state"), not 644"
      "$tscaudit" state "$state" >"$dir/state.txt" 2>&1 || fail "tscaudit state exited $? on the state published as $who: $(cat "$dir/state.txt")"
      head -1 "$dir/state.txt" | grep -Eq '^(current|aged)' || fail "the state published as $who is not this boot's: $(head -3 "$dir/state.txt")"
      [ -f "$history/boot-$(cat /proc/sys/kernel/random/boot_id).json" ] || fail "no record of this boot in $history as $who"
      if command -v promtool >/dev/null 2>&1; then
        promtool check metrics <"$target" >"$dir/promtool.out" 2>&1 || fail "promtool: $(cat "$dir/promtool.out")"
      fi
      sed 's/^/  /' "$dir/stderr"
    done
    # What the sandbox takes away, said by the tool rather than a crash: the MSRs (no
    # /dev/cpu/N/msr, no CAP_SYS_RAWIO) and, where dmesg_restrict is set, the kernel log.
    sandbox root "$tscaudit" info --format json >"$dir/info.json" 2>"$dir/stderr" || fail "info exited $? in the sandbox"
    if grep -q '"tsc_adjust' "$dir/info.json"; then
      grep -Eq 'no /dev/cpu/[0-9]+/msr|needs root \(CAP_SYS_RAWIO\)' "$dir/info.json" ||
        fail "info does not say the MSRs are unavailable: $(grep -i msr "$dir/info.json" | head -3)"
    fi
    echo "facts lost in the sandbox:"
    grep -Eo '"[^"]*(msr|klogctl|kernel log|CAP_SYSLOG|CAP_SYS_RAWIO)[^"]*"' "$dir/info.json" | sort -u | sed 's/^/  /'
    if [ "$(cat /proc/sys/kernel/dmesg_restrict 2>/dev/null)" = 1 ]; then
      grep -q 'CAP_SYSLOG' "$dir/info.json" || fail "info does not say the kernel log is unreadable"
    fi
    # ExecStopPost's tscaudit-check-failed as the same identity: the failure file replaces the metrics.
    SERVICE_RESULT=exit-code EXIT_CODE=exited EXIT_STATUS=3 \
      sandbox root sh "$src/contrib/systemd/tscaudit-check-failed" "$dir/textfile/tscaudit.prom" 2>"$dir/stderr" ||
      fail "tscaudit-check-failed failed in the sandbox"
    grep -q '^tscaudit_check_success{reason="exit_status_3"} 0$' "$dir/textfile/tscaudit.prom" ||
      fail "tscaudit-check-failed did not write the failure"
    [ "$(stat -c %a "$dir/textfile/tscaudit.prom")" = 644 ] || fail "tscaudit-check-failed's file is not 0644"
    ;;

  concurrent-metrics)
    need promtool "Debian's prometheus package; scripts/install-deps.sh fleet"
    [ "$(nproc)" -ge 2 ] || skip "fewer than two usable CPUs"
    f="$dir/tscaudit.prom"
    : >"$dir/seen"
    for i in $(seq 1 15); do
      "$tscaudit" check --quick --openmetrics "$f" >/dev/null 2>"$dir/stderr.a" &
      a=$!
      "$tscaudit" check --quick --openmetrics "$f" >/dev/null 2>"$dir/stderr.b" &
      b=$!
      # Read the file while they run: any version seen must be whole.
      while kill -0 "$a" 2>/dev/null || kill -0 "$b" 2>/dev/null; do
        if cp "$f" "$dir/copy" 2>/dev/null; then
          promtool check metrics <"$dir/copy" >"$dir/promtool.out" 2>&1 ||
            fail "round $i: a file read while two checks wrote it does not parse: $(cat "$dir/promtool.out")"
          [ "$(tail -1 "$dir/copy")" = "# EOF" ] || fail "round $i: a file read while two checks wrote it is cut short"
          [ "$(grep -c '^tscaudit_check_timestamp_seconds ' "$dir/copy")" = 1 ] ||
            fail "round $i: a file read while two checks wrote it holds two checks"
          echo x >>"$dir/seen"
        fi
      done
      wait "$a"
      ra=$?
      wait "$b"
      rb=$?
      for rc in $ra $rb; do
        case $rc in 0 | 1 | 5) ;; *) fail "round $i: a check exited $rc: $(cat "$dir/stderr.a" "$dir/stderr.b")" ;; esac
      done
      promtool check metrics <"$f" >"$dir/promtool.out" 2>&1 || fail "round $i: $(cat "$dir/promtool.out")"
      left=$(find "$dir" -maxdepth 1 -name 'tscaudit.prom.tmp.*' | head -1)
      [ -z "$left" ] || fail "round $i: a temporary was left: $left"
    done
    echo "15 rounds of two checks at once; $(wc -l <"$dir/seen") files read while they ran, each whole"
    ;;

  *)
    fail "unknown case"
    ;;
esac
exit 0
