#!/usr/bin/env python3
"""One evidence, one answer: the same evidence to every deciding command and to libtscaudit.

    one_answer.py TSCAUDIT LIBRARY_ANSWER WORKDIR [SIMULATOR]

Each case is evidence on disk (a run directory simulate wrote, edited where the case needs it,
or a plain directory of import tables), or, for one CPU, the live commands on one CPU. Every
deciding command reads it: check (text exit code, JSON, OpenMetrics), matrix (JSON),
report (its exit code, its matrix/matrix.json and report.md), analyze (every pair file, where
the evidence is pair files) and the library's decision (tscaudit_test_library_answer). They
must give one outcome, the exit code of the one table (0 synchronized, 1 not, 5 inconclusive,
3 incomplete), the same bound and the same CPUs off. Exit 0 when every case holds; 1 with
every difference named. SIMULATOR (default TSCAUDIT) makes the evidence: another build's
binary may then be judged on the same evidence.
"""
import json
import os
import re
import shutil
import subprocess
import sys

TSCAUDIT, LIBRARY, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
SIMULATOR = sys.argv[4] if len(sys.argv) > 4 else TSCAUDIT
EXIT = {"synchronized": 0, "not_synchronized": 1, "inconclusive": 5, "incomplete": 3}
# The library has three verdicts: a run cut short is its inconclusive (it is never cut short
# itself: it has no signals).
LIBRARY_VERDICT = {"synchronized": "synchronized", "not_synchronized": "not synchronized",
                   "inconclusive": "inconclusive", "incomplete": "inconclusive"}
problems = []


def run(*args):
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def simulate(name, *args):
    out = os.path.join(WORK, name)
    rc, _, err = run(SIMULATOR, "simulate", "--out", out, *args)
    if rc != 0:
        sys.exit(f"simulate {name} failed ({rc}): {err}")
    return out


def import_tables(name, cpus, rounds, make_args):
    """A plain directory of import tables, one per ordered pair (a != b): simulate's rounds
    with the pair named by # a: and # b: lines and no schema line."""
    out = os.path.join(WORK, name)
    os.makedirs(out)
    for a in cpus:
        for b in cpus:
            if a == b:
                continue
            rc, table, err = run(SIMULATOR, "simulate", "--rounds", rounds, "--seed", 10 * a + b + 1,
                                 "--out", "-", "--truth", os.path.join(WORK, "truth.json"), *make_args(a, b))
            if rc != 0:
                sys.exit(f"simulate {a}->{b} failed ({rc}): {err}")
            table = re.sub(r"# schema: [^\n]*\n# a: 0\n# b: 1\n", f"# a: {a}\n# b: {b}\n", table)
            with open(os.path.join(out, f"pair_{a}_{b}.csv"), "w") as f:
                f.write(table)
    return out


def first_line(out):
    """The first line of a command's text as it was before its wrapping at 100 columns: the
    line and the indented lines that continue it."""
    lines = out.split("\n")
    text = lines[0]
    for line in lines[1:]:
        if not line.startswith("  "):
            break
        text += " " + line.strip()
    return text


def metrics_outcome(text):
    m = re.search(r'\ntscaudit_check_outcome\{outcome="([a-z_]+)"\} 1\n', text)
    return m.group(1) if m else None


def metrics_cpus_off(text):
    return sorted(int(c) for c in re.findall(r'\ntscaudit_cpu_off\{cpu="([0-9]+)"\} 1', text))


