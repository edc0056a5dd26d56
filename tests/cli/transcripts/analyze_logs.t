# analyze: interval logs of monitor

## analyze an interval log
# Interval logs of monitor (tests/data/monitor, made by test_interval_analysis.cpp).
$ tscaudit analyze tests/data/monitor/step.log
> tests/data/monitor/step.log: offset stepped 1 time: by 5000 ticks (2173.9 ns) at interval 25 (383.3
>   s into the run): a TSC write, a vCPU moved, or a migration; last piece: offset of 4850 ticks
>   (2108.7 ns): b's counter is ahead of a's; the band [4669, 5031] ticks excludes 0; 1008 negative
>   one-way latencies, none proven beyond the band (the log keeps counts, not rounds)
>   log       monitor, CPU 0 -> CPU 1, send simulated, recv simulated, 42 intervals, 2520 rounds over
>             630.9 s
>   status    complete
>   (the offset changed: the whole-run line below is the wrong model; see the pieces)
>   offset    1478 ticks (no band: the bounds cross by 2241 ticks)
>   drift     5.589 ppb, no band
>   margin    -2241 ticks (about the minimum one-way latency), quantum 1 (metadata), k = 1
>   k-sweep   k=1: crossed (2 pieces); k=4: crossed (2 pieces); k=16: crossed (2 pieces); stable from
>             k = 1
>   piece 1   intervals 0-25: offset -150 ticks (-65.2 ns), band [-331, 31] ticks at its middle, no
>             detectable drift
>   piece 2   intervals 25-41: offset 4850 ticks (2108.7 ns), band [4669, 5031] ticks at its middle,
>             no detectable drift
>   step 1    by 5000 ticks (2173.9 ns) ([4622, 5400] ticks) at interval 25 (383.3 s), within interval
>             25: the bands before and after are disjoint there
>   against   38 intervals contradict the whole-run line, in 3 runs: 0-11, 14-37, 40-41
>   early     at least 0 fwd and 0 rev one-way latencies below every offset the band allows (from the
>             k-th statistics kept)
>   totals    2520 rounds, 120 lost (queue full), 3 late, 0 fwd and 1008 rev negative, 0 with rtt <
>             -2q, 8/5 context switches a/b, longest pause 350 ms (nothing ran), 0 empty intervals
>   rtt       361 to 12723 ticks over the run
>   worst
>             rtt max: 12723 ticks (interval 5), 4243 ticks (interval 9), 4056 ticks (interval 19),
>               3254 ticks (interval 32), 3149 ticks (interval 41)
>             rtt p99.9: 12723 ticks (interval 5), 4243 ticks (interval 9), 4056 ticks (interval 19),
>               3254 ticks (interval 32), 3149 ticks (interval 41)
>             negatives: 60 (interval 26), 60 (interval 27), 60 (interval 28), 60 (interval 29), 60
>               (interval 30)
>             rtt < -2q: none
>             lost: 120 (interval 9)
>             pause: 350 ms (interval 9)
>   memory    peak RSS first 3100 KiB (interval 0, 15.02 s), 1 min 3148 KiB (interval 3, 60.08 s), 10
>             min 3148 KiB (interval 39, 600.8 s), last 3148 KiB (interval 41, 630.9 s); max 3148 KiB
>

