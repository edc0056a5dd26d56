#!/usr/bin/env bash
# The systemd timer's check, N times in a row, as the unit runs it
# (docs/results/2026-11-27-amd-epyc-long-runs.md, "The timer's check, a hundred times in a
# row"): the ExecStart= line of contrib/systemd/tscaudit.service
# with its Environment= defaults, the metrics file in a textfile directory of its own. After
# every run: its exit status, wall time and peak RSS, the files in the directory (only the
# metrics file may be there) and the file's size. Fails when anything else is left behind or
# a run ends without its metrics. Each run is sandboxed as the unit is, as far as a machine
# without systemd allows (tests/fleet/hardening.sh, sandboxed-check): no capability, no new
# privileges, UMask 0022, private network, IPC, UTS and mount namespaces with only the pseudo
# devices in /dev; not the system call filter. As root, with setpriv and unshare; otherwise
# the runs go unsandboxed, and the first line says so.
#   bench/timer_runs.sh TSCAUDIT [RUNS] [OUT.tsv]        (defaults 100, timer_runs.tsv)
set -euo pipefail
tool=$(realpath "$1")
runs=${2:-100}
out=${3:-timer_runs.tsv}
unit=$(dirname "$0")/../contrib/systemd/tscaudit.service
textfile=$(mktemp -d)
metrics="$textfile/tscaudit.prom"
# The unit's defaults: Environment="TSCAUDIT_CHECK_ARGS=..." and the ExecStart= arguments.
check_args=$(sed -n 's/^Environment="TSCAUDIT_CHECK_ARGS=\(.*\)"$/\1/p' "$unit")
exec_line=$(sed -n 's/^ExecStart=[^ ]*tscaudit \(.*\)$/\1/p' "$unit")
exec_line=${exec_line//\$TSCAUDIT_CHECK_ARGS/$check_args}
exec_line=${exec_line//\$\{TSCAUDIT_METRICS\}/$metrics}
read -r -a argv <<<"$exec_line"
devdir=$(mktemp -d)
trap 'rm -rf "$textfile" "$devdir"' EXIT
sandbox=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && command -v unshare >/dev/null; then
  mkdir -p "$devdir/dev"
  sandbox=(unshare --mount --net --ipc --uts --propagation private -- bash -c '
    set -e
    d=$1; shift
    for n in null zero full random urandom tty; do touch "$d/dev/$n"; mount --bind "/dev/$n" "$d/dev/$n"; done
    mount --bind "$d/dev" /dev
    umask 0022
    exec "$@"' sandbox "$devdir" setpriv --no-new-privs --bounding-set=-all --inh-caps=-all --ambient-caps=-all --)
  echo "sandboxed: no capability, private network, IPC, UTS, mount and /dev (not the system call filter)" >&2
else
  echo "not sandboxed: needs root, setpriv and unshare" >&2
fi
echo "command: tscaudit ${argv[*]}" >&2
printf 'run\texit\twall_ms\tmax_rss_kib\tfiles\tmetrics_bytes\n' >"$out"
for i in $(seq "$runs"); do
  start=$(date +%s%N)
  set +e
  /usr/bin/time -f '%M' -o "$devdir/rss" "${sandbox[@]}" "$tool" "${argv[@]}" >/dev/null 2>&1
  rc=$?
  set -e
  end=$(date +%s%N)
  rss=$(tail -1 "$devdir/rss")
  files=$(find "$textfile" -mindepth 1 | wc -l)
  size=$(stat -c %s "$metrics" 2>/dev/null || echo 0)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$rc" $(((end - start) / 1000000)) "$rss" "$files" "$size" >>"$out"
  case $rc in 0 | 1 | 5) ;; *) echo "run $i: exit $rc" >&2; exit 1 ;; esac
  [ "$files" = 1 ] || { echo "run $i: left in the textfile directory: $(ls -A "$textfile")" >&2; exit 1; }
  tail -1 "$metrics" | grep -qx '# EOF' || { echo "run $i: the metrics file does not end with # EOF" >&2; exit 1; }
done
tail -n +2 "$out" | sort -t$'\t' -k3,3n | awk -F'\t' '{ n++; w[n] = $3; if ($4 > rmax) rmax = $4
    if (rmin == "" || $4 < rmin) rmin = $4; e[$2]++ }
  END { printf "runs %d, wall ms median %d (min %d, max %d), peak RSS KiB %d to %d, exits:", n, w[int((n + 1) / 2)],
        w[1], w[n], rmin, rmax; for (k in e) printf " %s x%d", k, e[k]; print "" }'
