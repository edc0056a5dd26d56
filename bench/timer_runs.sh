#!/usr/bin/env bash
# The systemd timer's check, N times in a row, as the unit runs it (docs/performance.md,
# "The timer's check, repeated"): the ExecStart= line of contrib/systemd/tscaudit.service
# with its Environment= defaults, the metrics file in a textfile directory of its own. After
# every run: its exit status, wall time and peak RSS, the files in the directory (only the
# metrics file may be there) and the file's size. Fails when anything else is left behind or
# a run ends without its metrics.
#   bench/timer_runs.sh TSCAUDIT [RUNS] [OUT.tsv]        (defaults 100, timer_runs.tsv)
set -euo pipefail
tool=$(realpath "$1")
runs=${2:-100}
out=${3:-timer_runs.tsv}
unit=$(dirname "$0")/../contrib/systemd/tscaudit.service
textfile=$(mktemp -d)
trap 'rm -rf "$textfile"' EXIT
metrics="$textfile/tscaudit.prom"
# The unit's defaults: Environment="TSCAUDIT_CHECK_ARGS=..." and the ExecStart= arguments.
check_args=$(sed -n 's/^Environment="TSCAUDIT_CHECK_ARGS=\(.*\)"$/\1/p' "$unit")
exec_line=$(sed -n 's/^ExecStart=[^ ]*tscaudit \(.*\)$/\1/p' "$unit")
exec_line=${exec_line//\$TSCAUDIT_CHECK_ARGS/$check_args}
exec_line=${exec_line//\$\{TSCAUDIT_METRICS\}/$metrics}
read -r -a argv <<<"$exec_line"
echo "command: tscaudit ${argv[*]}" >&2
printf 'run\texit\twall_ms\tmax_rss_kib\tfiles\tmetrics_bytes\n' >"$out"
for i in $(seq "$runs"); do
  start=$(date +%s%N)
  set +e
  /usr/bin/time -f '%M' -o "$textfile/../timer_rss.$$" "$tool" "${argv[@]}" >/dev/null 2>&1
  rc=$?
  set -e
  end=$(date +%s%N)
  rss=$(cat "$textfile/../timer_rss.$$")
  files=$(find "$textfile" -mindepth 1 | wc -l)
  size=$(stat -c %s "$metrics" 2>/dev/null || echo 0)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$rc" $(((end - start) / 1000000)) "$rss" "$files" "$size" >>"$out"
  case $rc in 0 | 1 | 5) ;; *) echo "run $i: exit $rc" >&2; exit 1 ;; esac
  [ "$files" = 1 ] || { echo "run $i: left in the textfile directory: $(ls -A "$textfile")" >&2; exit 1; }
  tail -1 "$metrics" | grep -qx '# EOF' || { echo "run $i: the metrics file does not end with # EOF" >&2; exit 1; }
done
rm -f "$textfile/../timer_rss.$$"
tail -n +2 "$out" | sort -t$'\t' -k3,3n | awk -F'\t' '{ n++; w[n] = $3; if ($4 > rmax) rmax = $4
    if (rmin == "" || $4 < rmin) rmin = $4; e[$2]++ }
  END { printf "runs %d, wall ms median %d (min %d, max %d), peak RSS KiB %d to %d, exits:", n, w[int((n + 1) / 2)],
        w[1], w[n], rmin, rmax; for (k in e) printf " %s x%d", k, e[k]; print "" }'
