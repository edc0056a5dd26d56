# analyze: run files, good, damaged and hostile

## analyze: non-numeric field
$ tscaudit analyze tests/data/runs/bad_field.csv
2> tscaudit: error: tests/data/runs/bad_field.csv:3:9: 'x60' is not an unsigned decimal number
[2]

## analyze: short row
$ tscaudit analyze tests/data/runs/short_row.csv
2> tscaudit: error: tests/data/runs/short_row.csv:2:12: found 3 fields, the header has 4
[2]

## analyze: empty file
$ tscaudit analyze tests/data/runs/empty.csv
2> tscaudit: error: tests/data/runs/empty.csv: empty file
[2]

## analyze: header only
$ tscaudit analyze tests/data/runs/header_only.csv
2> tscaudit: error: tests/data/runs/header_only.csv: no rounds after the column header row
[2]

## analyze: a directory
# An input that cannot be opened is an input error (exit 2), naming the path and why.
$ tscaudit analyze tests/data/runs
2> tscaudit: error: cannot read tests/data/runs: it is a directory
[2]

## analyze: missing file
$ tscaudit analyze tests/data/runs/nope.csv
2> tscaudit: error: cannot open tests/data/runs/nope.csv for reading: No such file or directory
[2]

## analyze: a path under a regular file
$ tscaudit analyze tests/data/runs/empty.csv/x.log
2> tscaudit: error: cannot open tests/data/runs/empty.csv/x.log for reading: Not a directory
[2]

## analyze: a missing file after a good one
$ tscaudit analyze tests/data/runs/crlf_import.csv tests/data/runs/nope.log
2> tscaudit: error: cannot open tests/data/runs/nope.log for reading: No such file or directory
[2]

## analyze: bad format
$ tscaudit analyze --format xml tests/data/runs/crlf_import.csv
2> tscaudit: error: --format 'xml' is not text, json or csv
2> see 'tscaudit analyze --help'
[2]

## analyze: CRLF import
$ tscaudit analyze tests/data/runs/crlf_import.csv
> tests/data/runs/crlf_import.csv: synchronized within the band: the offset lies in [-60, 60] ticks,
>   which contains 0
>   run       CPU ? -> CPU ?, send ?, recv ?, 3 rounds
>   offset    0 ticks, band [-60, 60] ticks at the run's middle (hard: every round obeys it)
>   drift     no detectable drift: |drift| < 1000000 ppb over 510 ticks
>   margin    50 ticks (about the minimum one-way latency), quantum 10 (inferred), k = 1
>   stats     no block statistics: 3 rounds: too few for 3 blocks of 2k = 2 rounds
>   k-sweep   k=1: 0; stable from k = 1; below that floor: 0 fwd, 0 rev rounds
>   fwd  0 negative: 0 offset_explained, 0 marginal, 0 causality_violation
>   rev  0 negative: 0 offset_explained, 0 marginal, 0 causality_violation
>   rtt < -2q 0 rounds (impossible for any offset)
>   backwards a 0 rounds (t4 < t1), b 0 rounds (t3 < t2): a counter ran backwards, impossible for any
>     offset
>   longest    100 (round 2) 100 (round 1) 100 (round 0) ticks of rtt
>   ticks    min     p50     p75     p85     p95     p99   p99.9  p99.99 p99.999      max     mean
>   fwd       50      50      50      50      50      50      50      50      50       50       50
>   rev       50      50      50      50      50      50      50      50      50       50       50
>   rtt      100     100     100     100     100     100     100     100     100      100      100
>   beyond            1*      0*      0*      0*      0*      0*      0*      0* rtt samples beyond
>

