# metrics for Prometheus: values and outputs refused

## check: bad format
# Bad values exit 2 naming the option; outputs that cannot be written exit 3 (a live check
# opens its metrics file before it measures). The metrics themselves, against promtool and
# node_exporter, are in tests/fleet.
$ tscaudit check --format xml
2> tscaudit: error: --format 'xml' is not text, json or openmetrics
2> see 'tscaudit check --help'
[2]

## check: metrics to standard output through --openmetrics
$ tscaudit check --openmetrics -
2> tscaudit: error: --openmetrics '-' must name a file (--format openmetrics writes them to standard output)
2> see 'tscaudit check --help'
[2]

## check: --export-cpus not a number
$ tscaudit check --format openmetrics --export-cpus many
2> tscaudit: error: --export-cpus 'many' is not an unsigned decimal number (expected one in [0, 8192])
2> see 'tscaudit check --help'
[2]

## check: --export-cpus out of range
$ tscaudit check --format openmetrics --export-cpus 9000
2> tscaudit: error: --export-cpus 9000 is out of range [0, 8192]
2> see 'tscaudit check --help'
[2]

## check: --export-pairs without metrics
$ tscaudit check --export-pairs
2> tscaudit: error: --export-pairs shapes the metrics: give --format openmetrics or --openmetrics FILE
2> see 'tscaudit check --help'
[2]

## check: --export-cpus without metrics
$ tscaudit check --export-cpus 4
2> tscaudit: error: --export-cpus shapes the metrics: give --format openmetrics or --openmetrics FILE
2> see 'tscaudit check --help'
[2]

## check: metrics of a dry run
$ tscaudit check --dry-run --format openmetrics
2> tscaudit: error: --dry-run measures nothing: there are no metrics to write
2> see 'tscaudit check --help'
[2]

## check: metrics on a full device
$ tscaudit check --from tests/data/rundirs/cut_short --openmetrics /dev/full
2> tscaudit check: rebuilt from tests/data/rundirs/cut_short
2> tscaudit check: the TSC frequency is unknown: the metrics in seconds (offsets, bounds, spread,
2>   quantum) are left out
2> tscaudit: error: cannot write /dev/full: No space left on device
[3]

## check: metrics in a missing directory, before measuring
$ tscaudit check --openmetrics missing/t.prom
2> tscaudit: error: cannot create missing/t.prom: No such file or directory
[3]

## check: metrics under a regular file
$ touch plain
$ tscaudit check --from tests/data/rundirs/cut_short --openmetrics plain/t.prom
2> tscaudit: error: cannot create plain/t.prom: Not a directory
[3]

## check: metrics on a full standard output
$ tscaudit check --from tests/data/rundirs/cut_short --format openmetrics > /dev/full
2> tscaudit check: rebuilt from tests/data/rundirs/cut_short
2> tscaudit check: the TSC frequency is unknown: the metrics in seconds (offsets, bounds, spread,
2>   quantum) are left out
2> tscaudit check: incomplete, no verdict: the run of pair 0->1 (no '# status:' line after the rounds:
2>   the file was cut short (in line 8, which is left out)) is not complete; what was measured already
2>   shows that CPU 1 is ahead of the rest (CPU 0) by 48 to 52 ticks
2> tscaudit check: not complete: 1 of 2 pairs' runs are not complete, analyzed as they are: 0->1 (no '#
2>   status:' line after the rounds: the file was cut short (in line 8, which is left out))
2> tscaudit: error: cannot write standard output: No space left on device
[3]
