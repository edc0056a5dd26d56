# fish completion for tscaudit(1): the commands, each command's options with a few words on
# each, the read variants, the formats, and files or directories where an option names one.
# The `complete` lines below are generated from the command line's tables (`make reference`;
# docs/commands.md, "Reference"); what to offer as an option's value is written here, in
# __tscaudit_value. Installed in fish's vendor_completions.d.
complete -c tscaudit -e
complete -c tscaudit -n __fish_use_subcommand -f -l help -d 'print the help and exit'
complete -c tscaudit -n __fish_use_subcommand -f -l version -d 'print the version and exit'
complete -c tscaudit -n 'not __fish_use_subcommand' -f -l help -d 'print the help and exit'

# __tscaudit_value OPTION: what to offer as OPTION's value, in the command on the line.
function __tscaudit_value
    set -l words (commandline -opc)
    set -l cmd $words[2]
    switch $argv[1]
        case --variant --send --recv
            # The read variants of this machine's architecture (tscaudit refuses the other's).
            switch (uname -m)
                case aarch64 arm64
                    printf '%s\n' cntvct isb_cntvct cntvct_isb isb_cntvct_isb isb_cntvct_dep cntvctss
                case '*'
                    printf '%s\n' rdtsc rdtsc_lfence lfence_rdtsc lfence_rdtsc_lfence rdtscp rdtscp_lfence \
                        mfence_rdtsc cpuid_rdtsc
            end
        case --format
            switch $cmd
                case analyze
                    printf '%s\n' text json csv
                case check
                    printf '%s\n' text json openmetrics
                case '*'
                    printf '%s\n' text json
            end
        case --transport
            printf '%s\n' slot queue
        case --export-cpus
            echo all
        case --from --plot --history
            __fish_complete_directories (commandline -ct)
        case --out
            # A directory where the command writes one, else a file.
            if contains -- $cmd matrix check report variants; or begin
                    test "$cmd" = simulate; and contains -- --topology $words
                end
                __fish_complete_directories (commandline -ct)
            else
                __fish_complete_path (commandline -ct)
            end
        case --truth --openmetrics --topology --publish
            __fish_complete_path (commandline -ct)
            # Any other option takes a number, a list or a duration: nothing to offer.
    end
end

