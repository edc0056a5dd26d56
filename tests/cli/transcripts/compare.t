# tscaudit compare: two runs of one simulated machine (4 CPUs, CPUs 0 and 1 SMT siblings, so
# CPU 1's band is ±61 ticks): one where CPU 1 moved by 400 ticks, one where nothing moved;
# run directories, report directories and the JSON of check and matrix; exit 0 no proven
# change, 1 changed, 5 nothing to compare, 2 input that is not a run.

## setup: three runs of the machine, CPU 1 moved by 400 ticks in the second
$ tscaudit simulate --topology "synthetic:package:1 core:2 pu:2" --seed 1 --rounds 2000 --out before 2>/dev/null
$ tscaudit simulate --topology "synthetic:package:1 core:2 pu:2" --seed 2 --rounds 2000 --cpu-offset-ticks 1=400 --out moved 2>/dev/null
$ tscaudit simulate --topology "synthetic:package:1 core:2 pu:2" --seed 3 --rounds 2000 --out again 2>/dev/null

## CPU 1 moved: changed, by at least the gap between its bands
$ tscaudit compare before moved
> changed: CPU 1 moved +278 to +522 ticks (+121 to +227 ns) against CPU 0
>   first     before: synchronized to within ±131 ns (301 ticks): all 12 ordered pairs of 4 CPUs have
>             offset bands that contain 0, no detectable drift
>   second    moved: not synchronized: CPU 1 is ahead of the rest (CPUs 0,2-3) by 339 to 461 ticks
>             (147 to 200 ns) (6 of 12 ordered pairs fail; those that pass are within ±131 ns (301
>             ticks))
>   rule      changed only where a CPU's hard offset bands in the two runs are disjoint, by at least
>             the gap between them; ~ where they overlap (nothing proven either way)
>
> Offset of each CPU against CPU 0 (ticks; hard bands)
>    cpu  first band            second band           change
>      0  [0, 0]                [0, 0]                ~
>      1  [-61, 61]             [339, 461]            moved +278 to +522 ticks (+121 to +227 ns)
>      2  [-301, 301]           [-301, 301]           ~
>      3  [-301, 301]           [-301, 301]           ~
2> tscaudit compare: rebuilt from before
2> tscaudit compare: rebuilt from moved
[1]

## the other way: moved down
$ tscaudit compare moved before 2>/dev/null | head -n 1
> changed: CPU 1 moved -278 to -522 ticks (-121 to -227 ns) against CPU 0

## nothing moved: no proven change
$ tscaudit compare before again
> no proven change: the offset bands of the 4 CPUs in both runs overlap (against CPU 0)
>   first     before: synchronized to within ±131 ns (301 ticks): all 12 ordered pairs of 4 CPUs have
>             offset bands that contain 0, no detectable drift
>   second    again: synchronized to within ±131 ns (301 ticks): all 12 ordered pairs of 4 CPUs have
>             offset bands that contain 0, no detectable drift
>   rule      changed only where a CPU's hard offset bands in the two runs are disjoint, by at least
>             the gap between them; ~ where they overlap (nothing proven either way)
>
> Offset of each CPU against CPU 0 (ticks; hard bands)
>    cpu  first band            second band           change
>      0  [0, 0]                [0, 0]                ~
>      1  [-61, 61]             [-61, 61]             ~
>      2  [-301, 301]           [-301, 301]           ~
>      3  [-301, 301]           [-301, 301]           ~
2> tscaudit compare: rebuilt from before
2> tscaudit compare: rebuilt from again

## a move the bands cannot prove: CPU 2's band is ±301 ticks, and 400 ticks leaves them overlapping
$ tscaudit simulate --topology "synthetic:package:1 core:2 pu:2" --seed 4 --rounds 2000 --cpu-offset-ticks 2=400 --out moved2 2>/dev/null
$ tscaudit compare before moved2 2>/dev/null | head -n 1
> no proven change: the offset bands of the 4 CPUs in both runs overlap (against CPU 0)

## check's JSON and matrix's JSON say the same
$ tscaudit check --from before --format json >before.json 2>/dev/null
[0]
$ tscaudit matrix --from moved --format json >moved.json 2>/dev/null
[1]
$ tscaudit compare before.json moved.json | head -n 1
> changed: CPU 1 moved +278 to +522 ticks (+121 to +227 ns) against CPU 0

## JSON for scripts
$ tscaudit compare --format json before.json moved.json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["schema"], d["changed"], d["moved"], [(c["cpu"], c["change"], c["moved_at_least_ticks"]) for c in d["cpus"]])'
> tscaudit-compare/1 True 1 [(0, '~', None), (1, 'moved', 278.0), (2, '~', None), (3, '~', None)]

## nothing in common: a run of other CPUs
$ python3 -c 'import json; print(json.dumps({"cpu_offset_ticks": [{"cpu": 7, "estimate": 0, "lo": 0, "hi": 0}, {"cpu": 8, "estimate": 0, "lo": -5, "hi": 5}], "cpu_offset_reference": 7}))' >other.json
$ tscaudit compare before.json other.json
> nothing to compare: the second run does not hold CPU 0, the first's reference, so no offset of the
>   one can be set against the other
>   first     before.json: synchronized to within ±131 ns (301 ticks): all 12 ordered pairs of 4 CPUs
>             have offset bands that contain 0, no detectable drift
>   second    other.json: no answer recorded
>   rule      changed only where a CPU's hard offset bands in the two runs are disjoint, by at least
>             the gap between them; ~ where they overlap (nothing proven either way)
>
> Offset of each CPU against CPU 0 (ticks; hard bands)
>    cpu  first band            second band           change
>      0  [0, 0]                -                     only in the first
>      1  [-61, 61]             -                     only in the first
>      2  [-301, 301]           -                     only in the first
>      3  [-301, 301]           -                     only in the first
>      7  -                     [0, 0]                only in the second
>      8  -                     [-5, 5]               only in the second
[5]

## input that is not a run
$ echo '{"x": 1' >broken.json
$ tscaudit compare before.json broken.json
2> tscaudit: error: broken.json:2:1: not JSON: syntax error while parsing object - unexpected end of input; expected '}'
[2]
$ echo '{}' >empty.json
$ tscaudit compare before.json empty.json
2> tscaudit: error: empty.json: no per-CPU offsets (cpu_offset_ticks): give a run directory, a report directory, or the JSON of `matrix --format json` or `check --format json`
[2]
$ tscaudit compare before.json missing
2> tscaudit: error: cannot open missing for reading: No such file or directory
[2]
$ tscaudit compare before.json /dev/null
2> tscaudit: error: /dev/null: not a regular file (a character device)
[2]
$ mkdir plain
$ tscaudit compare before plain
2> tscaudit compare: rebuilt from before
2> tscaudit: error: plain: holds no run (a run directory has manifest.json; the --out of matrix or check, run/; a report, matrix/run/; a directory of run files, files with '# a:' and '# b:' lines)
[2]
$ tscaudit compare before
2> tscaudit: error: compare needs at least one SECOND
2> see 'tscaudit compare --help'
[2]
