# check, matrix and report --from run directories, and files of tscsync

## a run file written by tscsync
# Files written by the tool under its former name (tscsync 0.1.0; data/former_name/README.md):
# read as the same formats, analyzed as they were then.
$ tscaudit analyze tests/data/former_name/run.csv
> tests/data/former_name/run.csv: not synchronized: offset of 304 ticks (132.2 ns): b's counter is
>   ahead of a's; the band [109, 499] ticks excludes 0; 591 negative one-way latencies, none beyond
>   the band (591 explained by any offset in it, 0 by some: not proof of early reads)
>   run       CPU 0 -> CPU 1, send simulated, recv simulated, 600 rounds
>   offset    304 ticks (132.2 ns), band [109, 499] ticks at the run's middle (hard: every round obeys
>             it)
>   drift     no detectable drift: |drift| < 1000000 ppb over 305500 ticks
>   margin    169 ticks (about the minimum one-way latency), quantum 26 (metadata), k = 1
>   stats     offset 303.19 +/- 13 (q/2; the blocks scatter 1.7) ticks (95 %, 16 time blocks;
>             statistical only: no asymmetry, no quantum); runs test 4 runs, z -2.36 (structured: a
>             step or a bend)
>   k-sweep   k=1: 304; k=2: 304; stable from k = 1; below that floor: 0 fwd, 0 rev rounds
>   fwd  0 negative: 0 offset_explained, 0 marginal, 0 causality_violation
>   rev  591 negative: 591 offset_explained, 0 marginal, 0 causality_violation
>   rtt < -2q 0 rounds (impossible for any offset)
>   backwards a 0 rounds (t4 < t1), b 0 rounds (t3 < t2): a counter ran backwards, impossible for any
>     offset
>   longest    3016 (round 16) 2756 (round 223) 1794 (round 132) 1768 (round 123) 1508 (round 221)
>              1248 (round 501) 1222 (round 196) 1118 (round 88) 1066 (round 366) 1066 (round 259)
>              ticks of rtt
>   ticks    min     p50     p75     p85     p95     p99   p99.9  p99.99 p99.999      max     mean
>   fwd      473     499     499     499     525     551    1305    1305    1305     1305   500.17
>   rev     -135    -109     -83     -83     -57     593    2517    2517    2517     2517  -85.167
>   rtt      338     390     416     416     442    1222    3016    3016    3016     3016      415
>   beyond          300     150      90      30       6*      0*      0*      0* rtt samples beyond
>
[1]

## a run directory written by tscsync
$ tscaudit matrix --from tests/data/former_name/rundir
> synchronized to within ±131 ns (301 ticks): all 2 ordered pairs of 2 CPUs have offset bands that
>   contain 0, no detectable drift
>
> send simulated, recv simulated, quantum 1 tick, TSC 2300 MHz
>
> Per-CPU offset x (ticks, relative to CPU 0; least squares over all pairs, hard bounds from the pair
>   bands)
>    cpu    estimate          lo          hi
>      0           0           0           0
>      1           0        -301         301
>
> Pairs (a initiates, b responds; offset = TSC_b - TSC_a)
>   pair        offset  band lo  band hi drift ppb  rtt min  rtt p50 violations self-inc.
>   0->1             0     -301      301         0      600      643          0         0
>   1->0             0     -301      301         0      601      642          0         0
>
> Consistency: bands consistent, rms residual 0 ticks, largest antisymmetry |θ_ab + θ_ba| 0 ticks
> No pair disagrees with the rest.
2> tscaudit matrix: rebuilt from tests/data/former_name/rundir

## check of a run directory written by tscsync
$ tscaudit check --from tests/data/former_name/rundir
> synchronized to within ±131 ns (301 ticks): all 2 ordered pairs of 2 CPUs have offset bands that
>   contain 0, no detectable drift
2> tscaudit check: rebuilt from tests/data/former_name/rundir