## analyze an interval log as json
$ tscaudit analyze --format json tests/data/monitor/step.log
> {
>   "schema": "tscaudit-analysis/1",
>   "pairs": [],
>   "monitors": [
>     {
>       "schema": "tscaudit-monitor-analysis/1",
>       "source": "tests/data/monitor/step.log",
>       "a": "0",
>       "b": "1",
>       "send": "simulated",
>       "recv": "simulated",
>       "status": "complete",
>       "complete": true,
>       "incomplete_reason": null,
>       "intervals": 42,
>       "rounds": 2520,
>       "first_tick": 1000000000000,
>       "last_tick": 2451008306398,
>       "t_ref_tick": 1725504153199,
>       "span_ticks": 1451008306398.0,
>       "span_s": 630.8731766947826,
>       "quantum_ticks": 1,
>       "quantum_source": "metadata",
>       "tsc_hz": 2300000000.0,
>       "k": 1,
>       "sweep_settled": true,
>       "k_sweep": [
>         {
>           "k": 1,
>           "intervals": 42,
>           "feasible": false,
>           "offset_ticks": 1477.5762238492555,
>           "margin_ticks": -2241.118279939863,
>           "pieces": 2,
>           "resolved": true,
>           "set_aside": 0
>         },
>         {
>           "k": 4,
>           "intervals": 42,
>           "feasible": false,
>           "offset_ticks": 1459.7101723764367,
>           "margin_ticks": -2264.266775584323,
>           "pieces": 2,
>           "resolved": true,
>           "set_aside": 0
>         },
>         {
>           "k": 16,
>           "intervals": 42,
>           "feasible": false,
>           "offset_ticks": 1566.1582265010918,
>           "margin_ticks": -2147.7037520218933,
>           "pieces": 2,
>           "resolved": true,
>           "set_aside": 0
>         }
>       ],
>       "pieces_resolved": true,
>       "band_feasible": false,
>       "offset_ticks": {
>         "estimate": 1477.5762238492555,
>         "lo": null,
>         "hi": null
>       },
>       "offset_ns": {
>         "estimate": 642.4244451518501,
>         "lo": null,
>         "hi": null
>       },
>       "drift_ppb": {
>         "estimate": 5.589396506111559,
>         "lo": null,
>         "hi": null,
>         "detectable": true,
>         "identifiable": true
>       },
>       "margin_ticks": -2241.118279939863,
>       "pieces": [
>         {
>           "first_interval": 0,
>           "last_interval": 25,
>           "t_ref_tick": 1449121618647,
>           "offset_ticks": {
>             "estimate": -150.0,
>             "lo": -331.0,
>             "hi": 31.0
>           },
>           "offset_ns": {
>             "estimate": -65.21739130434783,
>             "lo": -143.91304347826087,
>             "hi": 13.478260869565217
>           },
>           "drift_ppb": {
>             "estimate": 0.0,
>             "lo": -0.430447091242857,
>             "hi": 0.41785681269207586,
>             "detectable": false,
>             "identifiable": true
>           },
>           "margin_ticks": 180.0
>         },
>         {
>           "first_interval": 25,
>           "last_interval": 41,
>           "t_ref_tick": 2157351863436,
>           "offset_ticks": {
>             "estimate": 4850.0,
>             "lo": 4669.0,
>             "hi": 5031.0
>           },
>           "offset_ns": {
>             "estimate": 2108.695652173913,
>             "lo": 2030.0,
>             "hi": 2187.3913043478265
>           },
>           "drift_ppb": {
>             "estimate": 0.0,
>             "lo": -0.6966793626082103,
>             "hi": 0.6830578342874261,
>             "detectable": false,
>             "identifiable": true
>           },
>           "margin_ticks": 180.0
>         }
>       ],
>       "steps": [
>         {
>           "proven": true,
>           "interval": 25,
>           "at_tick": 1881589658172,
>           "at_s": 383.2998513791304,
>           "window": {
>             "first_interval": 25,
>             "last_interval": 25,
>             "lo_tick": 1867476914520,
>             "hi_tick": 1895702401824
>           },
>           "size_ticks": {
>             "estimate": 5000.0,
>             "lo": 4622.463073804446,
>             "hi": 5400.291893355452
>           },
>           "size_ns": {
>             "estimate": 2173.9130434782605,
>             "lo": 2009.7665538280198,
>             "hi": 2347.952997111066
>           }
>         }
>       ],
>       "transients": [],
>       "moves": [],
>       "intervals_against_line": {
>         "count": 38,
>         "runs": [
>           [
>             0,
>             11
>           ],
>           [
>             14,
>             37
>           ],
>           [
>             40,
>             41
>           ]
>         ]
>       },
>       "causality_violations_at_least": {
>         "fwd": 0,
>         "rev": 0
>       },
>       "totals": {
>         "rounds": 2520,
>         "lost": 120,
>         "late": 3,
>         "fwd_negative": 0,
>         "rev_negative": 1008,
>         "self_inconsistent": 0,
>         "switches_a": 8,
>         "switches_b": 5,
>         "stall_ms_max": 350,
>         "empty_intervals": 0,
>         "rtt_min_ticks": 361,
>         "rtt_max_ticks": 12723
>       },
>       "worst": {
>         "rtt_max_ticks": [
>           {
>             "interval": 5,
>             "value": 12723
>           },
>           {
>             "interval": 9,
>             "value": 4243
>           },
>           {
>             "interval": 19,
>             "value": 4056
>           },
>           {
>             "interval": 32,
>             "value": 3254
>           },
>           {
>             "interval": 41,
>             "value": 3149
>           }
>         ],
>         "rtt_p99.9_ticks": [
>           {
>             "interval": 5,
>             "value": 12723
>           },
>           {
>             "interval": 9,
>             "value": 4243
>           },
>           {
>             "interval": 19,
>             "value": 4056
>           },
>           {
>             "interval": 32,
>             "value": 3254
>           },
>           {
>             "interval": 41,
>             "value": 3149
>           }
>         ],
>         "negatives": [
>           {
>             "interval": 26,
>             "value": 60
>           },
>           {
>             "interval": 27,
>             "value": 60
>           },
>           {
>             "interval": 28,
>             "value": 60
>           },
>           {
>             "interval": 29,
>             "value": 60
>           },
>           {
>             "interval": 30,
>             "value": 60
>           }
>         ],
>         "self_inconsistent": [],
>         "lost": [
>           {
>             "interval": 9,
>             "value": 120
>           }
>         ],
>         "stall_ms": [
>           {
>             "interval": 9,
>             "value": 350
>           }
>         ]
>       },
>       "peak_rss_kib": {
>         "samples": [
>           {
>             "at": "first",
>             "interval": 0,
>             "at_s": 15.020789921304347,
>             "kib": 3100
>           },
>           {
>             "at": "1 min",
>             "interval": 3,
>             "at_s": 60.08315968521739,
>             "kib": 3148
>           },
>           {
>             "at": "10 min",
>             "interval": 39,
>             "at_s": 600.8315968521739,
>             "kib": 3148
>           },
>           {
>             "at": "last",
>             "interval": 41,
>             "at_s": 630.8731766947826,
>             "kib": 3148
>           }
>         ],
>         "max": 3148
>       },
>       "verdict": "offset stepped 1 time: by 5000 ticks (2173.9 ns) at interval 25 (383.3 s into the run): a TSC write, a vCPU moved, or a migration; last piece: offset of 4850 ticks (2108.7 ns): b's counter is ahead of a's; the band [4669, 5031] ticks excludes 0; 1008 negative one-way latencies, none proven beyond the band (the log keeps counts, not rounds)",
>       "verdict_kind": "offset_stepped"
>     }
>   ]
> }

