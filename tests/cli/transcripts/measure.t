# measure: its arguments and outputs

## CPU that does not exist
$ tscaudit measure --cpus 0,4000 --rounds 10 --out x.csv
2> tscaudit: error: CPU 4000 does not exist (this machine has CPUs {CPUS})
2> see 'tscaudit measure --help'
[2]

## one CPU instead of two
$ tscaudit measure --cpus 0 --out x.csv
2> tscaudit: error: --cpus '0' names 1 CPU; measure takes exactly two, A,B (A initiates)
2> see 'tscaudit measure --help'
[2]

## malformed CPU list
$ tscaudit measure --cpus 0,x --out x.csv
2> tscaudit: error: --cpus: bad CPU list '0,x' at character 3: expected a CPU number
2> see 'tscaudit measure --help'
[2]

## unknown variant
$ tscaudit measure --cpus 0,1 --send rdtscq --out x.csv
2> tscaudit: error: unknown variant 'rdtscq' for --send (choose from rdtsc, rdtsc_lfence, lfence_rdtsc, lfence_rdtsc_lfence, rdtscp, rdtscp_lfence, mfence_rdtsc, cpuid_rdtsc)
2> see 'tscaudit measure --help'
[2]

## variant and send together
$ tscaudit measure --cpus 0,1 --variant rdtsc --recv rdtscp --out x.csv
2> tscaudit: error: give --variant (both sides) or --send/--recv, not both
2> see 'tscaudit measure --help'
[2]

## zero rounds
$ tscaudit measure --cpus 0,1 --rounds 0 --out x.csv
2> tscaudit: error: --rounds 0 is out of range [1, 20000000]
2> see 'tscaudit measure --help'
[2]

## negative rounds
$ tscaudit measure --cpus 0,1 --rounds=-3 --out x.csv
2> tscaudit: error: --rounds '-3' is not an unsigned decimal number (expected one in [1, 20000000])
2> see 'tscaudit measure --help'
[2]

## rounds beyond 64 bits
$ tscaudit measure --cpus 0,1 --rounds 123456789012345678901234 --out x.csv
2> tscaudit: error: --rounds 123456789012345678901234 is out of range [1, 20000000]
2> see 'tscaudit measure --help'
[2]

## unknown transport
$ tscaudit measure --cpus 0,1 --transport shm --out x.csv
2> tscaudit: error: unknown transport 'shm' (choose slot or queue)
2> see 'tscaudit measure --help'
[2]

## missing --out
$ tscaudit measure --cpus 0,1
2> tscaudit: error: measure needs --out FILE
2> see 'tscaudit measure --help'
[2]

## output in a missing directory
$ tscaudit measure --cpus 0,0 --rounds 10 --out missing/x.csv
2> tscaudit: error: cannot create missing/x.csv: No such file or directory
[3]

## output is a directory
$ tscaudit measure --cpus 0,0 --rounds 10 --out .
2> tscaudit: error: cannot write .: it is a directory
[3]
