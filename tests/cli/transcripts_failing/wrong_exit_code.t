# The runner's own test: the second case must fail on its exit code.
#= FAIL tests/cli/transcripts_failing/wrong_exit_code.t:12: a wrong exit code
#= exit code 3, expected 2
#= not ok 2 - a wrong exit code

## the right exit code
$ exit 2
[2]

## a wrong exit code
$ exit 3
[2]