## analyze: a run of the aarch64 build
# A run measured on aarch64 (under an emulator) is analyzed here like any other: its variants
# by name, and its 16 ns tick long enough for the quantum and the band to be given in ns too.
$ tscaudit analyze tests/data/runs/arm64_emulated_isb_cntvct.csv
> tests/data/runs/arm64_emulated_isb_cntvct.csv: synchronized within the band: the offset lies in
>   [-63, 63] ticks, which contains 0
>   run       CPU 0 -> CPU 1, send isb_cntvct, recv isb_cntvct, 500 rounds
>   offset    0 ticks (0.0 ns), band [-63, 63] ticks ([-1008, 1008] ns) at the run's middle (hard:
>             every round obeys it)
>   drift     no detectable drift: |drift| < 1000000 ppb over 22560 ticks
>   margin    0 ticks (about the minimum one-way latency), quantum 63 (metadata; 1008 ns), k = 1
>   stats     offset 0 +/- 31.5 (q/2; the blocks scatter 0) ticks (95 %, 16 time blocks; statistical
>             only: no asymmetry, no quantum); runs test 0 runs, z 0
>   k-sweep   k=1: 0; stable from k = 1; below that floor: 0 fwd, 0 rev rounds
>   fwd  0 negative: 0 offset_explained, 0 marginal, 0 causality_violation
>   rev  0 negative: 0 offset_explained, 0 marginal, 0 causality_violation
>   rtt < -2q 0 rounds (impossible for any offset)
>   backwards a 0 rounds (t4 < t1), b 0 rounds (t3 < t2): a counter ran backwards, impossible for any
>     offset
>   longest    438 (round 204) 375 (round 271) 125 (round 315) 63 (round 21) 63 (round 3) 63 (round
>              24) 63 (round 27) 63 (round 0) 63 (round 9) 63 (round 33) ticks of rtt
>   ticks    min     p50     p75     p85     p95     p99   p99.9  p99.99 p99.999      max     mean
>   fwd        0       0      62      63      63      63     313     313     313      313   19.504
>   rev        0       0      62      62      63      63     438     438     438      438   19.742
>   rtt        0      62      63      63      63      63     438     438     438      438   39.246
>   beyond          250     125      75      25       5*      0*      0*      0* rtt samples beyond
>

## analyze: a run cut short is flagged
$ tscaudit analyze tests/data/runs/cut_short.csv
> tests/data/runs/cut_short.csv: incomplete, no verdict: no '# status:' line after the rounds: the
>   file was cut short (in line 7, which is left out); the rounds it holds: synchronized within the
>   band: the offset lies in [-60, 60] ticks, which contains 0
>   run       CPU 0 -> CPU 1, send ?, recv ?, 2 rounds
>   NOT COMPLETE: no '# status:' line after the rounds: the file was cut short (in line 7, which is
>     left out)
>   offset    0 ticks, band [-60, 60] ticks at the run's middle (hard: every round obeys it)
>   drift     no detectable drift: |drift| < 1000000 ppb over 310 ticks
>   margin    50 ticks (about the minimum one-way latency), quantum 10 (inferred), k = 1
>   stats     no block statistics: 2 rounds: too few for 3 blocks of 2k = 2 rounds
>   k-sweep   k=1: 0; stable from k = 1; below that floor: 0 fwd, 0 rev rounds
>   fwd  0 negative: 0 offset_explained, 0 marginal, 0 causality_violation
>   rev  0 negative: 0 offset_explained, 0 marginal, 0 causality_violation
>   rtt < -2q 0 rounds (impossible for any offset)
>   backwards a 0 rounds (t4 < t1), b 0 rounds (t3 < t2): a counter ran backwards, impossible for any
>     offset
>   longest    100 (round 1) 100 (round 0) ticks of rtt
>   ticks    min     p50     p75     p85     p95     p99   p99.9  p99.99 p99.999      max     mean
>   fwd       50      50      50      50      50      50      50      50      50       50       50
>   rev       50      50      50      50      50      50      50      50      50       50       50
>   rtt      100     100     100     100     100     100     100     100     100      100      100
>   beyond            1*      0*      0*      0*      0*      0*      0*      0* rtt samples beyond
>
2> tscaudit analyze: warning: tests/data/runs/cut_short.csv is not a complete run (no '# status:' line
2>   after the rounds: the file was cut short (in line 7, which is left out)); analyzing the rounds it
2>   holds
[3]

