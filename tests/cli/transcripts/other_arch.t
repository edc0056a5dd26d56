# the other architecture's reads, refused on x86-64
# Known to the analysis, refused for measuring here.
%require arch x86_64

## an aarch64 variant on x86-64
$ tscaudit measure --cpus 0,1 --variant isb_cntvct --out x.csv
2> tscaudit: error: variant 'isb_cntvct' for --variant reads the counter of aarch64; this is x86-64: choose from rdtsc, rdtsc_lfence, lfence_rdtsc, lfence_rdtsc_lfence, rdtscp, rdtscp_lfence, mfence_rdtsc, cpuid_rdtsc
2> see 'tscaudit measure --help'
[2]

## cntvctss on x86-64
$ tscaudit matrix --recv cntvctss --rounds 100
2> tscaudit: error: variant 'cntvctss' for --recv reads the counter of aarch64; this is x86-64: choose from rdtsc, rdtsc_lfence, lfence_rdtsc, lfence_rdtsc_lfence, rdtscp, rdtscp_lfence, mfence_rdtsc, cpuid_rdtsc
2> see 'tscaudit matrix --help'
[2]
