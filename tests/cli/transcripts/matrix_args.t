# matrix, check, report and variants: arguments refused

## matrix: one CPU
# One CPU has no pair: the answer is inconclusive (exit 5), as check's and the library's; the
# warnings on standard error are this machine's.
$ tscaudit matrix --cpus 0
> inconclusive: one CPU only (CPU 0): there is no other counter to compare with
2> ...
[5]

## matrix: topology without --dry-run
$ tscaudit matrix --topology 'synthetic:package:2 core:4 pu:2'
2> tscaudit: error: --topology describes another machine: it can only be planned (add --dry-run)
2> see 'tscaudit matrix --help'
[2]

## matrix: missing topology file
$ tscaudit matrix --dry-run --topology none.xml
2> tscaudit: error: --topology: cannot read topology file none.xml: No such file or directory
2> see 'tscaudit matrix --help'
[2]

## matrix: topology file that is a directory
$ tscaudit matrix --dry-run --topology .
2> tscaudit: error: --topology: cannot read topology file .: it is a directory
2> see 'tscaudit matrix --help'
[2]

## matrix: empty topology file
$ tscaudit matrix --dry-run --topology tests/data/runs/empty.csv
2> tscaudit: error: --topology: topology file tests/data/runs/empty.csv is not an hwloc XML topology (hwloc: Invalid argument)
2> see 'tscaudit matrix --help'
[2]

## matrix: garbage topology file
$ tscaudit matrix --dry-run --topology tests/data/topology/garbage.xml
2> tscaudit: error: --topology: topology file tests/data/topology/garbage.xml is not an hwloc XML topology (hwloc: Invalid argument)
2> see 'tscaudit matrix --help'
[2]

## matrix: bad synthetic topology
$ tscaudit matrix --dry-run --topology synthetic:bogus:3
2> tscaudit: error: --topology: hwloc rejects the synthetic topology 'bogus:3'
2> see 'tscaudit matrix --help'
[2]

## matrix: CPU not in the topology
$ tscaudit matrix --dry-run --topology 'synthetic:package:2 core:4 pu:2' --cpus 0,300
2> tscaudit: error: CPU 300 is not in the topology (it has CPUs 0-15)
2> see 'tscaudit matrix --help'
[2]

## matrix: rounds and budget
$ tscaudit matrix --rounds 10 --budget 5
2> tscaudit: error: give --rounds or --budget, not both
2> see 'tscaudit matrix --help'
[2]

## matrix: zero visits
$ tscaudit matrix --visits 0
2> tscaudit: error: --visits 0 is out of range [1, 1000]
2> see 'tscaudit matrix --help'
[2]

## matrix: negative budget
$ tscaudit matrix --budget=-1
2> tscaudit: error: --budget '-1' is not a duration > 0 (seconds, or a number with ms, s, m or h: 500ms, 90s, 2m, 1h)
2> see 'tscaudit matrix --help'
[2]

## matrix: save runs without a directory
$ tscaudit matrix --save-runs
2> tscaudit: error: --save-runs needs --out DIR
2> see 'tscaudit matrix --help'
[2]

## matrix: output directory cannot be made
$ tscaudit matrix --rounds 1000 --visits 1 --out /proc/tscaudit
2> tscaudit: error: cannot write /proc/tscaudit: cannot create it: No such file or directory
[3]

## check: bad tolerance
$ tscaudit check --tolerance 5h
2> tscaudit: error: --tolerance '5h' is not a number >= 0 of ticks or a time (e.g. 40, 40ticks, 15ns, 1.5us, 2ms, 1s)
2> see 'tscaudit check --help'
[2]

## check: negative drift tolerance
$ tscaudit check --drift-tolerance-ppb=-3
2> tscaudit: error: --drift-tolerance-ppb -3 must be >= 0
2> see 'tscaudit check --help'
[2]

## check: bad max bound
$ tscaudit check --max-bound 50ms-
2> tscaudit: error: --max-bound '50ms-' is not a number >= 0 of ticks or a time (e.g. 40, 40ticks, 15ns, 1.5us, 2ms, 1s)
2> see 'tscaudit check --help'
[2]

## check: parallel and sequential
$ tscaudit check --dry-run --parallel --sequential
2> tscaudit: error: give --parallel or --sequential, not both
2> see 'tscaudit check --help'
[2]

## report: topology without --dry-run
$ tscaudit report --topology 'synthetic:package:2 core:4 pu:2'
2> tscaudit: error: --topology describes another machine: it can only be planned (add --dry-run)
2> see 'tscaudit report --help'
[2]

## variants: one CPU twice
$ tscaudit variants --cpus 0,0
2> tscaudit: error: --cpus '0,0' names one CPU twice; variants takes two different CPUs (the same-CPU control is part of the run)
2> see 'tscaudit variants --help'
[2]

## variants: three CPUs
$ tscaudit variants --cpus 0,1,2
2> tscaudit: error: --cpus '0,1,2' names 3 CPUs; variants takes exactly two, A,B
2> see 'tscaudit variants --help'
[2]

## variants: CPU that does not exist
$ tscaudit variants --cpus 0,4000
2> tscaudit: error: CPU 4000 does not exist (this machine has CPUs {CPUS})
2> see 'tscaudit variants --help'
[2]

## variants: too few rounds for the passes
$ tscaudit variants --cpus 0,1 --rounds 7
2> tscaudit: error: --rounds 7 is too few for 4 passes in both roles: give at least 8
2> see 'tscaudit variants --help'
[2]

## variants: zero passes
$ tscaudit variants --passes 0
2> tscaudit: error: --passes 0 is out of range [1, 1000]
2> see 'tscaudit variants --help'
[2]

## variants: bad format
$ tscaudit variants --format csv
2> tscaudit: error: --format 'csv' is not text or json
2> see 'tscaudit variants --help'
[2]

## variants: output directory cannot be made
$ tscaudit variants --rounds 8 --out /proc/tscaudit
2> tscaudit: error: cannot write /proc/tscaudit: cannot create it: No such file or directory
[3]

## report: bad variants rounds
$ tscaudit report --variants-rounds 3
2> tscaudit: error: --variants-rounds 3 is out of range [8, 20000000]
2> see 'tscaudit report --help'
[2]