## analyze: an import with metadata is not a run cut short
# An import table has no status line by design: its metadata lines do not make it a run cut
# short. Only a last line without its line end that is not a whole round is flagged.
$ tscaudit analyze tests/data/runs/import_metadata.csv
> tests/data/runs/import_metadata.csv: synchronized within the band: the offset lies in [-51, 51]
>   ticks, which contains 0
>   run       CPU 0 -> CPU 1, send ?, recv ?, 3 rounds
>   offset    0 ticks, band [-51, 51] ticks at the run's middle (hard: every round obeys it)
>   drift     no detectable drift: |drift| < 1000000 ppb over 510 ticks
>   margin    50 ticks (about the minimum one-way latency), quantum 1 (metadata), k = 1
>   stats     no block statistics: 3 rounds: too few for 3 blocks of 2k = 2 rounds
>   k-sweep   k=1: 0; stable from k = 1; below that floor: 0 fwd, 0 rev rounds
>   fwd  0 negative: 0 offset_explained, 0 marginal, 0 causality_violation
>   rev  0 negative: 0 offset_explained, 0 marginal, 0 causality_violation
>   rtt < -2q 0 rounds (impossible for any offset)
>   backwards a 0 rounds (t4 < t1), b 0 rounds (t3 < t2): a counter ran backwards, impossible for any
>     offset
>   longest    100 (round 2) 100 (round 1) 100 (round 0) ticks of rtt
>   ticks    min     p50     p75     p85     p95     p99   p99.9  p99.99 p99.999      max     mean
>   fwd       50      50      50      50      50      50      50      50      50       50       50
>   rev       50      50      50      50      50      50      50      50      50       50       50
>   rtt      100     100     100     100     100     100     100     100     100      100      100
>   beyond            1*      0*      0*      0*      0*      0*      0*      0* rtt samples beyond
>

## analyze: an import with metadata is complete in the JSON
$ tscaudit analyze --format json tests/data/runs/import_metadata.csv
> {
>   "schema": "tscaudit-analysis/1",
>   "pairs": [
>     {
>       "source": "tests/data/runs/import_metadata.csv",
>       "a": "0",
>       "b": "1",
>       "send": "?",
>       "recv": "?",
>       "rounds": 3,
>       "complete": true,
>       "quantum_ticks": 1,
>       "quantum_source": "metadata",
>       "tsc_hz": null,
>       "t_ref_tick": 355,
>       "band_feasible": true,
>       "offset_ticks": {
>         "estimate": 0.0,
>         "lo": -51.0,
>         "hi": 51.0
>       },
>       "drift_ppb": {
>         "estimate": 0.0,
>         "lo": -1000000.0,
>         "hi": 1000000.0,
>         "detectable": false,
>         "identifiable": true
>       },
>       "margin_ticks": 50.0,
>       "k": 1,
>       "bins": 128,
>       "below_floor": {
>         "fwd": 0,
>         "rev": 0
>       },
>       "k_sweep": [
>         {
>           "k": 1,
>           "feasible": true,
>           "offset_ticks": 0.0,
>           "margin_ticks": 50.0
>         }
>       ],
>       "fwd_ticks": {
>         "count": 3,
>         "min": 50,
>         "p50": 50,
>         "p75": 50,
>         "p85": 50,
>         "p95": 50,
>         "p99": 50,
>         "p99.9": 50,
>         "p99.99": 50,
>         "p99.999": 50,
>         "max": 50,
>         "mean": 50.0,
>         "negative": 0,
>         "tail_samples": {
>           "p50": 1,
>           "p75": 0,
>           "p85": 0,
>           "p95": 0,
>           "p99": 0,
>           "p99.9": 0,
>           "p99.99": 0,
>           "p99.999": 0
>         }
>       },
>       "rev_ticks": {
>         "count": 3,
>         "min": 50,
>         "p50": 50,
>         "p75": 50,
>         "p85": 50,
>         "p95": 50,
>         "p99": 50,
>         "p99.9": 50,
>         "p99.99": 50,
>         "p99.999": 50,
>         "max": 50,
>         "mean": 50.0,
>         "negative": 0,
>         "tail_samples": {
>           "p50": 1,
>           "p75": 0,
>           "p85": 0,
>           "p95": 0,
>           "p99": 0,
>           "p99.9": 0,
>           "p99.99": 0,
>           "p99.999": 0
>         }
>       },
>       "rtt_ticks": {
>         "count": 3,
>         "min": 100,
>         "p50": 100,
>         "p75": 100,
>         "p85": 100,
>         "p95": 100,
>         "p99": 100,
>         "p99.9": 100,
>         "p99.99": 100,
>         "p99.999": 100,
>         "max": 100,
>         "mean": 100.0,
>         "negative": 0,
>         "tail_samples": {
>           "p50": 1,
>           "p75": 0,
>           "p85": 0,
>           "p95": 0,
>           "p99": 0,
>           "p99.9": 0,
>           "p99.99": 0,
>           "p99.999": 0
>         }
>       },
>       "classes": {
>         "fwd": {
>           "normal": 3,
>           "offset_explained": 0,
>           "marginal": 0,
>           "causality_violation": 0
>         },
>         "rev": {
>           "normal": 3,
>           "offset_explained": 0,
>           "marginal": 0,
>           "causality_violation": 0
>         }
>       },
>       "self_inconsistent": 0,
>       "counter_backwards": {
>         "a": 0,
>         "b": 0
>       },
>       "worst": {
>         "fwd": null,
>         "rev": null,
>         "rtt": null,
>         "backwards_a": null,
>         "backwards_b": null
>       },
>       "longest_rounds": [
>         {
>           "seq": 2,
>           "rtt_ticks": 100
>         },
>         {
>           "seq": 1,
>           "rtt_ticks": 100
>         },
>         {
>           "seq": 0,
>           "rtt_ticks": 100
>         }
>       ],
>       "statistics": {
>         "valid": false,
>         "reason": "3 rounds: too few for 3 blocks of 2k = 2 rounds"
>       },
>       "step": null,
>       "steps": [],
>       "pieces": null,
>       "segments": [],
>       "verdict": "synchronized within the band: the offset lies in [-51, 51] ticks, which contains 0",
>       "verdict_kind": "synchronized",
>       "outcome": "synchronized",
>       "outcome_reason": "synchronized to within ±51 ticks: the 1 ordered pairs of a sparse design over 2 CPUs (of 2) have offset bands that contain 0, no detectable drift"
>     }
>   ],
>   "monitors": []
> }

