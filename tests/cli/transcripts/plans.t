# the plans of matrix, check and report (--dry-run), and their budgets

## matrix plan of a synthetic 256-CPU machine
$ tscaudit matrix --dry-run --parallel --format json --topology 'synthetic:package:2 core:64 pu:2'
> {
>   "schema": "tscaudit-plan/1",
>   "cpus": [
>     0,
>     1,
> ...
>     255
>   ],
>   "cpu_list": "0-255",
>   "parallel": true,
>   "design": "all_pairs",
>   "design_reason": "matrix measures every ordered pair unless --budget is given",
>   "unordered_pairs": 32640,
>   "ordered_pairs": 65280,
>   "visits_per_pair": 4,
>   "rounds_per_visit": 500,
>   "warmup_per_visit": 2000,
>   "pair_visits": 261120,
>   "total_rounds": 130560000,
>   "slots": 2040,
>   "slots_per_sweep": 510,
>   "pairs_at_once": 128,
>   "estimated_seconds": 18.869999999999997,
>   "budget_seconds": null,
>   "memory_bytes": 5232640000,
>   "memory_bytes_streaming": 51280000,
>   "costs": {
>     "rounds_per_second": 2000000.0,
>     "seconds_per_visit": 0.008
>   },
>   "first_slots": [
>     [
>       {
>         "a": 0,
>         "b": 255,
>         "visit": 0
>       },
> ...
>   ]
> }

## check plan of 64 CPUs fits the budget
# The default plan of check and report fits 90 s of measuring and 1 GB streamed at 64, 256,
# 768 and 1024 CPUs (docs/performance.md, "The default plan"): all pairs at 64, sparse above;
# a third of the budget for each of the report's two matrices and its read variants.
$ tscaudit check --dry-run --topology 'synthetic:package:2 core:16 pu:2'
> cpus              0-63 (64 CPUs in topology order: 2 packages)
> design            all pairs: every one of the 4032 ordered pairs gets at least 2000 rounds within
>                   the 90 s budget and 40 M rounds in all
> pairs             2016 unordered, 4032 ordered (each pair in both roles)
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  2480 measured + 2000 warm-up
> total rounds      39997440 measured
> slots             504 (126 per sweep), 32 pairs at once
> estimated time    5.2 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            1 min 30 s: the estimate fits
> memory, streamed  10.5 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 64x64 cells)
> parallel          32 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions

## report plan of 64 CPUs fits the budget
$ tscaudit report --dry-run --topology 'synthetic:package:2 core:16 pu:2'
> cpus              0-63 (64 CPUs in topology order: 2 packages)
> design            all pairs: every one of the 4032 ordered pairs gets at least 2000 rounds within
>                   the 30 s budget and 40 M rounds in all
> pairs             2016 unordered, 4032 ordered (each pair in both roles)
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  2480 measured + 2000 warm-up
> total rounds      39997440 measured
> slots             504 (126 per sweep), 32 pairs at once
> estimated time    5.2 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            30 s: the estimate fits
> memory, streamed  10.5 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 64x64 cells)
> parallel          32 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions
> report            this plan twice (an ordering receive read, then plain rdtsc on both sides): 10 s
>                   of estimated measuring within a budget of 1 min 30 s
> report            then the read variants on one pair (tscaudit variants), within 30 s
> report            everything it measures ends within the budget of 1 min 30 s

## check plan of 256 CPUs fits the budget
$ tscaudit check --dry-run --topology 'synthetic:package:2 core:64 pu:2'
> cpus              0-255 (256 CPUs in topology order: 2 packages)
> design            sparse: all 65280 ordered pairs at 2000 rounds each would take 131 M rounds, more
>                   than the 40 M a plan aims at; these 8800 ordered pairs (every pair within each of
>                   16 local groups, partners in other groups and packages, random chords) link every
>                   CPU to the rest
> pairs             4400 unordered, 8800 ordered (each pair in both roles) of 65280 ordered pairs
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  1136 measured + 2000 warm-up
> total rounds      39987200 measured
> slots             374 (at most 98 per sweep), 128 pairs at once
> estimated time    3.6 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            1 min 30 s: the estimate fits
> memory, streamed  27.4 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 256x256 cells)
> parallel          128 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions

