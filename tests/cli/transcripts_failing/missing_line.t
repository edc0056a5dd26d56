# The runner's own test: the output lacks a line the transcript expects.
#= FAIL tests/cli/transcripts_failing/missing_line.t:11: a missing line
#= standard output: output ends before expected line 3:
#=   expected: three
#= not ok 1 - a missing line

## a missing line
$ printf 'one\ntwo\n'
> one
> two
> three