## analyze: an import whose last line was cut is flagged
$ tscaudit analyze tests/data/runs/import_cut.csv
> tests/data/runs/import_cut.csv: incomplete, no verdict: line 6 has no line end and is not a whole
>   round: it is left out; the rounds it holds: synchronized within the band: the offset lies in [-60,
>   60] ticks, which contains 0
>   run       CPU 0 -> CPU 1, send ?, recv ?, 2 rounds
>   NOT COMPLETE: line 6 has no line end and is not a whole round: it is left out
>   offset    0 ticks, band [-60, 60] ticks at the run's middle (hard: every round obeys it)
>   drift     no detectable drift: |drift| < 1000000 ppb over 310 ticks
>   margin    50 ticks (about the minimum one-way latency), quantum 10 (inferred), k = 1
>   stats     no block statistics: 2 rounds: too few for 3 blocks of 2k = 2 rounds
>   k-sweep   k=1: 0; stable from k = 1; below that floor: 0 fwd, 0 rev rounds
>   fwd  0 negative: 0 offset_explained, 0 marginal, 0 causality_violation
>   rev  0 negative: 0 offset_explained, 0 marginal, 0 causality_violation
>   rtt < -2q 0 rounds (impossible for any offset)
>   backwards a 0 rounds (t4 < t1), b 0 rounds (t3 < t2): a counter ran backwards, impossible for any
>     offset
>   longest    100 (round 1) 100 (round 0) ticks of rtt
>   ticks    min     p50     p75     p85     p95     p99   p99.9  p99.99 p99.999      max     mean
>   fwd       50      50      50      50      50      50      50      50      50       50       50
>   rev       50      50      50      50      50      50      50      50      50       50       50
>   rtt      100     100     100     100     100     100     100     100     100      100      100
>   beyond            1*      0*      0*      0*      0*      0*      0*      0* rtt samples beyond
>
2> tscaudit analyze: warning: tests/data/runs/import_cut.csv: line 6 has no line end and is not a whole
2>   round: it is left out; analyzing the rounds it holds
[3]