## analyze a run and an interval log together
$ tscaudit analyze tests/data/runs/crlf_import.csv tests/data/monitor/step.log
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
> tests/data/monitor/step.log: offset stepped 1 time: by 5000 ticks (2173.9 ns) at interval 25 (383.3
>   s into the run): a TSC write, a vCPU moved, or a migration; last piece: offset of 4850 ticks
>   (2108.7 ns): b's counter is ahead of a's; the band [4669, 5031] ticks excludes 0; 1008 negative
>   one-way latencies, none proven beyond the band (the log keeps counts, not rounds)
>   log       monitor, CPU 0 -> CPU 1, send simulated, recv simulated, 42 intervals, 2520 rounds over
>             630.9 s
>   status    complete
>   (the offset changed: the whole-run line below is the wrong model; see the pieces)
>   offset    1478 ticks (no band: the bounds cross by 2241 ticks)
>   drift     5.589 ppb, no band
>   margin    -2241 ticks (about the minimum one-way latency), quantum 1 (metadata), k = 1
>   k-sweep   k=1: crossed (2 pieces); k=4: crossed (2 pieces); k=16: crossed (2 pieces); stable from
>             k = 1
>   piece 1   intervals 0-25: offset -150 ticks (-65.2 ns), band [-331, 31] ticks at its middle, no
>             detectable drift
>   piece 2   intervals 25-41: offset 4850 ticks (2108.7 ns), band [4669, 5031] ticks at its middle,
>             no detectable drift
>   step 1    by 5000 ticks (2173.9 ns) ([4622, 5400] ticks) at interval 25 (383.3 s), within interval
>             25: the bands before and after are disjoint there
>   against   38 intervals contradict the whole-run line, in 3 runs: 0-11, 14-37, 40-41
>   early     at least 0 fwd and 0 rev one-way latencies below every offset the band allows (from the
>             k-th statistics kept)
>   totals    2520 rounds, 120 lost (queue full), 3 late, 0 fwd and 1008 rev negative, 0 with rtt <
>             -2q, 8/5 context switches a/b, longest pause 350 ms (nothing ran), 0 empty intervals
>   rtt       361 to 12723 ticks over the run
>   worst
>             rtt max: 12723 ticks (interval 5), 4243 ticks (interval 9), 4056 ticks (interval 19),
>               3254 ticks (interval 32), 3149 ticks (interval 41)
>             rtt p99.9: 12723 ticks (interval 5), 4243 ticks (interval 9), 4056 ticks (interval 19),
>               3254 ticks (interval 32), 3149 ticks (interval 41)
>             negatives: 60 (interval 26), 60 (interval 27), 60 (interval 28), 60 (interval 29), 60
>               (interval 30)
>             rtt < -2q: none
>             lost: 120 (interval 9)
>             pause: 350 ms (interval 9)
>   memory    peak RSS first 3100 KiB (interval 0, 15.02 s), 1 min 3148 KiB (interval 3, 60.08 s), 10
>             min 3148 KiB (interval 39, 600.8 s), last 3148 KiB (interval 41, 630.9 s); max 3148 KiB
>