def answers_from(evidence, pair_files=False):
    """What every deciding command answers to the run directory (or plain directory) `evidence`."""
    got = {}
    rc, out, err = run(TSCAUDIT, "check", "--from", evidence)
    got["check (text)"] = {"exit": rc, "outcome": None, "first_line": first_line(out)}
    rc, out, err = run(TSCAUDIT, "check", "--from", evidence, "--format", "json")
    try:
        j = json.loads(out)
        got["check (json)"] = {"exit": rc, "outcome": j["outcome"], "bound": j["bound_ticks"], "cpus_off": j["cpus_off"]}
    except ValueError:
        problems.append(f"{evidence}: check --format json gave no JSON ({rc}): {err}")
    rc, out, err = run(TSCAUDIT, "check", "--from", evidence, "--format", "openmetrics")
    got["check (metrics)"] = {"exit": rc, "outcome": metrics_outcome(out), "cpus_off": metrics_cpus_off(out)}
    rc, out, err = run(TSCAUDIT, "matrix", "--from", evidence, "--format", "json")
    try:
        c = json.loads(out)["check"]
        got["matrix (json)"] = {"exit": rc, "outcome": c["outcome"], "bound": c["bound_ticks"], "cpus_off": c["cpus_off"]}
    except (ValueError, KeyError):
        problems.append(f"{evidence}: matrix --format json gave no check ({rc}): {err}")
    report = evidence + ".report"
    rc, out, err = run(TSCAUDIT, "report", "--from", evidence, "--out", report)
    try:
        with open(os.path.join(report, "matrix", "matrix.json")) as f:
            c = json.load(f)["check"]
        with open(os.path.join(report, "report.md")) as f:
            md = f.read()
        got["report"] = {"exit": rc, "outcome": c["outcome"], "bound": c["bound_ticks"], "cpus_off": c["cpus_off"],
                         "first_line": first_line(out)}
        if c["reason"] + "." not in md:
            problems.append(f"{evidence}: report.md does not state the check's reason: {c['reason']}")
    except (OSError, ValueError, KeyError) as e:
        problems.append(f"{evidence}: report --from wrote no matrix.json or report.md ({rc}): {e} {err}")
    if pair_files:
        files = sorted(os.path.join(evidence, f) for f in os.listdir(evidence))
        rc, out, err = run(TSCAUDIT, "analyze", "--format", "json", *files)
        try:
            outcomes = [p["outcome"] for p in json.loads(out)["pairs"]]
            most = next((o for o in ("not_synchronized", "incomplete", "inconclusive") if o in outcomes), "synchronized")
            got["analyze (every pair file)"] = {"exit": rc, "outcome": most}
        except (ValueError, KeyError):
            problems.append(f"{evidence}: analyze --format json gave no JSON ({rc}): {err}")
    rc, out, err = run(LIBRARY, evidence)
    fields = dict(line.split(" ", 1) for line in out.strip().split("\n") if " " in line)
    got["library"] = {"verdict": fields.get("verdict"), "bound": float(fields.get("bound_ticks", "nan"))}
    if rc != 0:
        problems.append(f"{evidence}: the library's answer failed ({rc}): {err}")
    return got


def expect(case, got, outcome, cpus_off=None, first_line=None):
    """Every answer the outcome `outcome`, its exit code, one bound, these CPUs off."""
    bounds = set()
    for who, a in got.items():
        if who == "library":
            if a["verdict"] != LIBRARY_VERDICT[outcome]:
                problems.append(f"{case}: the library says {a['verdict']}, expected {LIBRARY_VERDICT[outcome]}")
            if outcome != "incomplete" and a["bound"] == a["bound"]:
                bounds.add(round(a["bound"], 6))
            continue
        if a.get("outcome") is not None and a["outcome"] != outcome:
            problems.append(f"{case}: {who} says {a['outcome']}, expected {outcome}")
        if a["exit"] != EXIT[outcome]:
            problems.append(f"{case}: {who} exits {a['exit']}, expected {EXIT[outcome]}")
        if "bound" in a:
            bounds.add(round(a["bound"], 6))
        if cpus_off is not None and "cpus_off" in a and a["cpus_off"] != cpus_off:
            problems.append(f"{case}: {who} names CPUs off {a['cpus_off']}, expected {cpus_off}")
        if first_line is not None and "first_line" in a and not re.match(first_line, a["first_line"]):
            problems.append(f"{case}: {who} starts '{a['first_line']}', expected /{first_line}/")
    if len(bounds) > 1:
        problems.append(f"{case}: the bounds differ: {sorted(bounds)}")


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)

# Few rounds: 3 CPUs, one round per ordered pair, as import tables. No verdict rests on one
# round: inconclusive everywhere.
few = import_tables("few_rounds", [0, 1, 2], 1, lambda a, b: [])
expect("few rounds", answers_from(few, pair_files=True), "inconclusive",
       first_line=r"inconclusive: too few rounds to bound the offset \(1 round; at least 2 needed\)")

# One role of every pair in a host's slow regime (its delays four times the other's): the
# pairs' bands over both roles prove what the fast role proves; every answer the same bound.
slow = simulate("slow_role", "--topology", "synthetic:package:1 core:4 pu:1", "--rounds", "2000",
                "--second-role-slowdown", "4")
got = answers_from(slow)
expect("one role slow", got, "synchronized", cpus_off=[])
try:
    with open(os.path.join(slow + ".report", "matrix", "matrix.json")) as f:
        m = json.load(f)
    reach = lambda lo, hi: max(abs(lo), abs(hi))
    cells = [(i, j) for i in range(len(m["cpus"])) for j in range(len(m["cpus"])) if i != j]
    pair_reach = max(reach(m["offset_lo_ticks"][i][j], m["offset_hi_ticks"][i][j]) for i, j in cells)
    role_reach = max(reach(m["role_offset_lo_ticks"][i][j], m["role_offset_hi_ticks"][i][j]) for i, j in cells)
    sources = {m["band_source"][i][j] for i, j in cells}
    bound = got["check (json)"]["bound"]
    if sources != {"both_roles"}:
        problems.append(f"one role slow: the pairs' bands come from {sources}, expected both roles")
    if abs(bound - pair_reach) > 1:
        problems.append(f"one role slow: the bound {bound} is not the widest pair band's reach {pair_reach}")
    if not bound < role_reach / 2:
        problems.append(f"one role slow: the bound {bound} is not far inside the slow roles' {role_reach}")
