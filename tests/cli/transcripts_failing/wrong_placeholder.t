# The runner's own test: a placeholder matches only what it names ({N} is one number, not a
# CPU list), and the text around it stands for itself.
#= FAIL tests/cli/transcripts_failing/wrong_placeholder.t:17: a CPU list is not a number
#= standard output: line 1 differs:
#=   expected: CPUs {N} took {N} s
#=   actual:   CPUs 0-3 took 1.5 s
#= not ok 2 - a CPU list is not a number
#= FAIL tests/cli/transcripts_failing/wrong_placeholder.t:21: the text around a placeholder
#= not ok 3 - the text around a placeholder

## placeholders that match
$ echo 'CPUs 0-3 took 1.5 s at -2e+06 ppb'
> CPUs {CPUS} took {N} s at {N} ppb

## a CPU list is not a number
$ echo 'CPUs 0-3 took 1.5 s'
> CPUs {N} took {N} s

## the text around a placeholder
$ echo 'CPUs 0-3 took 1.5 s'
> CPUs {CPUS} took {N} ms