## analyze an interval log as csv
$ tscaudit analyze --format csv tests/data/monitor/step.log
> source,interval,start_tick,end_tick,start_s,rounds,k,band_present,band_lo_ticks,band_hi_ticks,estimate_ticks,line_ticks,piece,against_line,set_aside,fwd_violations_at_least,rev_violations_at_least,rtt_min_ticks,rtt_p50_ticks,rtt_p99_ticks,rtt_p99.9_ticks,rtt_max_ticks,fwd_negative,rev_negative,self_inconsistent,lost,late,switches_a,switches_b,stall_ms,peak_rss_kib
> tests/data/monitor/step.log,0,1000000000000,1034547816819,0,60,1,1,-331,31,-150,-150,1,1,0,0,0,364,385,446,446,446,0,0,0,0,0,1,0,0,3100
> tests/data/monitor/step.log,1,1034547816819,1069095633638,15.0207899,60,1,1,-331,31,-150,-150,1,1,0,0,0,361,385,473,473,473,0,0,0,0,0,0,0,0,3116
> tests/data/monitor/step.log,2,1069095633638,1103643450457,30.0415798,60,1,1,-331,31,-150,-150,1,1,0,0,0,362,383,1640,1640,1640,0,0,0,0,0,0,0,0,3132
> tests/data/monitor/step.log,3,1103643450457,1138191267276,45.0623698,60,1,1,-331,31,-150,-150,1,1,0,0,0,364,384,1172,1172,1172,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,4,1138191267276,1172739084095,60.0831597,60,1,1,-331,31,-150,-150,1,1,0,0,0,362,383,1215,1215,1215,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,5,1172739084095,1207286900914,75.1039496,60,1,1,-331,31,-150,-150,1,1,0,0,0,363,386,12723,12723,12723,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,6,1207286900914,1241834717733,90.1247395,60,1,1,-331,31,-150,-150,1,1,0,0,0,361,385,1876,1876,1876,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,7,1241834717733,1276382534552,105.145529,60,1,1,-331,31,-150,-150,1,1,0,0,0,362,384,2940,2940,2940,0,0,0,0,0,1,0,0,3148
> tests/data/monitor/step.log,8,1276382534552,1310930351371,120.166319,60,1,1,-331,31,-150,-150,1,1,0,0,0,362,381,428,428,428,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,9,1310930351371,1345478168190,135.187109,60,1,1,-331,31,-150,-150,1,1,0,0,0,362,390,4243,4243,4243,0,0,0,120,3,2,0,350,3148
> tests/data/monitor/step.log,10,1345478168190,1380025985009,150.207899,60,1,1,-331,31,-150,-150,1,1,0,0,0,362,386,537,537,537,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,11,1380025985009,1414573801828,165.228689,60,1,1,-331,32,-149.5,-150,1,1,0,0,0,363,378,464,464,464,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,12,1414573801828,1449121618647,180.249479,60,1,1,-331,31,-150,-150,1,0,0,0,0,363,386,2199,2199,2199,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,13,1449121618647,1483669435466,195.270269,60,1,1,-331,31,-150,-150,1,0,0,0,0,362,385,1099,1099,1099,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,14,1483669435466,1518217252285,210.291059,60,1,1,-331,32,-149.5,-150,1,1,0,0,0,361,389,457,457,457,0,0,0,0,0,1,0,0,3148
> tests/data/monitor/step.log,15,1518217252285,1552765069104,225.311849,60,1,1,-331,31,-150,-150,1,1,0,0,0,362,382,431,431,431,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,16,1552765069104,1587312885923,240.332639,60,1,1,-331,31,-150,-150,1,1,0,0,0,361,381,1303,1303,1303,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,17,1587312885923,1621860702742,255.353429,60,1,1,-331,31,-150,-150,1,1,0,0,0,362,390,1205,1205,1205,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,18,1621860702742,1656408519561,270.374219,60,1,1,-331,31,-150,-150,1,1,0,0,0,363,383,1332,1332,1332,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,19,1656408519561,1690956336380,285.395009,60,1,1,-331,31,-150,-150,1,1,0,0,0,363,388,4056,4056,4056,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,20,1690956336380,1725504153199,300.415798,60,1,1,-331,31,-150,-150,1,1,0,0,0,361,384,458,458,458,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,21,1725504153199,1760051970018,315.436588,60,1,1,-331,31,-150,-150,1,1,0,0,0,361,384,427,427,427,0,0,0,0,0,1,0,0,3148
> tests/data/monitor/step.log,22,1760051970018,1794599786837,330.457378,60,1,1,-332,31,-150.5,-150,1,1,0,0,0,363,386,1590,1590,1590,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,23,1794599786837,1829147603656,345.478168,60,1,1,-331,31,-150,-150,1,1,0,0,0,363,387,492,492,492,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,24,1829147603656,1863695420475,360.498958,60,1,1,-331,31,-150,-150,1,1,0,0,0,363,380,1649,1649,1649,0,0,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,25,1863695420475,1898243237294,375.519748,60,1,1,4669,31,2350,-150,1,1,0,0,0,361,387,444,444,444,0,48,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,26,1898243237294,1932791054113,390.540538,60,1,1,4669,5031,4850,4850,2,1,0,0,0,363,384,430,430,430,0,60,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,27,1932791054113,1967338870932,405.561328,60,1,1,4669,5031,4850,4850,2,1,0,0,0,362,391,462,462,462,0,60,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,28,1967338870932,2001886687751,420.582118,60,1,1,4668,5031,4849.5,4850,2,1,0,0,0,364,391,1073,1073,1073,0,60,0,0,0,1,0,0,3148
> tests/data/monitor/step.log,29,2001886687751,2036434504570,435.602908,60,1,1,4669,5031,4850,4850,2,1,0,0,0,363,387,493,493,493,0,60,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,30,2036434504570,2070982321389,450.623698,60,1,1,4669,5031,4850,4850,2,1,0,0,0,363,386,1611,1611,1611,0,60,0,0,0,0,5,0,3148
> tests/data/monitor/step.log,31,2070982321389,2105530138208,465.644488,60,1,1,4669,5032,4850.5,4850,2,1,0,0,0,362,384,1341,1341,1341,0,60,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,32,2105530138208,2140077955027,480.665277,60,1,1,4668,5031,4849.5,4850,2,1,0,0,0,363,394,3254,3254,3254,0,60,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,33,2140077955027,2174625771846,495.686067,60,1,1,4669,5032,4850.5,4850,2,1,0,0,0,362,390,1052,1052,1052,0,60,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,34,2174625771846,2209173588665,510.706857,60,1,1,4668,5031,4849.5,4850,2,1,0,0,0,363,388,1249,1249,1249,0,60,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,35,2209173588665,2243721405484,525.727647,60,1,1,4669,5031,4850,4850,2,1,0,0,0,364,383,1429,1429,1429,0,60,0,0,0,1,0,0,3148
> tests/data/monitor/step.log,36,2243721405484,2278269222303,540.748437,60,1,1,4669,5031,4850,4850,2,1,0,0,0,363,390,1599,1599,1599,0,60,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,37,2278269222303,2312817039122,555.769227,60,1,1,4669,5031,4850,4850,2,1,0,0,0,362,384,996,996,996,0,60,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,38,2312817039122,2347364855941,570.790017,60,1,1,4669,5031,4850,4850,2,0,0,0,0,363,388,1004,1004,1004,0,60,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,39,2347364855941,2381912672760,585.810807,60,1,1,4669,5031,4850,4850,2,0,0,0,0,361,385,442,442,442,0,60,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,40,2381912672760,2416460489579,600.831597,60,1,1,4668,5031,4849.5,4850,2,1,0,0,0,364,384,455,455,455,0,60,0,0,0,0,0,0,3148
> tests/data/monitor/step.log,41,2416460489579,2451008306398,615.852387,60,1,1,4669,5031,4850,4850,2,1,0,0,0,365,393,3149,3149,3149,0,60,0,0,0,0,0,0,3148

