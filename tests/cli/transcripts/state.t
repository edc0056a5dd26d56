# check --publish and tscaudit state: the published state for programs, and files refused

## publish: not a file
$ tscaudit check --publish -
2> tscaudit: error: --publish '-' must name a file (a binary table for programs, not text)
2> see 'tscaudit check --help'
[2]

## publish: empty name
$ tscaudit check --publish ''
2> tscaudit: error: --publish '' must name a file (a binary table for programs, not text)
2> see 'tscaudit check --help'
[2]

## publish: dry run
$ tscaudit check --dry-run --publish s
2> tscaudit: error: --dry-run measures nothing: there is nothing to publish
2> see 'tscaudit check --help'
[2]

## publish: the metrics file too
$ tscaudit check --openmetrics s --publish s
2> tscaudit: error: --publish s is the --openmetrics file too
2> see 'tscaudit check --help'
[2]

## publish: a missing directory, before measuring
$ tscaudit check --publish missing/s
2> tscaudit: error: cannot create missing/s: No such file or directory
[3]

## publish from a run directory: its moment and boot are unknown
$ tscaudit simulate --topology "synthetic:package:1 core:2 pu:1" --rounds 2000 --seed 3 --cpu-offset-ticks 1=500 --out sim 2>/dev/null
$ tscaudit check --from sim --publish s
> not synchronized: CPU 1 is ahead of the rest (CPU 0) by 199 to 801 ticks (86.5 to 348 ns) (2 of 2
>   ordered pairs fail)
2> tscaudit check: rebuilt from sim
2> tscaudit check: published s (2 CPUs against CPU 0, valid for 17.3 s)
[1]
$ stat -c %a s
> 644
$ tscaudit state s
> other boot: the state records no boot (made from a run directory): it cannot be known to describe
>   this boot
>   published not synchronized, valid for 17.3 s (every CPU within ±697 ns)
>   check     not synchronized: CPU 1 is ahead of the rest (CPU 0) by 199 to 801 ticks (86.5 to 348
>             ns) (2 of 2 ordered pairs fail)
>   file      s
>   moment    by check --from a run directory, its time unknown, boot unknown, clocksource unknown,
>             online CPUs unknown
>   counter   2300000000 Hz, quantum 1 tick; the table holds at CPU 0's counter 1000000098416
>   CPU  offset then (ticks)      drift (ppb)
>   0    [0, 0]                   [0, 0]
>   1    [199, 801]               [-20.08, 20.08]
$ tscaudit state --format json s | head -n 4
> {
>   "schema": "tscaudit-state/1",
>   "file": "s",
>   "status": "other boot",

## publish: a check cut short publishes nothing, and leaves the file as it was
$ cp s before
$ tscaudit check --from tests/data/rundirs/cut_short --publish s
> incomplete, no verdict: the run of pair 0->1 (no '# status:' line after the rounds: the file was cut
>   short (in line 8, which is left out)) is not complete; what was measured already shows that CPU 1
>   is ahead of the rest (CPU 0) by 48 to 52 ticks
2> tscaudit check: rebuilt from tests/data/rundirs/cut_short
2> tscaudit check: not published: the check did not answer; s is as it was
2> tscaudit check: not complete: 1 of 2 pairs' runs are not complete, analyzed as they are: 0->1 (no '#
2>   status:' line after the rounds: the file was cut short (in line 8, which is left out))
[3]
$ cmp s before

## publish: a full device
$ tscaudit check --from sim --publish /dev/full
> not synchronized: CPU 1 is ahead of the rest (CPU 0) by 199 to 801 ticks (86.5 to 348 ns) (2 of 2
>   ordered pairs fail)
2> tscaudit check: rebuilt from sim
2> tscaudit: error: cannot write /dev/full: No space left on device
[3]

## state: no such file
$ tscaudit state nothing
2> tscaudit: error: no state at nothing: nothing was published there (`tscaudit check --quick --publish nothing`, or the shipped tscaudit.timer, publish one)
[2]

## state: not a state file
$ echo hello > hello && tscaudit state hello
2> tscaudit: error: hello: not a tscaudit state file (no "TSCSTATE" at its start)
[2]

## state: empty
$ : > zero && tscaudit state zero
2> tscaudit: error: zero: empty: not a tscaudit state file
[2]

## state: cut short
$ tscaudit check --from sim --publish s 2>/dev/null; head -c 500 s > short && tscaudit state short
> not synchronized: CPU 1 is ahead of the rest (CPU 0) by 199 to 801 ticks (86.5 to 348 ns) (2 of 2
>   ordered pairs fail)
2> tscaudit: error: short: cut short or torn: 500 bytes where its header says 528
[2]

## state: torn (a byte changed)
$ cp s torn && printf 'X' | dd of=torn bs=1 seek=300 conv=notrunc 2>/dev/null && tscaudit state torn
2> tscaudit: error: torn: damaged or torn: its checksum does not match
[2]

## state: a newer major version
$ cp s newer && printf '\002' | dd of=newer bs=1 seek=8 conv=notrunc 2>/dev/null && tscaudit state newer
2> tscaudit: error: newer: state file version 2.0: this reader reads 1.x only (written by a newer tscaudit)
[2]

## state: a FIFO is refused, not waited on
$ mkfifo fifo && tscaudit state fifo
2> tscaudit: error: fifo: not a regular file (a FIFO)
[2]

## state: a directory
$ tscaudit state sim
2> tscaudit: error: sim: not a regular file (a directory)
[2]

## state: bad format
$ tscaudit state --format xml s
2> tscaudit: error: --format 'xml' is not text or json
2> see 'tscaudit state --help'
[2]