## analyze: BOM and CRLF import
# Hostile input: exit 2 with SOURCE:LINE:COLUMN; accepted variants read as documented.
$ tscaudit analyze --format json tests/data/runs/bom_crlf_import.csv
> {
>   "schema": "tscaudit-analysis/1",
>   "pairs": [
>     {
>       "source": "tests/data/runs/bom_crlf_import.csv",
>       "a": "?",
>       "b": "?",
>       "send": "?",
>       "recv": "?",
>       "rounds": 3,
>       "complete": true,
>       "quantum_ticks": 10,
>       "quantum_source": "inferred",
>       "tsc_hz": null,
>       "t_ref_tick": 355,
>       "band_feasible": true,
>       "offset_ticks": {
>         "estimate": 0.0,
>         "lo": -60.0,
>         "hi": 60.0
>       },
>       "drift_ppb": {
>         "estimate": 0.0,
>         "lo": -1000000.0,
>         "hi": 1000000.0,
>         "detectable": false,
>         "identifiable": true
>       },
>       "margin_ticks": 50.0,
>       "k": 1,
>       "bins": 128,
>       "below_floor": {
>         "fwd": 0,
>         "rev": 0
>       },
>       "k_sweep": [
>         {
>           "k": 1,
>           "feasible": true,
>           "offset_ticks": 0.0,
>           "margin_ticks": 50.0
>         }
>       ],
>       "fwd_ticks": {
>         "count": 3,
>         "min": 50,
>         "p50": 50,
>         "p75": 50,
>         "p85": 50,
>         "p95": 50,
>         "p99": 50,
>         "p99.9": 50,
>         "p99.99": 50,
>         "p99.999": 50,
>         "max": 50,
>         "mean": 50.0,
>         "negative": 0,
>         "tail_samples": {
>           "p50": 1,
>           "p75": 0,
>           "p85": 0,
>           "p95": 0,
>           "p99": 0,
>           "p99.9": 0,
>           "p99.99": 0,
>           "p99.999": 0
>         }
>       },
>       "rev_ticks": {
>         "count": 3,
>         "min": 50,
>         "p50": 50,
>         "p75": 50,
>         "p85": 50,
>         "p95": 50,
>         "p99": 50,
>         "p99.9": 50,
>         "p99.99": 50,
>         "p99.999": 50,
>         "max": 50,
>         "mean": 50.0,
>         "negative": 0,
>         "tail_samples": {
>           "p50": 1,
>           "p75": 0,
>           "p85": 0,
>           "p95": 0,
>           "p99": 0,
>           "p99.9": 0,
>           "p99.99": 0,
>           "p99.999": 0
>         }
>       },
>       "rtt_ticks": {
>         "count": 3,
>         "min": 100,
>         "p50": 100,
>         "p75": 100,
>         "p85": 100,
>         "p95": 100,
>         "p99": 100,
>         "p99.9": 100,
>         "p99.99": 100,
>         "p99.999": 100,
>         "max": 100,
>         "mean": 100.0,
>         "negative": 0,
>         "tail_samples": {
>           "p50": 1,
>           "p75": 0,
>           "p85": 0,
>           "p95": 0,
>           "p99": 0,
>           "p99.9": 0,
>           "p99.99": 0,
>           "p99.999": 0
>         }
>       },
>       "classes": {
>         "fwd": {
>           "normal": 3,
>           "offset_explained": 0,
>           "marginal": 0,
>           "causality_violation": 0
>         },
>         "rev": {
>           "normal": 3,
>           "offset_explained": 0,
>           "marginal": 0,
>           "causality_violation": 0
>         }
>       },
>       "self_inconsistent": 0,
>       "counter_backwards": {
>         "a": 0,
>         "b": 0
>       },
>       "worst": {
>         "fwd": null,
>         "rev": null,
>         "rtt": null,
>         "backwards_a": null,
>         "backwards_b": null
>       },
>       "longest_rounds": [
>         {
>           "seq": 2,
>           "rtt_ticks": 100
>         },
>         {
>           "seq": 1,
>           "rtt_ticks": 100
>         },
>         {
>           "seq": 0,
>           "rtt_ticks": 100
>         }
>       ],
>       "statistics": {
>         "valid": false,
>         "reason": "3 rounds: too few for 3 blocks of 2k = 2 rounds"
>       },
>       "step": null,
>       "steps": [],
>       "pieces": null,
>       "segments": [],
>       "verdict": "synchronized within the band: the offset lies in [-60, 60] ticks, which contains 0",
>       "verdict_kind": "synchronized",
>       "outcome": "synchronized",
>       "outcome_reason": "synchronized to within ±60 ticks: the 1 ordered pairs of a sparse design over 2 CPUs (of 2) have offset bands that contain 0, no detectable drift"
>     }
>   ],
>   "monitors": []
> }

## analyze: only blank lines
$ tscaudit analyze tests/data/runs/blank_lines.csv
2> tscaudit: error: tests/data/runs/blank_lines.csv: no column header row (expected e.g. 't1,t2,t3,t4')
[2]

## analyze: lone carriage return
$ tscaudit analyze tests/data/runs/lone_cr.csv
2> tscaudit: error: tests/data/runs/lone_cr.csv:2:4: a carriage return (\r) inside the line (line ends must be LF or CRLF)
[2]