## analyze an interval log from standard input
$ tscaudit analyze - < tests/data/monitor/step.log
> <stdin>: offset stepped 1 time: by 5000 ticks (2173.9 ns) at interval 25 (383.3 s into the run): a
>   TSC write, a vCPU moved, or a migration; last piece: offset of 4850 ticks (2108.7 ns): b's counter
>   is ahead of a's; the band [4669, 5031] ticks excludes 0; 1008 negative one-way latencies, none
>   proven beyond the band (the log keeps counts, not rounds)
>   log       monitor, CPU 0 -> CPU 1, send simulated, recv simulated, 42 intervals, 2520 rounds over
>             630.9 s
>   status    complete
>   (the offset changed: the whole-run line below is the wrong model; see the pieces)
>   offset    1478 ticks (no band: the bounds cross by 2241 ticks)
>   drift     5.589 ppb, no band
>   margin    -2241 ticks (about the minimum one-way latency), quantum 1 (metadata), k = 1
>   k-sweep   k=1: crossed (2 pieces); k=4: crossed (2 pieces); k=16: crossed (2 pieces); stable from
>             k = 1
>   piece 1   intervals 0-25: offset -150 ticks (-65.2 ns), band [-331, 31] ticks at its middle, no
>             detectable drift
>   piece 2   intervals 25-41: offset 4850 ticks (2108.7 ns), band [4669, 5031] ticks at its middle,
>             no detectable drift
>   step 1    by 5000 ticks (2173.9 ns) ([4622, 5400] ticks) at interval 25 (383.3 s), within interval
>             25: the bands before and after are disjoint there
>   against   38 intervals contradict the whole-run line, in 3 runs: 0-11, 14-37, 40-41
>   early     at least 0 fwd and 0 rev one-way latencies below every offset the band allows (from the
>             k-th statistics kept)
>   totals    2520 rounds, 120 lost (queue full), 3 late, 0 fwd and 1008 rev negative, 0 with rtt <
>             -2q, 8/5 context switches a/b, longest pause 350 ms (nothing ran), 0 empty intervals
>   rtt       361 to 12723 ticks over the run
>   worst
>             rtt max: 12723 ticks (interval 5), 4243 ticks (interval 9), 4056 ticks (interval 19),
>               3254 ticks (interval 32), 3149 ticks (interval 41)
>             rtt p99.9: 12723 ticks (interval 5), 4243 ticks (interval 9), 4056 ticks (interval 19),
>               3254 ticks (interval 32), 3149 ticks (interval 41)
>             negatives: 60 (interval 26), 60 (interval 27), 60 (interval 28), 60 (interval 29), 60
>               (interval 30)
>             rtt < -2q: none
>             lost: 120 (interval 9)
>             pause: 350 ms (interval 9)
>   memory    peak RSS first 3100 KiB (interval 0, 15.02 s), 1 min 3148 KiB (interval 3, 60.08 s), 10
>             min 3148 KiB (interval 39, 600.8 s), last 3148 KiB (interval 41, 630.9 s); max 3148 KiB
>