# BEGIN generated from the command line's tables by `make reference`: edit those, not this
# The commands, in the order of `tscaudit --help`, with their summaries.
complete -c tscaudit -n __fish_use_subcommand -f -a report -d 'The main job: facts, every pair, read variants, verdict, heatmaps, report.html'
complete -c tscaudit -n __fish_use_subcommand -f -a check -d 'An answer for scripts: exit 0 synchronized, 1 not, 5 inconclusive; the reason'
complete -c tscaudit -n __fish_use_subcommand -f -a compare -d 'Two runs of one machine: which CPU\'s offset moved, proven by disjoint bands'
complete -c tscaudit -n __fish_use_subcommand -f -a state -d 'What programs see of the published table: its status now, each CPU\'s band'
complete -c tscaudit -n __fish_use_subcommand -f -a info -d 'Platform facts a measurement depends on, and warnings with advice'
complete -c tscaudit -n __fish_use_subcommand -f -a variants -d 'Which way of reading the TSC to trust here, and what each costs'
complete -c tscaudit -n __fish_use_subcommand -f -a matrix -d 'Every ordered pair of the CPUs: offset, drift and latency matrices, heatmaps'
complete -c tscaudit -n __fish_use_subcommand -f -a monitor -d 'One pair for hours, a line per interval, in memory that does not grow'
complete -c tscaudit -n __fish_use_subcommand -f -a measure -d 'One ordered pair of CPUs, every round saved for analyze'
complete -c tscaudit -n __fish_use_subcommand -f -a analyze -d 'Saved runs, imported rounds or monitor logs: offset, drift, bounds, a verdict per pair'
complete -c tscaudit -n __fish_use_subcommand -f -a simulate -d 'Synthetic rounds of a pair or a whole machine, with the truth to compare'
# Each command's options; a value is completed by __tscaudit_value, from the option's name.
complete -c tscaudit -n '__fish_seen_subcommand_from report' -f
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l cpus -x -a '(__tscaudit_value --cpus)' -d 'CPUs to measure, taskset syntax'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l visits -x -a '(__tscaudit_value --visits)' -d 'visits per ordered pair, spread over the whole run'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l rounds -x -a '(__tscaudit_value --rounds)' -d 'measured rounds per visit, not with --budget'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l budget -x -a '(__tscaudit_value --budget)' -d 'the most time measuring may take, on any machine: it...'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l all-pairs -d 'measure every ordered pair, however many CPUs'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l over-budget -d 'measure a plan whose estimate exceeds --budget, whole,...'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l warmup -x -a '(__tscaudit_value --warmup)' -d 'rounds before each visit, discarded'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l timeout-ms -x -a '(__tscaudit_value --timeout-ms)' -d 'longest wait for the partner before a visit is aborted'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l parallel -d 'run disjoint pairs at once'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l sequential -d 'run one pair at a time'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l dry-run -d 'print the plan'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l topology -x -a '(__tscaudit_value --topology)' -d 'with --dry-run, plan for another machine: an hwloc XML...'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l from -x -a '(__tscaudit_value --from)' -d 'measure nothing: rebuild every output from a run directory'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l out -x -a '(__tscaudit_value --out)' -d 'the report directory'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l no-plain -d 'skip the plain-rdtsc matrix'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l no-variants -d 'skip the read variants'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l max-bound -x -a '(__tscaudit_value --max-bound)' -d 'the widest proof accepted, as for check: the pairs not...'
complete -c tscaudit -n '__fish_seen_subcommand_from report' -l variants-rounds -x -a '(__tscaudit_value --variants-rounds)' -d 'rounds per send/recv combination of the read variants'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -f
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l cpus -x -a '(__tscaudit_value --cpus)' -d 'CPUs to measure, taskset syntax'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l variant -x -a '(__tscaudit_value --variant)' -d 'read variant for both sides'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l send -x -a '(__tscaudit_value --send)' -d 'read variant for the send stamps t1, t3'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l recv -x -a '(__tscaudit_value --recv)' -d 'read variant for the receive stamps t2, t4'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l visits -x -a '(__tscaudit_value --visits)' -d 'visits per ordered pair, spread over the whole run'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l rounds -x -a '(__tscaudit_value --rounds)' -d 'measured rounds per visit, not with --budget'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l budget -x -a '(__tscaudit_value --budget)' -d 'the most time measuring may take, on any machine: it...'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l all-pairs -d 'measure every ordered pair, however many CPUs'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l over-budget -d 'measure a plan whose estimate exceeds --budget, whole,...'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l warmup -x -a '(__tscaudit_value --warmup)' -d 'rounds before each visit, discarded'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l timeout-ms -x -a '(__tscaudit_value --timeout-ms)' -d 'longest wait for the partner before a visit is aborted'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l parallel -d 'run disjoint pairs at once'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l sequential -d 'run one pair at a time'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l dry-run -d 'print the plan'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l topology -x -a '(__tscaudit_value --topology)' -d 'with --dry-run, plan for another machine: an hwloc XML...'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l from -x -a '(__tscaudit_value --from)' -d 'measure nothing: rebuild every output from a run directory'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l tolerance -x -a '(__tscaudit_value --tolerance)' -d 'allowed offset: ticks'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l drift-tolerance-ppb -x -a '(__tscaudit_value --drift-tolerance-ppb)' -d 'allowed drift'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l max-bound -x -a '(__tscaudit_value --max-bound)' -d 'the widest proof accepted: ticks'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l format -x -a '(__tscaudit_value --format)' -d 'text, json or openmetrics'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l details -d 'text: the findings, the first 20 failing pairs and every...'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l out -x -a '(__tscaudit_value --out)' -d 'keep the evidence: the matrix directory'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l openmetrics -x -a '(__tscaudit_value --openmetrics)' -d 'also write the metrics for Prometheus to FILE, aside and...'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l export-cpus -x -a '(__tscaudit_value --export-cpus)' -d 'metrics: per-CPU series for at most N CPUs'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l export-pairs -d 'metrics: also four series per ordered pair measured'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l publish -x -a '(__tscaudit_value --publish)' -d 'also write what the check proved for programs to FILE:...'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l history -x -a '(__tscaudit_value --history)' -d 'keep each boot\'s last answer in DIR'
complete -c tscaudit -n '__fish_seen_subcommand_from check' -l quick -d 'the quick check of libtscaudit: a star of pairs, each...'
# compare: its arguments are files
complete -c tscaudit -n '__fish_seen_subcommand_from compare' -l format -x -a '(__tscaudit_value --format)' -d 'text or json'
# state: its arguments are files
complete -c tscaudit -n '__fish_seen_subcommand_from state' -l format -x -a '(__tscaudit_value --format)' -d 'text or json'
complete -c tscaudit -n '__fish_seen_subcommand_from info' -f
complete -c tscaudit -n '__fish_seen_subcommand_from info' -l format -x -a '(__tscaudit_value --format)' -d 'text or json'
complete -c tscaudit -n '__fish_seen_subcommand_from info' -l ntp-seconds -x -a '(__tscaudit_value --ntp-seconds)' -d 'also calibrate the TSC against CLOCK_REALTIME'
complete -c tscaudit -n '__fish_seen_subcommand_from variants' -f
complete -c tscaudit -n '__fish_seen_subcommand_from variants' -l cpus -x -a '(__tscaudit_value --cpus)' -d 'the pair'
complete -c tscaudit -n '__fish_seen_subcommand_from variants' -l rounds -x -a '(__tscaudit_value --rounds)' -d 'rounds per combination, both roles together'
complete -c tscaudit -n '__fish_seen_subcommand_from variants' -l passes -x -a '(__tscaudit_value --passes)' -d 'each combination\'s rounds split over this many...'
complete -c tscaudit -n '__fish_seen_subcommand_from variants' -l all -d 'every send/recv combination'
complete -c tscaudit -n '__fish_seen_subcommand_from variants' -l warmup -x -a '(__tscaudit_value --warmup)' -d 'rounds before each visit, discarded'
complete -c tscaudit -n '__fish_seen_subcommand_from variants' -l control-rounds -x -a '(__tscaudit_value --control-rounds)' -d 'rounds of the same-CPU control'
complete -c tscaudit -n '__fish_seen_subcommand_from variants' -l switch-rounds -x -a '(__tscaudit_value --switch-rounds)' -d 'rounds per half of the run that switches from plain to an...'
complete -c tscaudit -n '__fish_seen_subcommand_from variants' -l timeout-ms -x -a '(__tscaudit_value --timeout-ms)' -d 'longest wait for the partner before a visit is aborted'
complete -c tscaudit -n '__fish_seen_subcommand_from variants' -l format -x -a '(__tscaudit_value --format)' -d 'text or json'
complete -c tscaudit -n '__fish_seen_subcommand_from variants' -l out -x -a '(__tscaudit_value --out)' -d 'directory for variants.json, variants.txt, the plots and...'
complete -c tscaudit -n '__fish_seen_subcommand_from variants' -l save-runs -d 'also keep every combination\'s rounds in --out/runs'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -f
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l cpus -x -a '(__tscaudit_value --cpus)' -d 'CPUs to measure, taskset syntax'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l variant -x -a '(__tscaudit_value --variant)' -d 'read variant for both sides'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l send -x -a '(__tscaudit_value --send)' -d 'read variant for the send stamps t1, t3'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l recv -x -a '(__tscaudit_value --recv)' -d 'read variant for the receive stamps t2, t4'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l visits -x -a '(__tscaudit_value --visits)' -d 'visits per ordered pair, spread over the whole run'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l rounds -x -a '(__tscaudit_value --rounds)' -d 'measured rounds per visit'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l budget -x -a '(__tscaudit_value --budget)' -d 'plan for this long, as check and report do: all pairs or...'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l all-pairs -d 'measure every ordered pair, however many CPUs'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l over-budget -d 'measure a plan whose estimate exceeds --budget, whole,...'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l warmup -x -a '(__tscaudit_value --warmup)' -d 'rounds before each visit, discarded'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l timeout-ms -x -a '(__tscaudit_value --timeout-ms)' -d 'longest wait for the partner before a visit is aborted'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l parallel -d 'run disjoint pairs at once'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l sequential -d 'run one pair at a time'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l dry-run -d 'print the plan'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l topology -x -a '(__tscaudit_value --topology)' -d 'with --dry-run, plan for another machine: an hwloc XML...'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l from -x -a '(__tscaudit_value --from)' -d 'measure nothing: rebuild every output from a run directory'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l format -x -a '(__tscaudit_value --format)' -d 'text or json'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l out -x -a '(__tscaudit_value --out)' -d 'directory for matrix.json, the matrices, heatmaps and...'
complete -c tscaudit -n '__fish_seen_subcommand_from matrix' -l save-runs -d 'also keep every pair\'s rounds in --out/pairs'
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -f
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -l cpus -x -a '(__tscaudit_value --cpus)' -d 'the initiator A and the responder B'
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -l variant -x -a '(__tscaudit_value --variant)' -d 'read variant for both sides'
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -l send -x -a '(__tscaudit_value --send)' -d 'read variant for the send stamps t1, t3'
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -l recv -x -a '(__tscaudit_value --recv)' -d 'read variant for the receive stamps t2, t4'
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -l interval -x -a '(__tscaudit_value --interval)' -d 'length of one interval'
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -l duration -x -a '(__tscaudit_value --duration)' -d 'how long to run'
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -l duty -x -a '(__tscaudit_value --duty)' -d 'the fraction of every interval measured, from its start'
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -l timeout-ms -x -a '(__tscaudit_value --timeout-ms)' -d 'longest wait for the partner\'s message before the run is...'
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -l queue-rounds -x -a '(__tscaudit_value --queue-rounds)' -d 'rounds the queue to the aggregator holds'
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -l out -x -a '(__tscaudit_value --out)' -d 'the interval log'
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -l openmetrics -x -a '(__tscaudit_value --openmetrics)' -d 'also metrics for Prometheus'
complete -c tscaudit -n '__fish_seen_subcommand_from monitor' -l openmetrics-histogram -d 'with --openmetrics, a histogram of every round trip'
complete -c tscaudit -n '__fish_seen_subcommand_from measure' -f
complete -c tscaudit -n '__fish_seen_subcommand_from measure' -l cpus -x -a '(__tscaudit_value --cpus)' -d 'the initiator A and the responder B'
complete -c tscaudit -n '__fish_seen_subcommand_from measure' -l variant -x -a '(__tscaudit_value --variant)' -d 'read variant for both sides'
complete -c tscaudit -n '__fish_seen_subcommand_from measure' -l send -x -a '(__tscaudit_value --send)' -d 'read variant for the send stamps t1, t3'
complete -c tscaudit -n '__fish_seen_subcommand_from measure' -l recv -x -a '(__tscaudit_value --recv)' -d 'read variant for the receive stamps t2, t4'
complete -c tscaudit -n '__fish_seen_subcommand_from measure' -l rounds -x -a '(__tscaudit_value --rounds)' -d 'measured rounds, at most 20000000'
complete -c tscaudit -n '__fish_seen_subcommand_from measure' -l warmup -x -a '(__tscaudit_value --warmup)' -d 'rounds run first and discarded'
complete -c tscaudit -n '__fish_seen_subcommand_from measure' -l transport -x -a '(__tscaudit_value --transport)' -d 'slot'
complete -c tscaudit -n '__fish_seen_subcommand_from measure' -l timeout-ms -x -a '(__tscaudit_value --timeout-ms)' -d 'longest wait for the partner\'s message before the run is...'
complete -c tscaudit -n '__fish_seen_subcommand_from measure' -l out -x -a '(__tscaudit_value --out)' -d 'output file, or - for standard output'
# analyze: its arguments are files
complete -c tscaudit -n '__fish_seen_subcommand_from analyze' -l format -x -a '(__tscaudit_value --format)' -d 'text, json or csv'
complete -c tscaudit -n '__fish_seen_subcommand_from analyze' -l out -x -a '(__tscaudit_value --out)' -d 'output file, or - for standard output'
complete -c tscaudit -n '__fish_seen_subcommand_from analyze' -l plot -x -a '(__tscaudit_value --plot)' -d 'directory for each interval log\'s time series:...'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -f
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l rounds -x -a '(__tscaudit_value --rounds)' -d 'rounds, at most 20000000'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l seed -x -a '(__tscaudit_value --seed)' -d 'random seed'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l quantum-ticks -x -a '(__tscaudit_value --quantum-ticks)' -d 'counter step q'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l no-quantum-metadata -d 'leave quantum_ticks out: analyze infers it'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l offset-ticks -x -a '(__tscaudit_value --offset-ticks)' -d 'offset theta = TSC_b - TSC_a at the run\'s middle'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l drift-ppb -x -a '(__tscaudit_value --drift-ppb)' -d 'rate difference of b\'s counter'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l fwd-base-ticks -x -a '(__tscaudit_value --fwd-base-ticks)' -d 'a->b delay: the floor'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l fwd-exp-mean-ticks -x -a '(__tscaudit_value --fwd-exp-mean-ticks)' -d 'a->b delay: mean of the exponential part'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l fwd-tail-fraction -x -a '(__tscaudit_value --fwd-tail-fraction)' -d 'a->b delay: share with a Pareto(1.5) tail'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l fwd-tail-scale-ticks -x -a '(__tscaudit_value --fwd-tail-scale-ticks)' -d 'a->b delay: Pareto scale'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l rev-base-ticks -x -a '(__tscaudit_value --rev-base-ticks)' -d 'b->a delay: the floor'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l rev-exp-mean-ticks -x -a '(__tscaudit_value --rev-exp-mean-ticks)' -d 'b->a delay: mean of the exponential part'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l rev-tail-fraction -x -a '(__tscaudit_value --rev-tail-fraction)' -d 'b->a delay: share with a Pareto(1.5) tail'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l rev-tail-scale-ticks -x -a '(__tscaudit_value --rev-tail-scale-ticks)' -d 'b->a delay: Pareto scale'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l turnaround-base-ticks -x -a '(__tscaudit_value --turnaround-base-ticks)' -d 'b: t2 to t3, floor'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l turnaround-exp-mean-ticks -x -a '(__tscaudit_value --turnaround-exp-mean-ticks)' -d 'b: t2 to t3, exponential part'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l gap-ticks -x -a '(__tscaudit_value --gap-ticks)' -d 'a: t4 to the next t1, floor'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l gap-exp-mean-ticks -x -a '(__tscaudit_value --gap-exp-mean-ticks)' -d 'a: t4 to the next t1, exponential part'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l early-t2-rate -x -a '(__tscaudit_value --early-t2-rate)' -d 'share of t2 reads'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l early-t2-min-ticks -x -a '(__tscaudit_value --early-t2-min-ticks)' -d 'how early at least'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l early-t2-max-ticks -x -a '(__tscaudit_value --early-t2-max-ticks)' -d 'how early at most'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l early-t4-rate -x -a '(__tscaudit_value --early-t4-rate)' -d 'share of t4 reads'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l early-t4-min-ticks -x -a '(__tscaudit_value --early-t4-min-ticks)' -d 'how early at least'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l early-t4-max-ticks -x -a '(__tscaudit_value --early-t4-max-ticks)' -d 'how early at most'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l tsc-hz -x -a '(__tscaudit_value --tsc-hz)' -d 'frequency written into the metadata'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l step-ticks -x -a '(__tscaudit_value --step-ticks)' -d 'offset jump during the run'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l step-at -x -a '(__tscaudit_value --step-at)' -d 'when the jump happens, as a fraction of the run'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l steps -x -a '(__tscaudit_value --steps)' -d 'several offset jumps, TICKS@FRACTION[,TICKS@FRACTION...]'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l out -x -a '(__tscaudit_value --out)' -d 'the rounds: a file, or - for standard output'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l truth -x -a '(__tscaudit_value --truth)' -d 'the truth as JSON: a file, or - for standard output'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l topology -x -a '(__tscaudit_value --topology)' -d 'simulate a whole machine: "synthetic:package:2 core:16...'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l all-pairs -d 'with --topology, every ordered pair'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l cpu-offset-ticks -x -a '(__tscaudit_value --cpu-offset-ticks)' -d 'with --topology, CPU=TICKS: that CPU\'s offset'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l package-offset-ticks -x -a '(__tscaudit_value --package-offset-ticks)' -d 'with --topology, P=TICKS: the offset of every CPU of...'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l cpu-drift-ppb -x -a '(__tscaudit_value --cpu-drift-ppb)' -d 'with --topology, CPU=PPB: that CPU\'s rate'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l early-reads -x -a '(__tscaudit_value --early-reads)' -d 'with --topology, CPU=RATE[:MIN:MAX]: share of that CPU\'s...'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l step -x -a '(__tscaudit_value --step)' -d 'with --topology, CPU=TICKS[@FRACTION]: that CPU\'s counter...'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l cross-package-skew-ticks -x -a '(__tscaudit_value --cross-package-skew-ticks)' -d 'with --topology, added to every one-way delay from a...'
complete -c tscaudit -n '__fish_seen_subcommand_from simulate' -l second-role-slowdown -x -a '(__tscaudit_value --second-role-slowdown)' -d 'with --topology, FACTOR >= 1: the one-way delays of each...'
# END generated