## analyze: counter runs backwards in an import
# A counter that runs backwards within a round is evidence, not malformed text: analyzed.
$ tscaudit analyze tests/data/runs/counter_backwards.csv
> tests/data/runs/counter_backwards.csv: inconclusive: too few rounds to bound the offset (1 round; at
>   least 2 needed); unsafe reads: causality violated under this variant (send ?, recv ?): 0 forward
>   and 0 reverse one-way latencies below every offset the rest of the run allows, 1 round in which a
>   counter ran backwards (a: 1, b: 0)
>   run       CPU ? -> CPU ?, send ?, recv ?, 1 round
>   offset    60 ticks, band [59.99, 60] ticks at the run's middle (hard: every round obeys it)
>   drift     no detectable drift: |drift| < 1000000 ppb over 0 ticks
>   margin    -10 ticks (about the minimum one-way latency), quantum 10 (inferred), k = 1
>   stats     no block statistics: 1 round: too few for 3 blocks of 2k = 2 rounds
>   k-sweep   k=1: 59.99; stable from k = 1; below that floor: 0 fwd, 0 rev rounds
>   fwd  0 negative: 0 offset_explained, 0 marginal, 0 causality_violation
>   rev  1 negative: 1 offset_explained, 0 marginal, 0 causality_violation
>   rtt < -2q 0 rounds (impossible for any offset)
>   backwards a 1 rounds (t4 < t1), b 0 rounds (t3 < t2): a counter ran backwards, impossible for any
>     offset
>   worst a backwards (t4 - t1): round 0, -10 ticks, 10 ticks back, 0 ticks into the run
>       seq  t1  t2  t3  t4 fwd rev rtt
>     > 0   100 150 160  90  50 -70 -20
>   longest    -20 (round 0) ticks of rtt
>   ticks    min     p50     p75     p85     p95     p99   p99.9  p99.99 p99.999      max     mean
>   fwd       50      50      50      50      50      50      50      50      50       50       50
>   rev      -70     -70     -70     -70     -70     -70     -70     -70     -70      -70      -70
>   rtt      -20     -20     -20     -20     -20     -20     -20     -20     -20      -20      -20
>   beyond            0*      0*      0*      0*      0*      0*      0*      0* rtt samples beyond
>
[5]