## analyze: an interrupted interval log is flagged
$ tscaudit analyze tests/data/monitor/interrupted.log
> tests/data/monitor/interrupted.log: synchronized within the band: the offset lies in [-331, 31]
>   ticks, which contains 0
>   log       monitor, CPU 0 -> CPU 1, send simulated, recv simulated, 12 intervals, 720 rounds over
>             180.2 s
>   status    INTERRUPTED: interrupted by SIGINT after 12 intervals; the intervals it holds are
>             analyzed
>   offset    -150 ticks (-65.2 ns), band [-331, 31] ticks at the run's middle (hard: every round
>             obeys it)
>   drift     no detectable drift: |drift| < 0.952 ppb over 414600000000 ticks
>   margin    180 ticks (about the minimum one-way latency), quantum 1 (metadata), k = 1
>   k-sweep   k=1: -150 (1 piece); k=4: -150 (1 piece); k=16: -150.1 (1 piece); stable from k = 1
>   against   0 intervals contradict the whole-run line
>   early     at least 0 fwd and 0 rev one-way latencies below every offset the band allows (from the
>             k-th statistics kept)
>   totals    720 rounds, 120 lost (queue full), 3 late, 0 fwd and 0 rev negative, 0 with rtt < -2q,
>             4/0 context switches a/b, longest pause 350 ms (nothing ran), 0 empty intervals
>   rtt       361 to 12723 ticks over the run
>   worst
>             rtt max: 12723 ticks (interval 5), 4243 ticks (interval 9), 2940 ticks (interval 7),
>               1876 ticks (interval 6), 1640 ticks (interval 2)
>             rtt p99.9: 12723 ticks (interval 5), 4243 ticks (interval 9), 2940 ticks (interval 7),
>               1876 ticks (interval 6), 1640 ticks (interval 2)
>             negatives: none
>             rtt < -2q: none
>             lost: 120 (interval 9)
>             pause: 350 ms (interval 9)
>   memory    peak RSS first 3100 KiB (interval 0, 15.02 s), 1 min 3148 KiB (interval 3, 60.08 s),
>             last 3148 KiB (interval 11, 180.2 s); max 3148 KiB
>
2> tscaudit analyze: warning: tests/data/monitor/interrupted.log is not a complete monitor log
2>   (interrupted: interrupted by SIGINT after 12 intervals); analyzing the 12 intervals it holds

