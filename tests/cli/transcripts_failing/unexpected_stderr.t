# The runner's own test: standard error is compared whole, even where none is expected.
#= FAIL tests/cli/transcripts_failing/unexpected_stderr.t:8: a message nobody expected
#= standard error: output goes on after the expected lines:
#=   actual:   oops
#= not ok 1 - a message nobody expected

## a message nobody expected
$ echo fine; echo oops >&2
> fine