## report plan of 256 CPUs fits the budget
$ tscaudit report --dry-run --topology 'synthetic:package:2 core:64 pu:2'
> cpus              0-255 (256 CPUs in topology order: 2 packages)
> design            sparse: all 65280 ordered pairs at 2000 rounds each would take 131 M rounds, more
>                   than the 40 M a plan aims at; these 8800 ordered pairs (every pair within each of
>                   16 local groups, partners in other groups and packages, random chords) link every
>                   CPU to the rest
> pairs             4400 unordered, 8800 ordered (each pair in both roles) of 65280 ordered pairs
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  1136 measured + 2000 warm-up
> total rounds      39987200 measured
> slots             374 (at most 98 per sweep), 128 pairs at once
> estimated time    3.6 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            30 s: the estimate fits
> memory, streamed  27.4 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 256x256 cells)
> parallel          128 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions
> report            this plan twice (an ordering receive read, then plain rdtsc on both sides): 7.2 s
>                   of estimated measuring within a budget of 1 min 30 s
> report            then the read variants on one pair (tscaudit variants), within 30 s
> report            everything it measures ends within the budget of 1 min 30 s

## check plan of 768 CPUs fits the budget
$ tscaudit check --dry-run --topology 'synthetic:package:2 l3:12 core:16 pu:2'
> cpus              0-767 (768 CPUs in topology order: 2 packages, 24 L3 domains)
> design            sparse: all 589056 ordered pairs at 2000 rounds each would take 1.18 G rounds,
>                   more than the 40 M a plan aims at; these 27626 ordered pairs (every pair within
>                   each of 48 local groups, partners in other groups and packages, random chords)
>                   link every CPU to the rest
> pairs             13813 unordered, 27626 ordered (each pair in both roles) of 589056 ordered pairs
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  500 measured + 2000 warm-up
> total rounds      55252000 measured
> slots             412 (at most 112 per sweep), 384 pairs at once
> estimated time    3.8 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            1 min 30 s: the estimate fits
> memory, streamed  88.5 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 768x768 cells)
> parallel          384 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions

## report plan of 768 CPUs fits the budget
$ tscaudit report --dry-run --topology 'synthetic:package:2 l3:12 core:16 pu:2'
> cpus              0-767 (768 CPUs in topology order: 2 packages, 24 L3 domains)
> design            sparse: all 589056 ordered pairs at 2000 rounds each would take 1.18 G rounds,
>                   more than the 40 M a plan aims at; these 27626 ordered pairs (every pair within
>                   each of 48 local groups, partners in other groups and packages, random chords)
>                   link every CPU to the rest
> pairs             13813 unordered, 27626 ordered (each pair in both roles) of 589056 ordered pairs
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  500 measured + 2000 warm-up
> total rounds      55252000 measured
> slots             412 (at most 112 per sweep), 384 pairs at once
> estimated time    3.8 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            30 s: the estimate fits
> memory, streamed  88.5 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 768x768 cells)
> parallel          384 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions
> report            this plan twice (an ordering receive read, then plain rdtsc on both sides): 7.6 s
>                   of estimated measuring within a budget of 1 min 30 s
> report            then the read variants on one pair (tscaudit variants), within 30 s
> report            everything it measures ends within the budget of 1 min 30 s

## check plan of 1024 CPUs fits the budget
$ tscaudit check --dry-run --topology 'synthetic:package:2 core:256 pu:2'
> cpus              0-1023 (1024 CPUs in topology order: 2 packages)
> design            sparse: all 1047552 ordered pairs at 2000 rounds each would take 2.1 G rounds,
>                   more than the 40 M a plan aims at; these 36888 ordered pairs (every pair within
>                   each of 64 local groups, partners in other groups and packages, random chords)
>                   link every CPU to the rest
> pairs             18444 unordered, 36888 ordered (each pair in both roles) of 1047552 ordered pairs
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  500 measured + 2000 warm-up
> total rounds      73776000 measured
> slots             402 (at most 110 per sweep), 512 pairs at once
> estimated time    3.7 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            1 min 30 s: the estimate fits
> memory, streamed  133.7 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 1024x1024 cells)
> parallel          512 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions

## report plan of 1024 CPUs fits the budget
$ tscaudit report --dry-run --topology 'synthetic:package:2 core:256 pu:2'
> cpus              0-1023 (1024 CPUs in topology order: 2 packages)
> design            sparse: all 1047552 ordered pairs at 2000 rounds each would take 2.1 G rounds,
>                   more than the 40 M a plan aims at; these 36888 ordered pairs (every pair within
>                   each of 64 local groups, partners in other groups and packages, random chords)
>                   link every CPU to the rest
> pairs             18444 unordered, 36888 ordered (each pair in both roles) of 1047552 ordered pairs
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  500 measured + 2000 warm-up
> total rounds      73776000 measured
> slots             402 (at most 110 per sweep), 512 pairs at once
> estimated time    3.7 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            30 s: the estimate fits
> memory, streamed  133.7 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 1024x1024 cells)
> parallel          512 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions
> report            this plan twice (an ordering receive read, then plain rdtsc on both sides): 7.4 s
>                   of estimated measuring within a budget of 1 min 30 s
> report            then the read variants on one pair (tscaudit variants), within 30 s
> report            everything it measures ends within the budget of 1 min 30 s

