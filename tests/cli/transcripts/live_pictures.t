# Short live runs that draw their pictures: what they measure is this machine's, placeholders
# stand for it; the files they write are listed.
%require cpus 2
%require command gnuplot
%serial
%timeout 300

## report
# The answer first: the verdict, the read to use, where the report is.
$ tscaudit report --rounds 5000 --visits 2 --variants-rounds 8000 --out report
> {TEXT}
> ...
> read with {TEXT}
> ...
> report: report/report.html (report.md beside it)
2> tscaudit report: measuring {TEXT}
2> ...
2> tscaudit report: wrote report/report.md and report/report.html
$ ls report/report.md report/report.html report/matrix/offset_ticks.png \
    report/matrix_plain_rdtsc/causality_violations.svg report/variants/variants.json \
    report/variants/variants_switch.svg
> report/matrix/offset_ticks.png
> report/matrix_plain_rdtsc/causality_violations.svg
> report/report.html
> report/report.md
> report/variants/variants.json
> report/variants/variants_switch.svg

## variants of this machine
$ tscaudit variants --rounds 8000 --passes 2 --control-rounds 500 --switch-rounds 2000 --out variants
> tscaudit variants: {TEXT}
> ...
>   measured on CPUs 0 and 1, 8000 rounds per combination (both roles, 2 passes), TSC {N} MHz,
>     quantum {N} ticks
>
> read cost per call on CPU 0 (ticks, the believed method's figures), cheapest first
>   clock                      min      p50     mean    p99.9   p50 ns  method   batch p50 delta p50
> ...
>   the mean moves with every preemption during the measurement; the p50 does not
>
> exchange per send/recv, both roles (ticks)
>   send/recv                   rtt min    p50     p99 1-way min min vs plain
>   rdtsc/rdtsc {TEXT}
> ...
>   lfence_rdtsc/lfence_rdtsc {TEXT}
>
> early reads per send/recv, both roles (one-way latencies; rtt<-2q: rounds)
> ...
> answer
> ...
2>   measured in {N} s
2>   wrote variants/variants.json and the plots
$ ls variants/variants.json variants/variants.txt variants/variants_cost.png \
    variants/variants_tradeoff.svg variants/variants_percentiles.png variants/variants_switch.svg
> variants/variants.json
> variants/variants.txt
> variants/variants_cost.png
> variants/variants_percentiles.png
> variants/variants_switch.svg
> variants/variants_tradeoff.svg
