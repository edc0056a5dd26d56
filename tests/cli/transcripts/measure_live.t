# measure on one CPU, and info: short live runs. What they print is this machine's (its
# counters, frequency, kernel, warnings): placeholders stand for it, the words stay.
%serial

## same-CPU control run
# The rounds went to a file: the summary is on standard output, its answer first.
$ tscaudit measure --cpus 0,0 --rounds 2000 --out same.csv
> tscaudit measure: 2000 rounds of CPU 0 -> CPU 0 (status: complete) written to same.csv
>   reads         send rdtsc, recv lfence_rdtsc, slot transport
>   rounds        2000 ({N} M rounds/s)
>   rtt           min {N} ticks ({N} ns), median {N} ticks ({N} ns)
>   one-way < 0   fwd {N} ({N} per million, min {N} ticks), rev {N} ({N} per million, min {N} ticks)
>   rtt < 0       {N} rounds (no offset explains these: a receive read ran early)
>   interference  {TEXT}
> ...
>   verdict       {TEXT}
> ...
>   offset        {N} ticks, band [{N}, {N}] ticks
>   quantum       {N} ticks on CPU 0, {N} ticks on CPU 0; TSC {N} MHz ({PATH})

## run to standard output
# The rounds on standard output, the summary on standard error.
$ tscaudit measure --cpus 0,0 --rounds 50 --out -
> # schema: tscaudit-run/1
> # tool_version: {PATH}
> # command: tscaudit measure --cpus 0,0 --rounds 50 --out -
> # host: {TEXT}
> ...
> # a: 0
> # b: 0
> # send: rdtsc
> # recv: lfence_rdtsc
> # transport: slot
> # rounds: 50
> # warmup: 10000
> # chunk_rounds: 4096
> # timeout_ms: 2000
> # start_utc: {PATH}
> # quantum_ticks: {N}
> # quantum_ticks_a: {N}
> # quantum_ticks_b: {N}
> # flags: 1=switch_a 2=switch_b 4=migrated 8=stall
> seq,t1,t2,t3,t4,flags
> 0,{N},{N},{N},{N},{N}
> ...
> 49,{N},{N},{N},{N},{N}
> # end_utc: {PATH}
> # rounds_written: 50
> # chunks: 3
> # chunks_with_switches_a: {N}
> # chunks_with_switches_b: {N}
> # chunks_with_migration: {N}
> # stall_rounds: {N}
> # payload_check: ok
> # status: complete
2> tscaudit measure: 50 rounds of CPU 0 -> CPU 0 (status: complete) written to standard output
2>   reads         send rdtsc, recv lfence_rdtsc, slot transport
2>   rounds        50 ({N} M rounds/s)
2> ...
2>   quantum       {N} ticks on CPU 0, {N} ticks on CPU 0; TSC {N} MHz ({PATH})

## output device full
$ tscaudit measure --cpus 0,0 --rounds 10 --warmup 0 --out /dev/full
2> tscaudit: error: cannot write /dev/full: No space left on device
[3]

## info
$ tscaudit info
> host                {TEXT}
> kernel              {TEXT}
> cpu                 {TEXT}
> invariant tsc       {TEXT}
> rdtscp              {TEXT}
> ...
> tsc frequency       {N} MHz ({TEXT}
> ...
> cpus                present {CPUS}, online {CPUS}, allowed {CPUS}
> topology            {TEXT}
> ...

## info: NTP window out of range
$ tscaudit info --ntp-seconds 3601
2> tscaudit: error: --ntp-seconds 3601 is out of range [0, 3600] (seconds)
2> see 'tscaudit info --help'
[2]

## info with a realtime calibration
# The realtime calibration runs beside the monotonic one.
$ tscaudit info --ntp-seconds 1
> ...
> tsc frequency       {N} MHz ({TEXT}
> ...
>   monotonic_raw     {N} MHz: 50 readings over {N} s on CPU {CPU}, {TEXT}
> ...
>   realtime          {N} MHz: 50 readings over 1.{N} s on CPU {CPU}, {TEXT}
> ...

## info json keys
# The JSON has the contract's keys.
$ tscaudit info --format json
> {
>   "schema": "tscaudit-info/1",
>   "host": {TEXT},
>   "kernel": {TEXT},
>   "arch": {TEXT},
>   "emulation": {TEXT},
>   "cpu": {
> ...
>   "invariant_tsc": {TEXT},
>   "rdtscp": {TEXT},
>   "hypervisor": {TEXT},
>   "clocksource": {TEXT},
>   "tsc_hz": {N},
>   "tsc_hz_source": {TEXT},
>   "tsc_hz_uncertainty_ppm": {N},
>   "quantum_ticks": {N},
>   "cpus": {
>     "present": "{CPUS}",
>     "online": "{CPUS}",
>     "allowed": "{CPUS}"
>   },
> ...
>   "warnings": [
> ...
> }

# Standard output on a full device: exit 3, naming it.
## measure: standard output full
$ tscaudit measure --cpus 0,0 --rounds 2000 --out - > /dev/full
2> tscaudit: error: cannot write standard output: No space left on device
[3]

## info: standard output full
$ tscaudit info > /dev/full
2> tscaudit: error: cannot write standard output: No space left on device
[3]

## info: JSON on a full standard output
$ tscaudit info --format json > /dev/full
2> tscaudit: error: cannot write standard output: No space left on device
[3]
