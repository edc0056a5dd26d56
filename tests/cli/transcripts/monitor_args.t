# monitor: arguments refused before it measures

## monitor: same CPU twice
$ tscaudit monitor --cpus 0,0 --out m.log
2> tscaudit: error: --cpus 0,0: monitor needs two different CPUs (its threads spin)
2> see 'tscaudit monitor --help'
[2]

## monitor: zero interval
$ tscaudit monitor --cpus 0,1 --interval 0 --out m.log
2> tscaudit: error: --interval '0' is not a duration > 0 (seconds, or a number with ms, s, m or h: 500ms, 90s, 2m, 1h)
2> see 'tscaudit monitor --help'
[2]

## monitor: interval too short
$ tscaudit monitor --cpus 0,1 --interval 0.001 --out m.log
2> tscaudit: error: --interval 0.001 must be between 0.01 s and 1 day
2> see 'tscaudit monitor --help'
[2]

## monitor: duration shorter than an interval
$ tscaudit monitor --cpus 0,1 --interval 2 --duration 1s --out m.log
2> tscaudit: error: --duration 1s is shorter than one interval (--interval 2)
2> see 'tscaudit monitor --help'
[2]

## monitor: duration not a number
$ tscaudit monitor --cpus 0,1 --duration soon --out m.log
2> tscaudit: error: --duration 'soon' is not a duration > 0 (seconds, or a number with ms, s, m or h: 500ms, 90s, 2m, 1h)
2> see 'tscaudit monitor --help'
[2]

## monitor: queue too small
$ tscaudit monitor --cpus 0,1 --queue-rounds 1 --out m.log
2> tscaudit: error: --queue-rounds 1 is out of range [16, 16777216]
2> see 'tscaudit monitor --help'
[2]

## monitor: three CPUs
$ tscaudit monitor --cpus 0-2 --out m.log
2> tscaudit: error: --cpus '0-2' names 3 CPUs; monitor takes exactly two, A,B (A initiates)
2> see 'tscaudit monitor --help'
[2]

## monitor: a histogram without metrics
$ tscaudit monitor --cpus 0,1 --out m.log --openmetrics-histogram
2> tscaudit: error: --openmetrics-histogram needs --openmetrics FILE
2> see 'tscaudit monitor --help'
[2]

## monitor: metrics to standard output
$ tscaudit monitor --cpus 0,1 --out m.log --openmetrics -
2> tscaudit: error: --openmetrics '-' must name a file (it is rewritten after every interval)
2> see 'tscaudit monitor --help'
[2]

## monitor: metrics into the interval log
$ tscaudit monitor --cpus 0,1 --out m.log --openmetrics m.log
2> tscaudit: error: --openmetrics m.log is the interval log's --out too
2> see 'tscaudit monitor --help'
[2]
