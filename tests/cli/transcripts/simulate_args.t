# simulate: its arguments, checked before it writes

## simulate: parameter out of range
$ tscaudit simulate --fwd-tail-fraction 1.5 --out s.csv --truth t.json
2> tscaudit: error: simulate: fwd.tail_fraction = 1.5: must be in [0, 1]
2> see 'tscaudit simulate --help'
[2]

## simulate: not a number
$ tscaudit simulate --drift-ppb fast --out s.csv --truth t.json
2> tscaudit: error: --drift-ppb 'fast' is not a finite decimal number
2> see 'tscaudit simulate --help'
[2]

## simulate: both outputs on stdout
$ tscaudit simulate --out -
2> tscaudit: error: --out - and --truth - would both write to standard output; give one of them a file
2> see 'tscaudit simulate --help'
[2]

## simulate: a CPU the topology lacks
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out machine_x --cpu-offset-ticks 99=400
2> tscaudit: error: simulate: --cpu-offset-ticks: CPU 99 is not in the machine (CPUs 0-7)
2> see 'tscaudit simulate --help'
[2]

## simulate: a package the topology lacks
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out machine_x --package-offset-ticks 2=150
2> tscaudit: error: simulate: --package-offset-ticks: package 2 is not in the machine (packages 0, 1)
2> see 'tscaudit simulate --help'
[2]

## simulate: a step on a CPU the topology lacks
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out machine_x --step 8=100
2> tscaudit: error: simulate: --step: CPU 8 is not in the machine (CPUs 0-7)
2> see 'tscaudit simulate --help'
[2]

## simulate: CPU=TICKS malformed
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out machine_x --cpu-offset-ticks 3:400
2> tscaudit: error: --cpu-offset-ticks '3:400' is not CPU=TICKS
2> see 'tscaudit simulate --help'
[2]

## simulate: CPU not a number
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out machine_x --cpu-drift-ppb x=5
2> tscaudit: error: --cpu-drift-ppb CPU 'x' is not an unsigned decimal number (expected one in [0, 8191])
2> see 'tscaudit simulate --help'
[2]

## simulate: value not a number
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out machine_x --cpu-drift-ppb 3=fast
2> tscaudit: error: --cpu-drift-ppb (CPU 3) 'fast' is not a finite decimal number
2> see 'tscaudit simulate --help'
[2]

## simulate: a CPU given twice
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out machine_x --cpu-offset-ticks 3=1 --cpu-offset-ticks 3=2
2> tscaudit: error: --cpu-offset-ticks gives CPU 3 twice
2> see 'tscaudit simulate --help'
[2]

## simulate: early reads malformed
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out machine_x --early-reads 5=0.1:50
2> tscaudit: error: --early-reads '5=0.1:50' is not CPU=RATE or CPU=RATE:MIN_TICKS:MAX_TICKS
2> see 'tscaudit simulate --help'
[2]

## simulate: early-read rate out of range
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out machine_x --early-reads 5=2
2> tscaudit: error: simulate: --early-reads: CPU 5: rate 2 must be in [0, 1]
2> see 'tscaudit simulate --help'
[2]

## simulate: per-CPU values need a topology
$ tscaudit simulate --out s.csv --truth t.json --cpu-offset-ticks 3=400
2> tscaudit: error: --cpu-offset-ticks describes a CPU of a machine: give --topology
2> see 'tscaudit simulate --help'
[2]

## simulate: one-pair values refused for a machine
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out machine_x --offset-ticks 100
2> tscaudit: error: --offset-ticks describes one pair: with --topology give --cpu-offset-ticks, --package-offset-ticks, --cpu-drift-ppb, --early-reads or --step
2> see 'tscaudit simulate --help'
[2]

## simulate: --truth refused for a machine
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out machine_x --truth t.json
2> tscaudit: error: --truth is for one pair: with --topology the truth goes into --out DIR/truth.json
2> see 'tscaudit simulate --help'
[2]

## simulate: a machine to standard output
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out -
2> tscaudit: error: with --topology, --out names a directory, not standard output
2> see 'tscaudit simulate --help'
[2]

## simulate: --all-pairs needs a topology
$ tscaudit simulate --all-pairs --out s.csv --truth t.json
2> tscaudit: error: --all-pairs plans the pairs of a machine: give --topology
2> see 'tscaudit simulate --help'
[2]

## simulate: a machine that fails halfway leaves no directory
# The run directory is made before CPU 3's first visit fails: nothing of it stays behind.
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --rounds 100 --cpu-offset-ticks 3=-2e12 --out machine_failed
2> tscaudit: error: simulate: b's counter would read -1000000000000, outside [0, 2^63): raise start_tick or reduce |offset_ticks|, |step_ticks| or |drift_ppb|
2> see 'tscaudit simulate --help'
[2]
$ ls machine_failed
2> ls: cannot access 'machine_failed': No such file or directory
[2]

## simulate: a machine without quantum metadata
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out machine_x --no-quantum-metadata
2> tscaudit: error: --no-quantum-metadata is for one pair: a run directory records the quantum of every visit
2> see 'tscaudit simulate --help'
[2]

## simulate: a topology hwloc rejects
$ tscaudit simulate --topology synthetic:pu:x --out machine_x
2> tscaudit: error: --topology: hwloc rejects the synthetic topology 'pu:x'
2> see 'tscaudit simulate --help'
[2]

## simulate: a topology file that is missing
$ tscaudit simulate --topology no_such.xml --out machine_x
2> tscaudit: error: --topology: cannot read topology file no_such.xml: No such file or directory
2> see 'tscaudit simulate --help'
[2]

## simulate: negative skew
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:1' --cross-package-skew-ticks=-5 --out skew
2> tscaudit: error: --cross-package-skew-ticks -5 must be >= 0
2> see 'tscaudit simulate --help'
[2]

## simulate: skew without a machine
$ tscaudit simulate --cross-package-skew-ticks 5 --out -
2> tscaudit: error: --cross-package-skew-ticks describes a CPU of a machine: give --topology
2> see 'tscaudit simulate --help'
[2]
