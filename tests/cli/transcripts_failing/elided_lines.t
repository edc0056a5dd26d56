# The runner's own test: "..." stands for lines, but the line after it must still come.
#= FAIL tests/cli/transcripts_failing/elided_lines.t:17: a line after '...' that never comes
#= standard output: expected line 3 not found after '...':
#=   expected: four
#= not ok 2 - a line after '...' that never comes

## lines elided
$ printf 'one\ntwo\nthree\n'
> one
> ...
> three

## a line after '...' that never comes
$ printf 'one\ntwo\nthree\n'
> one
> ...
> four