## analyze: a cut-short interval log is flagged
$ tscaudit analyze tests/data/monitor/cut_short.log
> tests/data/monitor/cut_short.log: synchronized within the band: the offset lies in [-331, 31] ticks,
>   which contains 0
>   log       monitor, CPU 0 -> CPU 1, send simulated, recv simulated, 9 intervals, 540 rounds over
>             135.2 s
>   status    CUT SHORT: no '# status:' line after the intervals: the log was cut short (the process
>             died?); line 19 was cut in the middle and is left out; the intervals it holds are
>             analyzed
>   offset    -150 ticks (-65.2 ns), band [-331, 31] ticks at the run's middle (hard: every round
>             obeys it)
>   drift     no detectable drift: |drift| < 1.27 ppb over 310900000000 ticks
>   margin    180 ticks (about the minimum one-way latency), quantum 1 (metadata), k = 1
>   k-sweep   k=1: -150 (1 piece); k=4: -150 (1 piece); k=16: -150.4 (1 piece); stable from k = 1
>   against   0 intervals contradict the whole-run line
>   early     at least 0 fwd and 0 rev one-way latencies below every offset the band allows (from the
>             k-th statistics kept)
>   totals    540 rounds, 0 lost (queue full), 0 late, 0 fwd and 0 rev negative, 0 with rtt < -2q, 2/0
>             context switches a/b, longest pause 0 ms (nothing ran), 0 empty intervals
>   rtt       361 to 12723 ticks over the run
>   worst
>             rtt max: 12723 ticks (interval 5), 2940 ticks (interval 7), 1876 ticks (interval 6),
>               1640 ticks (interval 2), 1215 ticks (interval 4)
>             rtt p99.9: 12723 ticks (interval 5), 2940 ticks (interval 7), 1876 ticks (interval 6),
>               1640 ticks (interval 2), 1215 ticks (interval 4)
>             negatives: none
>             rtt < -2q: none
>             lost: none
>             pause: none
>   memory    peak RSS first 3100 KiB (interval 0, 15.02 s), 1 min 3148 KiB (interval 3, 60.08 s),
>             last 3148 KiB (interval 8, 135.2 s); max 3148 KiB
>
2> tscaudit analyze: warning: tests/data/monitor/cut_short.log is not a complete monitor log (cut
2>   short: no '# status:' line after the intervals: the log was cut short (the process died?); line 19
2>   was cut in the middle and is left out); analyzing the 9 intervals it holds

## analyze: a malformed interval log names line and column
$ tscaudit analyze tests/data/monitor/bad_field.log
2> tscaudit: error: tests/data/monitor/bad_field.log:13:31: rounds: '6O' is not an unsigned decimal number
[2]

## analyze: plot directory cannot be made
$ tscaudit analyze --plot /proc/tscaudit tests/data/monitor/step.log
2> tscaudit: error: /proc/tscaudit: cannot create the directory: No such file or directory
[3]
