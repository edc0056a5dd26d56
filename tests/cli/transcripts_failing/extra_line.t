# The runner's own test: the output goes on after the lines the transcript expects.
#= FAIL tests/cli/transcripts_failing/extra_line.t:8: an extra line
#= standard output: output goes on after the expected lines:
#=   actual:   two
#= not ok 1 - an extra line

## an extra line
$ printf 'one\ntwo\n'
> one
