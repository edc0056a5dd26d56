#!/usr/bin/env bash
# The metrics for Prometheus end to end, against the real components (Debian's promtool,
# prometheus-node-exporter, python3-prometheus-client), one case per call:
#   fleet.sh TSCAUDIT SOURCE_DIR WORKDIR CASE
# Exit 0: the case behaved as documented; 1: it did not (the reason is printed); 4: skipped
# (a component is not installed, or the machine has one CPU), with the reason.
# node_exporter is started on a free loopback port and stopped by its process id; every wait
# is bounded.
set -u
tscaudit=$1
src=$2
work=$3
case_name=$4
dir="$work/$case_name"
rm -rf "$dir"
mkdir -p "$dir"
python=/usr/bin/python3  # Debian's, which has prometheus_client (not a virtualenv's)

fail() {
  echo "FAIL ($case_name): $*" >&2
  [ -f "$dir/stderr" ] && sed 's/^/  stderr: /' "$dir/stderr" >&2
  exit 1
}
skip() {
  echo "SKIPPED: $*"
  exit 4
}
need() { command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed ($2; scripts/install-deps.sh fleet)"; }

# promtool's lint and parse of the Prometheus text format.
promtool_ok() {
  promtool check metrics <"$1" >"$dir/promtool.out" 2>&1 || fail "promtool check metrics $1: $(cat "$dir/promtool.out")"
}
# The strict OpenMetrics 1.0 parser of prometheus_client (it wants # EOF, counters without
# _total in their TYPE, units that end the name): prints "NAME VALUE" per sample.
openmetrics_samples() {
  "$python" - "$1" <<'EOF' || fail "not OpenMetrics 1.0: $1"
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
for family in text_string_to_metric_families(open(sys.argv[1]).read()):
    for s in family.samples:
        labels = ",".join(f'{k}="{v}"' for k, v in s.labels.items())
        print(s.name + ("{" + labels + "}" if labels else ""), repr(float(s.value)))
EOF
}
# The value of the sample named exactly $2 (with its labels) in file $1.
value_of() { awk -v name="$2" '$1 == name { print $2; found = 1 } END { exit !found }' "$1"; }
expect_value() {
  local got
  got=$(value_of "$1" "$2") || fail "$2 is missing from $1"
  [ "$got" = "$3" ] || fail "$2 is $got, expected $3"
}
# Only FILE in the directory: no temporary left beside it.
only_file() {
  local others
  others=$(find "$(dirname "$1")" -mindepth 1 ! -path "$1" | head -3)
  [ -z "$others" ] || fail "left beside $1: $others"
}

# A simulated four-CPU machine whose CPU 3 is 400 ticks ahead: deterministic metrics.
simulated_machine() {
  "$tscaudit" simulate --topology "synthetic:package:1 core:2 pu:2" --cpu-offset-ticks 3=400 --rounds 3000 \
    --out "$dir/machine" >/dev/null 2>"$dir/stderr" || fail "simulate failed"
}

node_pid=""
stop_node_exporter() {
  if [ -n "$node_pid" ]; then
    kill "$node_pid" 2>/dev/null
    wait "$node_pid" 2>/dev/null
    kill -0 "$node_pid" 2>/dev/null && fail "node_exporter (pid $node_pid) is still running"
    node_pid=""
  fi
}
trap stop_node_exporter EXIT
# Starts node_exporter on a free loopback port with only the textfile and time collectors,
# reading $1; sets $port and $node_pid, and waits (at most 10 s) until it answers.
start_node_exporter() {
  port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
    --collector.textfile --collector.textfile.directory="$1" --collector.time >"$dir/node_exporter.log" 2>&1 &
  node_pid=$!
  local i
  for i in $(seq 50); do
    curl -sf "http://127.0.0.1:$port/metrics" >/dev/null 2>&1 && return 0
    kill -0 "$node_pid" 2>/dev/null || fail "node_exporter ended: $(tail -3 "$dir/node_exporter.log")"
    sleep 0.2
  done
  fail "node_exporter did not answer on 127.0.0.1:$port within 10 s"
}
scrape() {
  curl -sf "http://127.0.0.1:$port/metrics" >"$dir/$1" || fail "scraping 127.0.0.1:$port failed"
  expect_value "$dir/$1" node_textfile_scrape_error 0
}

case $case_name in
  rules)
    need promtool "Debian's prometheus package"
    promtool check rules "$src/contrib/prometheus/tscaudit.rules.yml" >"$dir/out" 2>&1 || fail "$(cat "$dir/out")"
    promtool test rules "$src/tests/fleet/tscaudit.rules.test.yml" >"$dir/out" 2>&1 || fail "$(cat "$dir/out")"
    ;;

  boot-history)
    # check --history on 8 CPUs in 2 packages: the first boot has nothing to compare with (no
    # series); a record of an earlier boot (this boot's, renamed) with the same offsets gives 0;
    # package 1 moved by 2000 ticks gives its 4 CPUs, which `tscaudit compare` of the two
    # records names, and a record whose 32 failures are cut to 20; 16 boots are kept, the
    # oldest removed; a file that is no record is passed over, counted, left in place.
    need promtool "Debian's prometheus package"
    for m in same:"" moved:"--package-offset-ticks 1=2000"; do
      # shellcheck disable=SC2086 # the options are words
      "$tscaudit" simulate --topology "synthetic:package:2 core:4 pu:1" --rounds 3000 ${m#*:} \
        --out "$dir/${m%%:*}" >/dev/null 2>"$dir/stderr" || fail "simulate ${m%%:*}"
    done
    boot=$(cat /proc/sys/kernel/random/boot_id)
    h=$dir/history
    history_check() { # history_check RUN METRICS: check --from RUN --history h, metrics to METRICS
      "$tscaudit" check --from "$dir/$1" --history "$h" --openmetrics "$dir/$2" >/dev/null 2>"$dir/stderr"
      case $? in 0 | 1) ;; *) fail "check --from $1 --history: exit $?" ;; esac
      promtool_ok "$dir/$2"
    }
    said() { tr -s ' \n' '  ' <"$dir/stderr" | grep -q -- "$1"; }
    history_check same first.prom
    [ -f "$h/boot-$boot.json" ] || fail "no record of this boot in $h"
    grep -q '^tscaudit_boot_moved_cpus' "$dir/first.prom" && fail "a first boot has a tscaudit_boot_moved_cpus"
    said "no earlier boot to compare with" || fail "the first boot is not said to have nothing to compare with"
    earlier=$h/boot-00000000-0000-4000-8000-000000000001.json
    mv "$h/boot-$boot.json" "$earlier"
    history_check same same.prom
    expect_value "$dir/same.prom" tscaudit_boot_moved_cpus 0
    said "no proven change since the previous boot" || fail "no change is not said"
    history_check moved moved.prom
    expect_value "$dir/moved.prom" tscaudit_boot_moved_cpus 4
    said "4 CPUs moved since the previous boot (.tscaudit compare $earlier $h/boot-$boot.json" ||
      fail "the move and its compare line are not said"
    "$tscaudit" compare "$earlier" "$h/boot-$boot.json" >"$dir/compare.txt" 2>&1
    [ $? = 1 ] || fail "compare of the two records: exit not 1: $(cat "$dir/compare.txt")"
    grep -q '^changed: 4 CPUs moved against CPU 0: CPU 4 +' "$dir/compare.txt" ||
      fail "compare does not name package 1's CPUs: $(head -3 "$dir/compare.txt")"
    [ "$("$python" -c 'import json, sys
j = json.load(open(sys.argv[1]))
print(len(j["failures"]), j["failures_total"])' "$h/boot-$boot.json")" = "20 32" ] || fail "the record's failures are not the first 20 of 32"
    # 17 earlier boots, the oldest first; with this one, the 16 newest stay.
    for i in $(seq 10 26); do
      "$python" -c 'import json, sys
j = json.load(open(sys.argv[1]))
j["kept_unix_s"] = float(sys.argv[2])
json.dump(j, open(sys.argv[3], "w"))' "$earlier" "$i" "$h/boot-00000000-0000-4000-8000-0000000000$i.json"
    done
    echo '{' >"$h/boot-not-a-record.json"
    history_check moved kept.prom
    said "1 file named boot-\*.json in $h could not be read as a boot's record: passed over" ||
      fail "the file that is no record is not counted"
    [ -f "$h/boot-not-a-record.json" ] || fail "the file that is no record was removed"
    kept=$(find "$h" -name 'boot-????????-*.json' | wc -l)
    [ "$kept" = 16 ] || fail "$kept records kept, not 16"
    for i in 10 11 12; do
      [ ! -e "$h/boot-00000000-0000-4000-8000-0000000000$i.json" ] || fail "the oldest records were kept ($i)"
    done
    # The previous boot is still the newest other one, ...001 (the same offsets as "same").
    expect_value "$dir/kept.prom" tscaudit_boot_moved_cpus 4
    ;;

  check-from)
    # check --from: the same metrics on standard output and in the file, OpenMetrics 1.0 that
    # promtool accepts, the verdict and the truth inside the hard bounds.
    need promtool "Debian's prometheus package"
    "$python" -c 'import prometheus_client' 2>/dev/null || skip "python3-prometheus-client is not installed"
    simulated_machine
    mkdir -p "$dir/textfile"
    "$tscaudit" check --from "$dir/machine" --format openmetrics --openmetrics "$dir/textfile/tscaudit.prom" \
      >"$dir/stdout.prom" 2>"$dir/stderr"
    rc=$?
    [ "$rc" = 1 ] || fail "exit $rc, expected 1 (CPU 3 is off)"
    cmp -s "$dir/stdout.prom" "$dir/textfile/tscaudit.prom" || fail "standard output and --openmetrics differ"
    only_file "$dir/textfile/tscaudit.prom"
    [ "$(tail -1 "$dir/stdout.prom")" = "# EOF" ] || fail "no # EOF at the end"
    grep -q ' [0-9.e+-]* [0-9]*$' "$dir/stdout.prom" && fail "a sample has a timestamp"
    promtool_ok "$dir/stdout.prom"
    openmetrics_samples "$dir/stdout.prom" >"$dir/samples"
    expect_value "$dir/samples" 'tscaudit_check_success{reason="offset"}' 0.0
    expect_value "$dir/samples" 'tscaudit_cpu_off{cpu="3"}' 1.0
    expect_value "$dir/samples" tscaudit_check_cpus 4.0
    expect_value "$dir/samples" tscaudit_check_pairs 12.0
    expect_value "$dir/samples" tscaudit_tsc_frequency_hertz 2300000000.0
    [ "$(grep -c '^tscaudit_cpu_offset_seconds{' "$dir/samples")" = 4 ] || fail "not 4 per-CPU offsets"
    # The truth (400 ticks at 2.3 GHz) lies within CPU 3's hard bounds, and the estimate near it.
    lo=$(value_of "$dir/samples" 'tscaudit_cpu_offset_lower_seconds{cpu="3"}')
    hi=$(value_of "$dir/samples" 'tscaudit_cpu_offset_upper_seconds{cpu="3"}')
    x=$(value_of "$dir/samples" 'tscaudit_cpu_offset_seconds{cpu="3"}')
    awk -v lo="$lo" -v hi="$hi" -v x="$x" 'BEGIN { t = 400 / 2.3e9; exit !(lo <= t && t <= hi && x > 0.9 * t && x < 1.1 * t) }' ||
      fail "CPU 3: estimate $x, bounds [$lo, $hi] s against the truth 400 ticks"
    series=$(grep -c '^tscaudit_' "$dir/samples")
    [ "$series" = 41 ] || fail "$series series, expected 26 + 3 x 4 CPUs + 1 CPU off + 2 for its finding = 41"
    # --export-pairs: 4 more per ordered pair (12); --export-cpus 2: the reference and CPU 3.
    "$tscaudit" check --from "$dir/machine" --format openmetrics --export-pairs --export-cpus 2 \
      >"$dir/pairs.prom" 2>"$dir/stderr"
    promtool_ok "$dir/pairs.prom"
    openmetrics_samples "$dir/pairs.prom" >"$dir/pair_samples"
    series=$(grep -c '^tscaudit_' "$dir/pair_samples")
    [ "$series" = $((41 - 6 + 48)) ] || fail "$series series with --export-pairs --export-cpus 2, expected 83"
    grep -q '^tscaudit_cpu_offset_seconds{cpu="3"}' "$dir/pair_samples" || fail "--export-cpus 2 left CPU 3 out"
    grep -q '^tscaudit_pair_offset_lower_seconds{a="2",b="3"}' "$dir/pair_samples" || fail "no pair 2->3"
    ;;

  node-exporter)
    # node_exporter's textfile collector serves the check's metrics (rebuilt, then measured
    # here), the monitor's beside them, and the file of a check that could not answer.
    need promtool "Debian's prometheus package"
    need prometheus-node-exporter "Debian's prometheus-node-exporter package"
    need curl "curl"
    simulated_machine
    textfile="$dir/textfile"
    mkdir -p "$textfile"
    start_node_exporter "$textfile"
    "$tscaudit" check --from "$dir/machine" --openmetrics "$textfile/tscaudit.prom" >/dev/null 2>"$dir/stderr"
    [ $? = 1 ] || fail "check --from: expected exit 1"
    scrape from.txt
    expect_value "$dir/from.txt" 'tscaudit_check_success{reason="offset"}' 0
    expect_value "$dir/from.txt" 'tscaudit_cpu_off{cpu="3"}' 1
    expect_value "$dir/from.txt" tscaudit_tsc_frequency_hertz 2.3e+09
    grep -q '^node_time_clocksource_current_info{clocksource="' "$dir/from.txt" ||
      fail "node_exporter has no node_time_clocksource_current_info (the clocksource alert needs it)"
    grep -q '^# TYPE tscaudit_cpu_offset_seconds gauge$' "$dir/from.txt" || fail "the per-CPU offsets lost their type"
    if [ "$(nproc)" -ge 2 ]; then
      # Measured here: a short plan, CPUs 0 and 1.
      "$tscaudit" check --cpus 0,1 --rounds 2000 --visits 1 --openmetrics "$textfile/tscaudit.prom" >/dev/null \
        2>"$dir/stderr"
      rc=$?
      [ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "a live check ended with exit $rc"
      "$tscaudit" monitor --cpus 0,1 --interval 0.2 --duration 1 --out "$dir/monitor.log" \
        --openmetrics "$textfile/tscaudit_monitor_0_1.prom" --openmetrics-histogram 2>"$dir/stderr" ||
        fail "monitor failed"
      scrape live.txt
      grep -q '^tscaudit_check_success' "$dir/live.txt" || fail "the live check's verdict is not served"
      grep -q '^tscaudit_cpu_offset_upper_seconds{cpu="1"} ' "$dir/live.txt" || fail "no bound for CPU 1"
      grep -q '^tscaudit_info{check="full",clocksource="[a-z_]*",hypervisor=' "$dir/live.txt" || fail "no tscaudit_info"
      grep -q '^# TYPE tscaudit_monitor_rounds_total counter$' "$dir/live.txt" || fail "the monitor's counter is not a counter"
      grep -q '^tscaudit_monitor_rtt_seconds_bucket{a="0",b="1",le="+Inf"} [1-9]' "$dir/live.txt" || fail "no histogram"
      expect_value "$dir/live.txt" 'tscaudit_monitor_running{a="0",b="1"}' 0
    fi
    # A check that could not answer, as systemd's ExecStopPost= runs the script: the file is
    # replaced, and node_exporter serves success 0 with the reason.
    SERVICE_RESULT=exit-code EXIT_CODE=exited EXIT_STATUS=3 sh "$src/contrib/systemd/tscaudit-check-failed" \
      "$textfile/tscaudit.prom" || fail "tscaudit-check-failed failed"
    scrape failed.txt
    expect_value "$dir/failed.txt" 'tscaudit_check_success{reason="exit_status_3"}' 0
    grep -q '^tscaudit_cpu_offset_seconds' "$dir/failed.txt" && fail "the last run's offsets are still served"
    stop_node_exporter
    ;;

  monitor)
    # The file is rewritten whole after every interval: read while the monitor runs, it is
    # always complete; at the end it says the run ended and counts what the log counts.
    need promtool "Debian's prometheus package"
    [ "$(nproc)" -ge 2 ] || skip "fewer than two usable CPUs"
    metrics="$dir/m.prom"
    "$tscaudit" monitor --cpus 0,1 --interval 0.1 --duration 3 --out "$dir/m.log" --openmetrics "$metrics" \
      --openmetrics-histogram 2>"$dir/stderr" &
    pid=$!
    seen=0
    for i in $(seq 100); do
      if [ -f "$metrics" ] && grep -q '^tscaudit_monitor_interval_rounds' "$metrics"; then
        cp "$metrics" "$dir/during.prom"
        grep -q '^tscaudit_monitor_running{a="0",b="1"} 1$' "$dir/during.prom" && seen=$((seen + 1))
        promtool_ok "$dir/during.prom"
        [ "$seen" -ge 3 ] && break
      fi
      sleep 0.1
    done
    for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { kill -KILL "$pid"; fail "the monitor did not end"; }
    wait "$pid" || fail "monitor exited $?"
    [ "$seen" -ge 1 ] || fail "never saw the file of a running monitor with an interval"
    promtool_ok "$metrics"
    expect_value "$metrics" 'tscaudit_monitor_running{a="0",b="1"}' 0
    rounds=$(value_of "$metrics" 'tscaudit_monitor_rounds_total{a="0",b="1"}')
    logged=$(awk -F, '/^#/ || NF == 0 { next } !h { for (i = 1; i <= NF; i++) if ($i == "rounds") c = i; h = 1; next }
      { n += $c } END { print n }' "$dir/m.log")
    [ "$rounds" = "$logged" ] || fail "rounds_total $rounds, the log's intervals hold $logged"
    count=$(value_of "$metrics" 'tscaudit_monitor_rtt_seconds_count{a="0",b="1"}')
    [ "$count" = "$rounds" ] || fail "the histogram counts $count rounds, the intervals $rounds"
    left=$(find "$dir" -name 'm.prom.tmp.*' | head -1)
    [ -z "$left" ] || fail "a temporary was left: $left"
    # A metrics file that cannot be written fails before anything is measured.
    "$tscaudit" monitor --cpus 0,1 --duration 1 --out "$dir/x.log" --openmetrics /dev/full 2>"$dir/stderr"
    rc=$?
    [ "$rc" = 3 ] && grep -q 'cannot write /dev/full: No space left on device' "$dir/stderr" ||
      fail "--openmetrics /dev/full: exit $rc"
    "$tscaudit" monitor --cpus 0,1 --duration 1 --out "$dir/y.log" --openmetrics "$dir/missing/m.prom" \
      2>"$dir/stderr"
    rc=$?
    [ "$rc" = 3 ] && grep -q "cannot create $dir/missing/m.prom" "$dir/stderr" || fail "missing directory: exit $rc"
    [ -e "$dir/y.log" ] || [ -e "$dir/y.log.partial" ] && fail "a log was left by a run that never started"
    ;;

  check-failed)
    # tscaudit-check-failed as systemd runs it after each outcome: nothing after an answer
    # (exit 0 or 1), a failure file after an error, a timeout or a signal, which replaces
    # the last good file atomically and says the same as the tool would.
    need promtool "Debian's prometheus package"
    script="$src/contrib/systemd/tscaudit-check-failed"
    simulated_machine
    good="$dir/textfile/tscaudit.prom"
    mkdir -p "$dir/textfile"
    "$tscaudit" check --from "$dir/machine" --openmetrics "$good" >/dev/null 2>"$dir/stderr"
    cp "$good" "$dir/good.prom"
    SERVICE_RESULT=success EXIT_CODE=exited EXIT_STATUS=1 sh "$script" "$good" || fail "exit on success"
    cmp -s "$good" "$dir/good.prom" || fail "an answered check's file was replaced"
    # A real failing check: a bad option exits 2 and writes nothing; the script says so.
    "$tscaudit" check --from "$dir/machine" --tolerance 5h --openmetrics "$good" >/dev/null 2>"$dir/stderr"
    rc=$?
    [ "$rc" = 2 ] || fail "a bad tolerance exited $rc"
    cmp -s "$good" "$dir/good.prom" || fail "a refused check touched the file"
    SERVICE_RESULT=exit-code EXIT_CODE=exited EXIT_STATUS=$rc sh "$script" "$good" || fail "script failed"
    promtool_ok "$good"
    expect_value "$good" 'tscaudit_check_success{reason="exit_status_2"}' 0
    [ "$(tail -1 "$good")" = "# EOF" ] || fail "no # EOF"
    now=$(date +%s)
    t=$(value_of "$good" tscaudit_check_timestamp_seconds)
    [ $((now - t)) -ge 0 ] && [ $((now - t)) -le 60 ] || fail "the failure's time $t is not now ($now)"
    only_file "$good"
    # The same HELP as the tool's, so both files read alike.
    grep '^# HELP tscaudit_check_success ' "$dir/good.prom" >"$dir/help_tool"
    grep '^# HELP tscaudit_check_success ' "$good" >"$dir/help_script"
    cmp -s "$dir/help_tool" "$dir/help_script" || fail "the script's HELP differs from the tool's"
    SERVICE_RESULT=timeout EXIT_CODE=killed EXIT_STATUS=TERM sh "$script" "$good" || fail "script failed"
    expect_value "$good" 'tscaudit_check_success{reason="timeout"}' 0
    SERVICE_RESULT=core-dump EXIT_CODE=dumped EXIT_STATUS=SEGV sh "$script" "$good" || fail "script failed"
    expect_value "$good" 'tscaudit_check_success{reason="core_dump"}' 0
    if sh "$script" "$good" 2>"$dir/stderr"; then fail "ran without SERVICE_RESULT"; fi
    grep -q 'SERVICE_RESULT is not set' "$dir/stderr" || fail "no message without SERVICE_RESULT"
    ;;

  interrupted)
    # SIGINT during a live check with --openmetrics (a person's Ctrl-C; systemd's SIGTERM is
    # the same path): exit 3, outcome incomplete with no verdict, metrics whose reason is
    # interrupted, and the shipped rules fed with those very samples raise no
    # TscauditCheckFailed. The script systemd runs after the unit keeps that file.
    need promtool "Debian's prometheus package"
    [ "$(nproc)" -ge 2 ] || skip "fewer than two usable CPUs"
    mkdir -p "$dir/textfile" "$dir/runtime"
    metrics="$dir/textfile/tscaudit.prom"
    "$tscaudit" check --cpus 0,1 --rounds 200000 --visits 200 --out "$dir/cut" --openmetrics "$metrics" \
      --format json >"$dir/out.json" 2>"$dir/stderr" &
    pid=$!
    # The run directory's manifest is written, aside until the check ends, once the check
    # measures and the signals are its own (formats.md, "Output directories").
    for i in $(seq 600); do compgen -G "$dir/cut.tmp.*/run/manifest.json" >/dev/null && break; sleep 0.05; done
    compgen -G "$dir/cut.tmp.*/run/manifest.json" >/dev/null ||
      { kill -KILL "$pid"; fail "the check never started measuring"; }
    sleep 0.3
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    [ "$rc" = 3 ] || fail "an interrupted check exited $rc, expected 3: $(cat "$dir/stderr")"
    grep -q '"outcome": "incomplete"' "$dir/out.json" || fail "the JSON's outcome is not incomplete"
    grep -q '"synchronized": null' "$dir/out.json" || fail "the JSON says synchronized true or false"
    grep -q '"cut_short": "interrupted by SIGINT' "$dir/out.json" || fail "the JSON does not say why it was cut"
    promtool_ok "$metrics"
    expect_value "$metrics" 'tscaudit_check_success{reason="interrupted"}' 0
    expect_value "$metrics" 'tscaudit_check_outcome{outcome="incomplete"}' 1
    only_file "$metrics"
    "$tscaudit" check --from "$dir/cut/run" >"$dir/from.txt" 2>"$dir/stderr"
    rc=$?
    [ "$rc" = 3 ] || fail "check --from the cut run exited $rc, expected 3"
    grep -q '^incomplete, no verdict: interrupted by SIGINT after ' "$dir/from.txt" || fail "--from: $(cat "$dir/from.txt")"
    # Every sample of the file as a constant series of one instance, for more than three hours.
    awk '!/^#/ && NF == 2 {
           name = $1; labels = ""
           if (match(name, /\{.*\}/)) { labels = substr(name, RSTART + 1, RLENGTH - 2) "," ; name = substr(name, 1, RSTART - 1) }
           printf "      - series: '\''%s{%sinstance=\"cut\",job=\"node\"}'\''\n        values: '\''%sx300'\''\n", name, labels, $2
         }' "$metrics" >"$dir/series.yml"
    grep -q 'tscaudit_check_success{reason="interrupted",instance="cut"' "$dir/series.yml" || fail "no success series"
    {
      printf 'rule_files:\n  - %s\nevaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n' \
        "$src/contrib/prometheus/tscaudit.rules.yml"
      cat "$dir/series.yml"
      printf '    alert_rule_test:\n'
      for t in 30m 200m; do
        for a in TscauditCheckFailed TscauditOffsetSpreadHigh; do
          printf '      - eval_time: %s\n        alertname: %s\n' "$t" "$a"
        done
      done
    } >"$dir/rules.test.yml"
    promtool test rules "$dir/rules.test.yml" >"$dir/out" 2>&1 || fail "$(cat "$dir/out")"
    # systemd's ExecStopPost= after the stop: the file written in this run stays ...
    cp "$metrics" "$dir/cut.prom"
    SERVICE_RESULT=exit-code EXIT_CODE=exited EXIT_STATUS=3 RUNTIME_DIRECTORY="$dir/runtime" \
      sh "$src/contrib/systemd/tscaudit-check-failed" "$metrics" || fail "tscaudit-check-failed failed"
    cmp -s "$metrics" "$dir/cut.prom" || fail "the script replaced the interrupted check's own metrics"
    # ... and one older than the run (an earlier check's) is replaced.
    touch -d '+1 second' "$dir/runtime"
    SERVICE_RESULT=exit-code EXIT_CODE=exited EXIT_STATUS=3 RUNTIME_DIRECTORY="$dir/runtime" \
      sh "$src/contrib/systemd/tscaudit-check-failed" "$metrics" || fail "tscaudit-check-failed failed"
    expect_value "$metrics" 'tscaudit_check_success{reason="exit_status_3"}' 0
    ;;

  *)
    fail "unknown case"
    ;;
esac
echo "ok: $case_name"
exit 0
