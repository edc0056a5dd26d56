# outputs that cannot be written: full devices, missing parents, paths under a file
# As root, permissions stop nothing: these are the faults that remain. Directory outputs
# (matrix, check, variants, report) create missing parents, like mkdir -p. The faults of
# measure and info on a full standard output are in measure_live.t (they measure first).

## simulate: a machine into a regular file
$ touch plain
$ tscaudit simulate --topology 'synthetic:package:2 core:2 pu:2' --out plain
2> tscaudit: error: cannot write plain: it exists and is not a directory
[3]

## measure: output under a regular file
$ tscaudit measure --cpus 0,0 --rounds 10 --out plain/x.csv
2> tscaudit: error: cannot create plain/x.csv: Not a directory
[3]

## analyze: output device full
$ tscaudit analyze --out /dev/full tests/data/variants/rdtsc_rdtsc_0_1.csv
2> tscaudit: error: cannot write /dev/full: No space left on device
[3]

## analyze: output under a regular file
$ tscaudit analyze --out plain/a.txt tests/data/variants/rdtsc_rdtsc_0_1.csv
2> tscaudit: error: cannot create plain/a.txt: Not a directory
[3]

## analyze: standard output full
$ tscaudit analyze tests/data/variants/rdtsc_rdtsc_0_1.csv > /dev/full
2> tscaudit: error: cannot write standard output: No space left on device
[3]

## simulate: rounds on a full device
$ tscaudit simulate --rounds 1000 --out /dev/full --truth t.json
2> tscaudit: error: cannot write /dev/full: No space left on device
[3]

## simulate: truth on a full device
$ tscaudit simulate --rounds 1000 --out s.csv --truth /dev/full
2> tscaudit: error: cannot write /dev/full: No space left on device
[3]

## simulate: rounds in a missing directory
$ tscaudit simulate --rounds 1000 --out missing/s.csv --truth t.json
2> tscaudit: error: cannot create missing/s.csv: No such file or directory
[3]

## simulate: truth under a regular file
$ tscaudit simulate --rounds 1000 --out s.csv --truth plain/t.json
2> tscaudit: error: cannot create plain/t.json: Not a directory
[3]

## simulate: truth on a full standard output
$ tscaudit simulate --rounds 1000 --out s.csv --truth - > /dev/full
2> tscaudit: error: cannot write standard output: No space left on device
[3]

## matrix: plan on a full standard output
$ tscaudit matrix --dry-run > /dev/full
2> tscaudit: error: cannot write standard output: No space left on device
[3]

## matrix: output directory is a device
$ tscaudit matrix --rounds 1000 --visits 1 --out /dev/full
2> tscaudit: error: cannot write /dev/full: it exists and is not a directory
[3]

## matrix: output directory under a regular file
$ tscaudit matrix --rounds 1000 --visits 1 --out plain/m
2> tscaudit: error: cannot write plain/m: Not a directory
[3]

## check: output directory under a regular file
$ tscaudit check --rounds 1000 --visits 1 --out plain/c
2> tscaudit: error: cannot write plain/c: Not a directory
[3]

## variants: output directory under a regular file
$ tscaudit variants --rounds 8 --out plain/v
2> tscaudit: error: cannot write plain/v: Not a directory
[3]

## report: output directory is a device
$ tscaudit report --rounds 1000 --out /dev/full
2> tscaudit report: measuring {TEXT}
2> ...
2> tscaudit: error: cannot write /dev/full: it exists and is not a directory
[3]

## report: output directory under a regular file
$ tscaudit report --rounds 1000 --out plain/r
2> tscaudit report: measuring {TEXT}
2> ...
2> tscaudit: error: cannot write plain/r: Not a directory
[3]