## check plan as JSON names its design
$ tscaudit check --dry-run --format json --topology 'synthetic:package:2 core:64 pu:2'
> {
>   "schema": "tscaudit-plan/1",
>   "cpus": [
>     0,
>     1,
> ...
>     255
>   ],
>   "cpu_list": "0-255",
>   "parallel": true,
>   "design": "sparse",
>   "design_reason": "all 65280 ordered pairs at 2000 rounds each would take 131 M rounds, more than the 40 M a plan aims at; these 8800 ordered pairs (every pair within each of 16 local groups, partners in other groups and packages, random chords) link every CPU to the rest",
>   "unordered_pairs": 4400,
>   "ordered_pairs": 8800,
>   "visits_per_pair": 4,
>   "rounds_per_visit": 1136,
>   "warmup_per_visit": 2000,
>   "pair_visits": 35200,
>   "total_rounds": 39987200,
>   "slots": 374,
>   "slots_per_sweep": 98,
>   "pairs_at_once": 128,
>   "estimated_seconds": 3.578432,
>   "budget_seconds": 90.0,
>   "memory_bytes": 1612333056,
>   "memory_bytes_streaming": 27421696,
>   "costs": {
>     "rounds_per_second": 2000000.0,
>     "seconds_per_visit": 0.008
>   },
>   "first_slots": [
>     [
>       {
>         "a": 0,
>         "b": 1,
>         "visit": 0
>       },
> ...
>   ]
> }

## check --all-pairs plans every ordered pair
$ tscaudit check --dry-run --all-pairs --topology 'synthetic:package:2 core:64 pu:2'
> cpus              0-255 (256 CPUs in topology order: 2 packages)
> design            all pairs: the full matrix was asked for (--all-pairs)
> pairs             32640 unordered, 65280 ordered (each pair in both roles)
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  500 measured + 2000 warm-up
> total rounds      130560000 measured
> slots             2040 (510 per sweep), 128 pairs at once
> estimated time    19 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            1 min 30 s: the estimate fits
> memory, streamed  51.3 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 256x256 cells)
> parallel          128 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions

## matrix --budget chooses the design too
$ tscaudit matrix --dry-run --parallel --budget 60 --topology 'synthetic:package:2 core:64 pu:2'
> cpus              0-255 (256 CPUs in topology order: 2 packages)
> design            sparse: all 65280 ordered pairs at 2000 rounds each would take 131 M rounds, more
>                   than the 40 M a plan aims at; these 8800 ordered pairs (every pair within each of
>                   16 local groups, partners in other groups and packages, random chords) link every
>                   CPU to the rest
> pairs             4400 unordered, 8800 ordered (each pair in both roles) of 65280 ordered pairs
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  1136 measured + 2000 warm-up
> total rounds      39987200 measured
> slots             374 (at most 98 per sweep), 128 pairs at once
> estimated time    3.6 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            1 min 0 s: the estimate fits
> memory, streamed  27.4 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 256x256 cells)
> parallel          128 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions

## a plan over its budget is refused
# A plan whose estimate exceeds its budget is refused before anything is measured, and
# measured when asked for (--over-budget, in live.t): 2 slots of at least 2000 rounds need 0.018 s.
$ tscaudit matrix --cpus 0,1 --budget 0.01 --visits 1 --warmup 0 --sequential
2> tscaudit: error: the plan's estimated 0.018 s of measuring exceeds its budget of 0.01 s (2 slots, one pair at a time): give fewer --cpus, --visits or --rounds, a larger --budget, or --over-budget to measure it anyway (--dry-run shows the plan)
2> see 'tscaudit matrix --help'
[2]

## check refuses a sequential plan over its budget
$ tscaudit check --cpus 0,1 --sequential --rounds 20000000 --visits 100
2> tscaudit: error: the plan's estimated 33 min 22 s of measuring exceeds its budget of 1 min 30 s (200 slots, one pair at a time): give fewer --cpus, --visits or --rounds, or --over-budget to measure it anyway (--dry-run shows the plan)
2> see 'tscaudit check --help'
[2]

## check --budget 90s
# --budget 90s wherever a budget is taken (report plans its two matrices within the budget
# together).
$ tscaudit check --dry-run --budget 90s --topology 'synthetic:package:1 core:4 pu:2'
> cpus              0-7 (8 CPUs in topology order: 1 package)
> design            all pairs: every one of the 56 ordered pairs gets at least 2000 rounds within the
>                   90 s budget and 40 M rounds in all
> pairs             28 unordered, 56 ordered (each pair in both roles)
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  178571 measured + 2000 warm-up
> total rounds      39999904 measured
> slots             56 (14 per sweep), 4 pairs at once
> estimated time    5.5 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            1 min 30 s: the estimate fits
> memory, streamed  80.3 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 8x8 cells)
> parallel          4 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions

