# The runner's own test: the second case must fail on its second line of output.
#= FAIL tests/cli/transcripts_failing/wrong_line.t:16: a wrong line
#= standard output: line 2 differs:
#=   expected: three
#=   actual:   two
#= not ok 2 - a wrong line

## the right lines
$ printf 'one\ntwo\n'
> one
> two

## a wrong line
$ printf 'one\ntwo\n'
> one
> three