## an interval log written by tscsync
$ tscaudit analyze tests/data/former_name/monitor.log
> tests/data/former_name/monitor.log: synchronized within the band: the offset lies in [-118, 116.8]
>   ticks, which contains 0
>   log       monitor, CPU 0 -> CPU 1, send rdtsc, recv lfence_rdtsc, 4 intervals, 265684 rounds over
>             1 s
>   status    complete
>   offset    -1 tick (-0.4 ns), band [-118, 116.8] ticks at the run's middle (hard: every round obeys
>             it)
>   drift     no detectable drift: |drift| < 172 ppb over 2596000000 ticks
>   margin    91 ticks (about the minimum one-way latency), quantum 26 (metadata), k = 1
>   k-sweep   k=1: -1 (1 piece); k=4: 12 (1 piece); k=16: -0.5 (1 piece); stable from k = 1
>   against   0 intervals contradict the whole-run line
>   early     at least 0 fwd and 0 rev one-way latencies below every offset the band allows (from the
>             k-th statistics kept)
>   totals    265684 rounds, 0 lost (queue full), 0 late, 0 fwd and 0 rev negative, 0 with rtt < -2q,
>             86/67 context switches a/b, longest pause 0 ms (nothing ran), 0 empty intervals
>   rtt       234 to 83313178 ticks over the run
>   worst
>             rtt max: 83313178 ticks (interval 2), 83098574 ticks (interval 3), 83004012 ticks
>               (interval 0), 53904447 ticks (interval 1)
>             rtt p99.9: 6555 ticks (interval 0), 1066 ticks (interval 3), 910 ticks (interval 2), 728
>               ticks (interval 1)
>             negatives: none
>             rtt < -2q: none
>             lost: none
>             pause: none
>   memory    peak RSS first 21048 KiB (interval 0, 0.25 s), last 21048 KiB (interval 3, 1 s); max
>             21048 KiB
>

## --from: a manifest of another schema
# Bad run directories: exit 2, the file (and the line and column where there is one) named.
$ tscaudit matrix --from tests/data/rundirs/foreign
2> tscaudit: error: tests/data/rundirs/foreign/manifest.json:2:3: schema 'tscaudit-monitor/1' is not a tscaudit run directory's (expected 'tscaudit-rundir/1')
[2]

## --from: a manifest that is not JSON
$ tscaudit check --from tests/data/rundirs/not_json
2> tscaudit: error: tests/data/rundirs/not_json/manifest.json:4:1: not JSON: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal
[2]

## --from: a newer run directory
$ tscaudit matrix --from tests/data/rundirs/newer
2> tscaudit: error: tests/data/rundirs/newer/manifest.json:2:3: schema 'tscaudit-rundir/2' is newer than this version of tscaudit reads (tscaudit-rundir/1): read it with a newer tscaudit
[2]

## --from: a rounds file that is not zstd, nothing else to read
# Nothing else to read: no pair has rounds, nothing is proven; the loss is named.
$ tscaudit matrix --from tests/data/rundirs/not_zstd
> inconclusive: 2 ordered pairs of 2 have no rounds (0->1, 1->0): lost from the run directory
>   (evidence lost: rounds/cpu-0.zst at byte 0 (frame 0, 26 bytes): pair 0 -> ?: not a zstd file (no
>   zstd magic number))
>
> send rdtsc, recv lfence_rdtsc, quantum 1 tick, TSC 2596.142 MHz
>
> Per-CPU offset x (ticks, relative to CPU 0; least squares over all pairs, hard bounds from the pair
>   bands)
>    cpu    estimate          lo          hi
>      0           0           0           0
>      1           -           -           -
>
> Pairs (a initiates, b responds; offset = TSC_b - TSC_a)
>   pair        offset  band lo  band hi drift ppb  rtt min  rtt p50 violations self-inc.
>   0->1        not measured
>   1->0        not measured
>
> Consistency: bands consistent, rms residual - ticks, largest antisymmetry |θ_ab + θ_ba| - ticks
> No pair disagrees with the rest.
2> tscaudit matrix: rebuilt from tests/data/rundirs/not_zstd
2>   not complete: 2 ordered pairs have no round and are left unmeasured: 0->1, 1->0
2>   evidence lost: rounds/cpu-0.zst at byte 0 (frame 0, 26 bytes): pair 0 -> ?: not a zstd file (no
2>     zstd magic number)
[5]

