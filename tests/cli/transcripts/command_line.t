# the command line: help, commands, options, their errors

## help names the program
# --help names the program and the command in its usage line.
$ tscaudit --help
> tscaudit: are the time stamp counters of all CPUs in this machine synchronized?
> Usage: tscaudit [OPTIONS] COMMAND
>
> Options:
>   -h,--help                   Print this help message and exit
>   --version                   Display program version information and exit
>
> Commands:
>   report    The main job: facts, every pair, read variants, verdict, heatmaps, report.html
>   check     An answer for scripts: exit 0 synchronized, 1 not, 5 inconclusive; the reason
>   compare   Two runs of one machine: which CPU's offset moved, proven by disjoint bands
>   state     What programs see of the published table: its status now, each CPU's band
>   info      Platform facts a measurement depends on, and warnings with advice
>   variants  Which way of reading the TSC to trust here, and what each costs
>   matrix    Every ordered pair of the CPUs: offset, drift and latency matrices, heatmaps
>   monitor   One pair for hours, a line per interval, in memory that does not grow
>   measure   One ordered pair of CPUs, every round saved for analyze
>   analyze   Saved runs, imported rounds or monitor logs: offset, drift, bounds, a verdict per pair
>   simulate  Synthetic rounds of a pair or a whole machine, with the truth to compare
>
> Examples:
>   tscaudit report                  # everything, in ./report/report.html
>   tscaudit check --quick           # in milliseconds: exit 0 synchronized, 1 not
>   tscaudit check --help            # one command's options and examples

## a command's help names the program and the command
# (Its options are worded in the help of each; here: what the help is made of.)
$ tscaudit check --help
> An answer for scripts: exit 0 synchronized, 1 not, 5 inconclusive; the reason
> Usage: tscaudit check [OPTIONS]
>
> Options:
>   -h,--help                   Print this help message and exit
> ...
>   --tolerance TICKS           {TEXT}
> ...
> Examples:
> ...

## unknown command
$ tscaudit frobnicate
2> tscaudit: error: unknown command 'frobnicate' (commands: report, check, compare, state, info, variants, matrix, monitor, measure, analyze, simulate)
2> see 'tscaudit --help'
[2]

## a command's help ends with its examples
$ tscaudit matrix --help
> Every ordered pair of the CPUs: offset, drift and latency matrices, heatmaps
> Usage: tscaudit matrix [OPTIONS]
> ...
>   --rounds N                  {TEXT}
> ...
>   --budget SECONDS            {TEXT}
> ...
> Examples:
>   # every pair of every CPU, kept in ./m
>   tscaudit matrix --out m
>   # the outputs again, from m's rounds
>   tscaudit matrix --from m/run --out m2
>   # a 256-CPU plan
>   tscaudit matrix --dry-run --topology "synthetic:package:2 core:64 pu:2"

## help COMMAND prints the command's help
$ tscaudit help check | head -2
> An answer for scripts: exit 0 synchronized, 1 not, 5 inconclusive; the reason
> Usage: tscaudit check [OPTIONS]
$ tscaudit help check > help.txt && tscaudit check --help | diff help.txt - && echo the same
> the same

## no command
# Command-line errors in the tool's words, each ending with the help that answers it.
$ tscaudit
2> tscaudit: error: which command? give one of report, check, compare, state, info, variants, matrix, monitor, measure, analyze or simulate
2> see 'tscaudit --help'
[2]

## an option given twice
$ tscaudit check --out a --out b
2> tscaudit: error: --out is given more than once: give it once
2> see 'tscaudit check --help'
[2]

## analyze without a file
$ tscaudit analyze
2> tscaudit: error: analyze needs at least one FILE
2> see 'tscaudit analyze --help'
[2]

## an unknown option
$ tscaudit matrix --bugdet 5
2> tscaudit: error: unknown option --bugdet for matrix (did you mean --budget?)
2> see 'tscaudit matrix --help'
[2]

## an unknown option before the command
$ tscaudit --verbose
2> tscaudit: error: unknown option --verbose for tscaudit (give the command first: tscaudit COMMAND [OPTIONS])
2> see 'tscaudit --help'
[2]

## an option without its value
$ tscaudit monitor --cpus
2> tscaudit: error: --cpus needs a value: --cpus A,B
2> see 'tscaudit monitor --help'
[2]

## an argument no command takes
$ tscaudit report now
2> tscaudit: error: unexpected argument 'now' for report (it takes options only)
2> see 'tscaudit report --help'
[2]

## a misspelt command
$ tscaudit chek
2> tscaudit: error: unknown command 'chek' (did you mean check?) (commands: report, check, compare, state, info, variants, matrix, monitor, measure, analyze, simulate)
2> see 'tscaudit --help'
[2]

## a value refused names the command's help
$ tscaudit report --visits 0
2> tscaudit: error: --visits 0 is out of range [1, 1000]
2> see 'tscaudit report --help'
[2]

## a bad duration
# Durations: one rule for every duration option (a plain number in the option's unit, or
# with ms, s, m or h).
$ tscaudit check --budget 90x
2> tscaudit: error: --budget '90x' is not a duration > 0 (seconds, or a number with ms, s, m or h: 500ms, 90s, 2m, 1h)
2> see 'tscaudit check --help'
[2]

## a timeout with its unit
$ tscaudit measure --cpus 0,1 --timeout-ms 2h --out x.csv
2> tscaudit: error: --timeout-ms 2h is out of range [1 ms, 1 h]
2> see 'tscaudit measure --help'
[2]

## info: NTP window with its unit
$ tscaudit info --ntp-seconds 2h
2> tscaudit: error: --ntp-seconds 2h is out of range [0, 3600] (seconds)
2> see 'tscaudit info --help'
[2]