## analyze --format json: counter runs backwards in an import
$ tscaudit analyze --format json tests/data/runs/counter_backwards.csv
> {
>   "schema": "tscaudit-analysis/1",
>   "pairs": [
>     {
>       "source": "tests/data/runs/counter_backwards.csv",
>       "a": "?",
>       "b": "?",
>       "send": "?",
>       "recv": "?",
>       "rounds": 1,
>       "complete": true,
>       "quantum_ticks": 10,
>       "quantum_source": "inferred",
>       "tsc_hz": null,
>       "t_ref_tick": 100,
>       "band_feasible": true,
>       "offset_ticks": {
>         "estimate": 60.0,
>         "lo": 59.99,
>         "hi": 60.0
>       },
>       "drift_ppb": {
>         "estimate": 0.0,
>         "lo": -1000000.0,
>         "hi": 0.0,
>         "detectable": false,
>         "identifiable": false
>       },
>       "margin_ticks": -10.0,
>       "k": 1,
>       "bins": 128,
>       "below_floor": {
>         "fwd": 0,
>         "rev": 0
>       },
>       "k_sweep": [
>         {
>           "k": 1,
>           "feasible": true,
>           "offset_ticks": 59.995,
>           "margin_ticks": -9.995
>         }
>       ],
>       "fwd_ticks": {
>         "count": 1,
>         "min": 50,
>         "p50": 50,
>         "p75": 50,
>         "p85": 50,
>         "p95": 50,
>         "p99": 50,
>         "p99.9": 50,
>         "p99.99": 50,
>         "p99.999": 50,
>         "max": 50,
>         "mean": 50.0,
>         "negative": 0,
>         "tail_samples": {
>           "p50": 0,
>           "p75": 0,
>           "p85": 0,
>           "p95": 0,
>           "p99": 0,
>           "p99.9": 0,
>           "p99.99": 0,
>           "p99.999": 0
>         }
>       },
>       "rev_ticks": {
>         "count": 1,
>         "min": -70,
>         "p50": -70,
>         "p75": -70,
>         "p85": -70,
>         "p95": -70,
>         "p99": -70,
>         "p99.9": -70,
>         "p99.99": -70,
>         "p99.999": -70,
>         "max": -70,
>         "mean": -70.0,
>         "negative": 1,
>         "tail_samples": {
>           "p50": 0,
>           "p75": 0,
>           "p85": 0,
>           "p95": 0,
>           "p99": 0,
>           "p99.9": 0,
>           "p99.99": 0,
>           "p99.999": 0
>         }
>       },
>       "rtt_ticks": {
>         "count": 1,
>         "min": -20,
>         "p50": -20,
>         "p75": -20,
>         "p85": -20,
>         "p95": -20,
>         "p99": -20,
>         "p99.9": -20,
>         "p99.99": -20,
>         "p99.999": -20,
>         "max": -20,
>         "mean": -20.0,
>         "negative": 1,
>         "tail_samples": {
>           "p50": 0,
>           "p75": 0,
>           "p85": 0,
>           "p95": 0,
>           "p99": 0,
>           "p99.9": 0,
>           "p99.99": 0,
>           "p99.999": 0
>         }
>       },
>       "classes": {
>         "fwd": {
>           "normal": 1,
>           "offset_explained": 0,
>           "marginal": 0,
>           "causality_violation": 0
>         },
>         "rev": {
>           "normal": 0,
>           "offset_explained": 1,
>           "marginal": 0,
>           "causality_violation": 0
>         }
>       },
>       "self_inconsistent": 0,
>       "counter_backwards": {
>         "a": 1,
>         "b": 0
>       },
>       "worst": {
>         "fwd": null,
>         "rev": null,
>         "rtt": null,
>         "backwards_a": {
>           "seq": 0,
>           "value_ticks": -10,
>           "beyond_band_ticks": 10.0,
>           "since_start_ticks": 0,
>           "rounds": [
>             {
>               "seq": 0,
>               "t1": 100,
>               "t2": 150,
>               "t3": 160,
>               "t4": 90,
>               "flags": 0
>             }
>           ]
>         },
>         "backwards_b": null
>       },
>       "longest_rounds": [
>         {
>           "seq": 0,
>           "rtt_ticks": -20
>         }
>       ],
>       "statistics": {
>         "valid": false,
>         "reason": "1 round: too few for 3 blocks of 2k = 2 rounds"
>       },
>       "step": null,
>       "steps": [],
>       "pieces": null,
>       "segments": [],
>       "verdict": "unsafe reads: causality violated under this variant (send ?, recv ?): 0 forward and 0 reverse one-way latencies below every offset the rest of the run allows, 1 round in which a counter ran backwards (a: 1, b: 0)",
>       "verdict_kind": "unsafe_reads",
>       "outcome": "inconclusive",
>       "outcome_reason": "inconclusive: too few rounds to bound the offset (1 round; at least 2 needed): 1 of 1 measured ordered pairs"
>     }
>   ],
>   "monitors": []
> }
[5]

## analyze: repeated seq
$ tscaudit analyze tests/data/runs/repeated_seq.csv
2> tscaudit: error: tests/data/runs/repeated_seq.csv:5:1: seq 2 repeats the seq of line 3 (two rows cannot be the same round)
[2]

## analyze: quantum out of range
$ tscaudit analyze tests/data/runs/bad_quantum.csv
2> tscaudit: error: tests/data/runs/bad_quantum.csv:1:18: quantum_ticks 0 is out of range [1, 1000000000]
[2]

## analyze: gzip file
$ tscaudit analyze tests/data/runs/gzipped_import.csv.gz
2> tscaudit: error: tests/data/runs/gzipped_import.csv.gz:1:1: byte \x1f is not text (a binary or compressed file?)
[2]

## analyze: executable file
$ tscaudit analyze "$TSCAUDIT"
2> tscaudit: error: $TSCAUDIT:1:1: byte \x7f is not text (a binary or compressed file?)
[2]

## analyze: endless line from /dev/zero
$ tscaudit analyze /dev/zero
2> tscaudit: error: /dev/zero:1:65537: line longer than 65536 bytes (not a text table, or a line end is missing)
[2]