## report --budget 90s
$ tscaudit report --dry-run --budget 90s --topology 'synthetic:package:1 core:4 pu:2'
> cpus              0-7 (8 CPUs in topology order: 1 package)
> design            all pairs: every one of the 56 ordered pairs gets at least 2000 rounds within the
>                   30 s budget and 40 M rounds in all
> pairs             28 unordered, 56 ordered (each pair in both roles)
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  178571 measured + 2000 warm-up
> total rounds      39999904 measured
> slots             56 (14 per sweep), 4 pairs at once
> estimated time    5.5 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            30 s: the estimate fits
> memory, streamed  80.3 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 8x8 cells)
> parallel          4 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions
> report            this plan twice (an ordering receive read, then plain rdtsc on both sides): 11 s
>                   of estimated measuring within a budget of 1 min 30 s
> report            then the read variants on one pair (tscaudit variants), within 30 s
> report            everything it measures ends within the budget of 1 min 30 s

## matrix --budget 90s
$ tscaudit matrix --dry-run --budget 90s --topology 'synthetic:package:1 core:4 pu:2'
> cpus              0-7 (8 CPUs in topology order: 1 package)
> design            all pairs: every one of the 56 ordered pairs gets at least 2000 rounds within the
>                   90 s budget and 40 M rounds in all
> pairs             28 unordered, 56 ordered (each pair in both roles)
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  178571 measured + 2000 warm-up
> total rounds      39999904 measured
> slots             56 (14 per sweep), 4 pairs at once
> estimated time    5.5 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            1 min 30 s: the estimate fits
> memory, streamed  80.3 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 8x8 cells)
> parallel          4 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions

## --budget 1.5m is 90 s
$ tscaudit matrix --dry-run --budget 1.5m --topology 'synthetic:package:1 core:4 pu:2'
> cpus              0-7 (8 CPUs in topology order: 1 package)
> design            all pairs: every one of the 56 ordered pairs gets at least 2000 rounds within the
>                   90 s budget and 40 M rounds in all
> pairs             28 unordered, 56 ordered (each pair in both roles)
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  178571 measured + 2000 warm-up
> total rounds      39999904 measured
> slots             56 (14 per sweep), 4 pairs at once
> estimated time    5.5 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            1 min 30 s: the estimate fits
> memory, streamed  80.3 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 8x8 cells)
> parallel          4 pairs at once share caches, memory and the interconnect: latencies (rtt) can
>                   rise and spread, so the offset bounds widen; the bounds stay valid (they assume
>                   only causality), and the offset estimate moves only as far as the added delay
>                   differs between the two directions

## check --budget 10m plans 27 visits of each pair, the default 4
# Time buys precision (docs/machine.md §10.1): at least 3 times the default's rounds at 10
# minutes on 2 CPUs.
$ tscaudit check --dry-run --topology 'synthetic:package:1 core:2 pu:1'
> cpus              0-1 (2 CPUs in topology order: 1 package)
> design            all pairs: every one of the 2 ordered pairs gets at least 2000 rounds within the
>                   90 s budget and 40 M rounds in all
> pairs             1 unordered, 2 ordered (each pair in both roles)
> visits            4 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  250000 measured + 2000 warm-up
> total rounds      2000000 measured
> slots             8 (2 per sweep), 1 pair at once
> estimated time    1.1 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            1 min 30 s: the estimate fits
> memory, streamed  58.1 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 2x2 cells)
$ tscaudit check --dry-run --budget 10m --topology 'synthetic:package:1 core:2 pu:1'
> cpus              0-1 (2 CPUs in topology order: 1 package)
> design            all pairs: every one of the 2 ordered pairs gets at least 2000 rounds within the
>                   600 s budget and 40 M rounds in all
> pairs             1 unordered, 2 ordered (each pair in both roles)
> visits            27 per ordered pair, one per sweep, spread over the whole run
> rounds per visit  250000 measured + 2000 warm-up
> total rounds      13500000 measured
> slots             54 (2 per sweep), 1 pair at once
> estimated time    7.2 s (fixed 0.008 s per visit, 2 M rounds/s per pair)
> budget            10 min 0 s: the estimate fits
> memory, streamed  288.1 MB (rounds written as measured: the pairs at once, one pair's rounds for its
>                   analysis, the 2x2 cells)
