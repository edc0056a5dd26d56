# Short live runs of every pair of this machine's CPUs: what they measure is this machine's,
# placeholders stand for it, the words and the layout stay.
%require cpus 2
%serial
%timeout 300

## matrix of this machine
$ tscaudit matrix --rounds 5000 --visits 2 --out matrix
> {TEXT}
> ...
> send rdtsc, recv lfence_rdtsc, quantum {N} ticks, TSC {N} MHz
>
> Per-CPU offset x (ticks, relative to CPU 0; least squares over all pairs, hard bounds from the pair
>   bands)
>    cpu    estimate          lo          hi
>      0           0           0           0
> ...
> Pairs (a initiates, b responds; offset = TSC_b - TSC_a)
>   pair        offset  band lo  band hi drift ppb  rtt min  rtt p50 violations self-inc.
>   0->1 {TEXT}
> ...
> Consistency: bands {TEXT}
> ...
2> tscaudit matrix: send rdtsc, recv lfence_rdtsc; measuring {N} ordered pairs of {N} CPUs, {TEXT}
2> ...
2>   wrote matrix/matrix.json and the heatmaps

## check passes with a wide tolerance
# A tolerance far beyond any offset: a working machine passes.
$ tscaudit check --rounds 5000 --visits 2 --tolerance 1000000 --drift-tolerance-ppb 1000000
> synchronized to within ±{TEXT}
> {TEXT}no drift beyond 1000000 ppb, no self-inconsistent rounds
2> ...

## variants json
$ tscaudit variants --rounds 4000 --passes 1 --control-rounds 0 --switch-rounds 0 --format json
> {
>   "schema": "tscaudit-variants/1",
>   "cpus": [
>     0,
>     1
>   ],
>   "tsc_hz": {N},
>   "quantum_ticks": {N},
>   "rounds_per_combination": 4000,
>   "passes": 1,
>   "read_cost": [
>     {
>       "variant": "rdtsc",
> ...
>   "exchange": [
> ...
>   "control": null,
>   "switch": null,
>   "recommendation": {
> ...
>   "standings": [
> ...
>   "findings": [
> ...
>   "problems": []
> }
2> ...

## a plan over its budget is measured with --over-budget
# 2 slots of at least 2000 rounds need 0.018 s.
$ tscaudit matrix --cpus 0,1 --budget 0.01 --visits 1 --warmup 0 --over-budget
> {TEXT}
> ...
> Pairs (a initiates, b responds; offset = TSC_b - TSC_a)
>   pair        offset  band lo  band hi drift ppb  rtt min  rtt p50 violations self-inc.
>   0->1 {TEXT}
>   1->0 {TEXT}
> ...
2> tscaudit matrix: send rdtsc, recv lfence_rdtsc; measuring 2 ordered pairs of 2 CPUs, 1 visit each,
2>   about 0.0 s (at most 0.0 s) (--dry-run shows the plan)
2> ...

## variants --save-runs names each run's send and receive
# One file per combination and role, send and receive named apart.
$ tscaudit variants --cpus 0,1 --rounds 400 --passes 1 --control-rounds 0 --switch-rounds 200 \
    --save-runs --out variants_runs
> tscaudit variants: {TEXT}
> ...
2> ...
$ ls variants_runs/runs/send-rdtsc_recv-rdtsc_0-1.csv variants_runs/runs/send-rdtsc_recv-rdtsc_1-0.csv \
    variants_runs/runs/send-rdtsc_recv-lfence_rdtsc_0-1.csv \
    variants_runs/runs/send-rdtsc_lfence_recv-rdtscp_1-0.csv \
    variants_runs/runs/switch-1_send-rdtsc_recv-rdtsc_0-1.csv
> variants_runs/runs/send-rdtsc_lfence_recv-rdtscp_1-0.csv
> variants_runs/runs/send-rdtsc_recv-lfence_rdtsc_0-1.csv
> variants_runs/runs/send-rdtsc_recv-rdtsc_0-1.csv
> variants_runs/runs/send-rdtsc_recv-rdtsc_1-0.csv
> variants_runs/runs/switch-1_send-rdtsc_recv-rdtsc_0-1.csv
$ ls variants_runs/runs/rdtsc_rdtsc_0_1.csv
2> ls: cannot access 'variants_runs/runs/rdtsc_rdtsc_0_1.csv': No such file or directory
[2]