## --from: a plan whose CPU is not a whole number
$ tscaudit check --from tests/data/rundirs/plan_cpu_not_whole
2> tscaudit: error: tests/data/rundirs/plan_cpu_not_whole/manifest.json: plan.spec is not a plan this version wrote: 1.8e+19 is not a whole number from 0 to 2147483647
[2]

## --from: a run file of another schema
$ tscaudit matrix --from tests/data/rundirs/other_schema
2> tscaudit: error: tests/data/rundirs/other_schema/pair_0_1.csv:1:11: unknown schema 'tscaudit-monitor/1' (this version reads tscaudit-run/1)
[2]

## --from: a run file that names no pair
$ tscaudit matrix --from tests/data/rundirs/no_pair
2> tscaudit: error: tests/data/rundirs/no_pair/pair_0_1.csv: names no pair: a run directory without a manifest needs '# a: CPU' and '# b: CPU' lines (or a and b columns) in each file
[2]

## --from: a run file whose CPUs disagree with its name
$ tscaudit matrix --from tests/data/rundirs/disagree
2> tscaudit: error: tests/data/rundirs/disagree/pair_0_1.csv:2:6: a 2 disagrees with the file name, which names pair 0 -> 1
[2]

## --from: a pair cut short is analyzed and flagged
$ tscaudit matrix --from tests/data/rundirs/cut_short
> incomplete, no verdict: the run of pair 0->1 (no '# status:' line after the rounds: the file was cut
>   short (in line 8, which is left out)) is not complete; what was measured already shows that CPU 1
>   is ahead of the rest (CPU 0) by 48 to 52 ticks
>
> send ?, recv ?, quantum 2 ticks
>
> Per-CPU offset x (ticks, relative to CPU 0; least squares over all pairs, hard bounds from the pair
>   bands)
>    cpu    estimate          lo          hi
>      0           0           0           0
>      1          50          48          52
>
> Pairs (a initiates, b responds; offset = TSC_b - TSC_a)
>   pair        offset  band lo  band hi drift ppb  rtt min  rtt p50 violations self-inc.
>   0->1            50       48       52         0      110      110          0         0
>   1->0           -50      -52      -48         0      110      110          0         0
>
> Consistency: bands consistent, rms residual 0 ticks, largest antisymmetry |θ_ab + θ_ba| 110 ticks
> No pair disagrees with the rest.
2> tscaudit matrix: rebuilt from tests/data/rundirs/cut_short
2>   not complete: 1 of 2 pairs' runs are not complete, analyzed as they are: 0->1 (no '# status:' line
2>     after the rounds: the file was cut short (in line 8, which is left out))
[3]

## --from: no such directory
$ tscaudit matrix --from /nonexistent-tscaudit
2> tscaudit: error: --from /nonexistent-tscaudit: no such directory
[2]

## --from: a regular file
$ tscaudit report --from tests/data/runs/crlf_import.csv
2> tscaudit: error: --from tests/data/runs/crlf_import.csv: not a directory (a run directory, a report, or the --out of matrix or check)
[2]

## --from: an empty directory
$ mkdir empty_dir
$ tscaudit check --from empty_dir
2> tscaudit: error: empty_dir: holds no run (a run directory has manifest.json; the --out of matrix or check, run/; a report, matrix/run/; a directory of run files, files with '# a:' and '# b:' lines)
[2]

## --from with a measuring option
$ tscaudit matrix --from tests/data/rundirs/cut_short --cpus 0,1
2> tscaudit: error: --cpus shapes a measurement; --from measures nothing
2> see 'tscaudit matrix --help'
[2]