## analyze: JSON of a send column that is not UTF-8
# Bytes that are not UTF-8 in a send column: replaced in the JSON, not an exception.
$ tscaudit analyze --format json tests/data/runs/not_utf8_send.csv
> {
>   "schema": "tscaudit-analysis/1",
>   "pairs": [
>     {
>       "source": "tests/data/runs/not_utf8_send.csv",
>       "a": "?",
>       "b": "?",
>       "send": "��",
>       "recv": "?",
>       "rounds": 2,
>       "complete": true,
>       "quantum_ticks": 10,
>       "quantum_source": "inferred",
>       "tsc_hz": null,
>       "t_ref_tick": 255,
>       "band_feasible": true,
>       "offset_ticks": {
>         "estimate": 0.0,
>         "lo": -60.0,
>         "hi": 60.0
>       },
>       "drift_ppb": {
>         "estimate": 0.0,
>         "lo": -1000000.0,
>         "hi": 1000000.0,
>         "detectable": false,
>         "identifiable": true
>       },
>       "margin_ticks": 50.0,
>       "k": 1,
>       "bins": 128,
>       "below_floor": {
>         "fwd": 0,
>         "rev": 0
>       },
>       "k_sweep": [
>         {
>           "k": 1,
>           "feasible": true,
>           "offset_ticks": 0.0,
>           "margin_ticks": 50.0
>         }
>       ],
>       "fwd_ticks": {
>         "count": 2,
>         "min": 50,
>         "p50": 50,
>         "p75": 50,
>         "p85": 50,
>         "p95": 50,
>         "p99": 50,
>         "p99.9": 50,
>         "p99.99": 50,
>         "p99.999": 50,
>         "max": 50,
>         "mean": 50.0,
>         "negative": 0,
>         "tail_samples": {
>           "p50": 1,
>           "p75": 0,
>           "p85": 0,
>           "p95": 0,
>           "p99": 0,
>           "p99.9": 0,
>           "p99.99": 0,
>           "p99.999": 0
>         }
>       },
>       "rev_ticks": {
>         "count": 2,
>         "min": 50,
>         "p50": 50,
>         "p75": 50,
>         "p85": 50,
>         "p95": 50,
>         "p99": 50,
>         "p99.9": 50,
>         "p99.99": 50,
>         "p99.999": 50,
>         "max": 50,
>         "mean": 50.0,
>         "negative": 0,
>         "tail_samples": {
>           "p50": 1,
>           "p75": 0,
>           "p85": 0,
>           "p95": 0,
>           "p99": 0,
>           "p99.9": 0,
>           "p99.99": 0,
>           "p99.999": 0
>         }
>       },
>       "rtt_ticks": {
>         "count": 2,
>         "min": 100,
>         "p50": 100,
>         "p75": 100,
>         "p85": 100,
>         "p95": 100,
>         "p99": 100,
>         "p99.9": 100,
>         "p99.99": 100,
>         "p99.999": 100,
>         "max": 100,
>         "mean": 100.0,
>         "negative": 0,
>         "tail_samples": {
>           "p50": 1,
>           "p75": 0,
>           "p85": 0,
>           "p95": 0,
>           "p99": 0,
>           "p99.9": 0,
>           "p99.99": 0,
>           "p99.999": 0
>         }
>       },
>       "classes": {
>         "fwd": {
>           "normal": 2,
>           "offset_explained": 0,
>           "marginal": 0,
>           "causality_violation": 0
>         },
>         "rev": {
>           "normal": 2,
>           "offset_explained": 0,
>           "marginal": 0,
>           "causality_violation": 0
>         }
>       },
>       "self_inconsistent": 0,
>       "counter_backwards": {
>         "a": 0,
>         "b": 0
>       },
>       "worst": {
>         "fwd": null,
>         "rev": null,
>         "rtt": null,
>         "backwards_a": null,
>         "backwards_b": null
>       },
>       "longest_rounds": [
>         {
>           "seq": 1,
>           "rtt_ticks": 100
>         },
>         {
>           "seq": 0,
>           "rtt_ticks": 100
>         }
>       ],
>       "statistics": {
>         "valid": false,
>         "reason": "2 rounds: too few for 3 blocks of 2k = 2 rounds"
>       },
>       "step": null,
>       "steps": [],
>       "pieces": null,
>       "segments": [],
>       "verdict": "synchronized within the band: the offset lies in [-60, 60] ticks, which contains 0",
>       "verdict_kind": "synchronized",
>       "outcome": "synchronized",
>       "outcome_reason": "synchronized to within ±60 ticks: the 1 ordered pairs of a sparse design over 2 CPUs (of 2) have offset bands that contain 0, no detectable drift"
>     }
>   ],
>   "monitors": []
> }

## analyze: unwritable output
$ tscaudit analyze --format json --out /nonexistent-tscaudit/a.json tests/data/runs/crlf_import.csv
2> tscaudit: error: cannot create /nonexistent-tscaudit/a.json: No such file or directory
[3]