except (OSError, ValueError, KeyError) as e:
    problems.append(f"one role slow: matrix.json lacks the pairs' bands over both roles: {e!r}")

# Drift: two CPUs whose counters run 20000 ppb apart, as the two roles' pair files.
drift = import_tables("drift", [0, 1], 20000,
                      lambda a, b: ["--drift-ppb", 20000 if a == 0 else -20000, "--gap-ticks", 20000])
expect("drift", answers_from(drift, pair_files=True), "not_synchronized",
       first_line=r"not synchronized: ")

# A package split: 2 packages of 4 CPUs, package 1 600 ticks ahead. Its CPUs are named off.
split = simulate("package_split", "--topology", "synthetic:package:2 core:4 pu:1", "--rounds", "500",
                 "--package-offset-ticks", "1=600")
expect("package split", answers_from(split), "not_synchronized", cpus_off=[4, 5, 6, 7],
       first_line=r"not synchronized: package 1 \(CPUs 4-7\) is ahead of package 0 \(CPUs 0-3\) by ")

# Lost pairs the verdict does not need: CPU 2's rounds file is gone, its pairs as initiator
# lost; the others still link every CPU, so the verdict stands on them and says what is lost.
lost = simulate("lost_some", "--topology", "synthetic:package:1 core:3 pu:1", "--rounds", "2000")
os.remove(os.path.join(lost, "rounds", "cpu-2.zst"))
expect("lost pairs, not needed", answers_from(lost), "synchronized",
       first_line=r"synchronized to within .*: the 4 ordered pairs with rounds over 3 CPUs \(of 6 planned\)")
# Lost pairs the verdict needs: both rounds files of a 2-CPU run gone.
lost_all = simulate("lost_all", "--topology", "synthetic:package:1 core:2 pu:1", "--rounds", "2000")
for cpu in (0, 1):
    os.remove(os.path.join(lost_all, "rounds", f"cpu-{cpu}.zst"))
expect("lost pairs, needed", answers_from(lost_all), "inconclusive",
       first_line=r"inconclusive: 2 ordered pairs of 2 have no rounds \(0->1, 1->0\): lost from the run directory")

# Cut short: a run whose manifest says interrupted. No verdict, whatever the part shows.
cut = simulate("cut_short", "--topology", "synthetic:package:1 core:2 pu:1", "--rounds", "2000")
with open(os.path.join(cut, "manifest.json")) as f:
    manifest = json.load(f)
manifest["status"] = "interrupted"
manifest["detail"] = "interrupted by SIGINT after 3 of 8 slots (3 of 8 pair visits)"
with open(os.path.join(cut, "manifest.json"), "w") as f:
    json.dump(manifest, f)
expect("cut short", answers_from(cut), "incomplete",
       first_line=r"incomplete, no verdict: interrupted by SIGINT after 3 of 8 slots")

# One CPU: the live commands on one CPU (nothing is measured), and the library.
one = {}
rc, out, err = run(TSCAUDIT, "check", "--cpus", "0", "--format", "json", "--openmetrics", os.path.join(WORK, "one.prom"))
try:
    one["check"] = {"exit": rc, "outcome": json.loads(out)["outcome"]}
    with open(os.path.join(WORK, "one.prom")) as f:
        prom = f.read()
    one["check (metrics)"] = {"exit": rc, "outcome": metrics_outcome(prom)}
    if 'tscaudit_check_success{reason="one_cpu"} 0' not in prom:
        problems.append("one CPU: the metrics' reason is not one_cpu")
except (ValueError, OSError) as e:
    problems.append(f"one CPU: check gave no JSON or metrics ({rc}): {e} {err}")
rc, out, err = run(TSCAUDIT, "check", "--quick", "--cpus", "0", "--format", "json")
try:
    one["check --quick"] = {"exit": rc, "outcome": json.loads(out)["outcome"]}
except ValueError:
    problems.append(f"one CPU: check --quick gave no JSON ({rc}): {err}")
rc, out, err = run(TSCAUDIT, "matrix", "--cpus", "0")
one["matrix"] = {"exit": rc, "outcome": None, "first_line": first_line(out)}
rc, out, err = run(TSCAUDIT, "report", "--cpus", "0", "--out", os.path.join(WORK, "one.report"))
one["report"] = {"exit": rc, "outcome": None, "first_line": first_line(out)}
rc, out, err = run(LIBRARY, "--cpus", "0")
fields = dict(line.split(" ", 1) for line in out.strip().split("\n") if " " in line)
one["library"] = {"verdict": fields.get("verdict"), "bound": float(fields.get("bound_ticks", "nan"))}
expect("one CPU", one, "inconclusive", first_line=r"inconclusive: one CPU only \(CPU 0\): there is no other counter")

shutil.rmtree(WORK, ignore_errors=True)
if problems:
    print("one evidence, one answer:\n  " + "\n  ".join(problems))
    sys.exit(1)
print("every deciding command and the library gave one answer to each of 8 cases")
