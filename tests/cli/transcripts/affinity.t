# a CPU outside the affinity mask
# taskset leaves the process only CPU 0; nothing is written.
%require command taskset
%require cpus 2

## CPU outside the affinity mask
$ taskset -c 0 tscaudit measure --cpus 0,1 --out x.csv
2> tscaudit: error: CPU 1 is outside this process's affinity mask (allowed: 0)
2> see 'tscaudit measure --help'
[2]
$ ls x.csv
2> ls: cannot access 'x.csv': No such file or directory
[2]
