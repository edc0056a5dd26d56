#!/usr/bin/env python3
"""Printable, everywhere: a path that holds a line end, an escape sequence and a byte that is
not UTF-8 goes through every message that quotes a path, and reaches the terminal escaped.

    printable_paths.py TSCAUDIT WORKDIR

Every command below is given files and directories under a directory named EVIL (bytes
"evil\\n\\x1b[31m\\xff"): what it reads, what it writes, what is missing, what is not of its
kind, and names a hostile manifest records (its host). Each message must quote the path as
the printable-text function writes it (docs/formats.md: bytes outside printable ASCII as
\\xNN), and no output (standard output, standard error, the report's text) may hold a control
byte but the line end, DEL, or a byte that is not UTF-8. Exit 0 when every case holds; 1 with
every failure named.
"""
import json
import os
import shutil
import subprocess
import sys

TSCAUDIT, WORK = sys.argv[1], sys.argv[2]
EVIL = b"evil\n\x1b[31m\xff"
SHOWN = "evil\\x0a\\x1b[31m\\xff"  # the printable text of EVIL
failures = []

shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
os.chdir(WORK)
os.mkdir(EVIL)


def p(*parts):
    """A path under EVIL, as bytes."""
    return os.path.join(EVIL, *[x.encode() if isinstance(x, str) else x for x in parts])


def unsafe(data):
    """The first byte that must not reach a terminal, as text; None when there is none."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"a byte that is not UTF-8 at {e.start}"
    for i, c in enumerate(text):
        if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F:
            return f"control character U+{ord(c):04X} at {i}"
    return None


def case(name, args, expect, rc=None, env=None, files=()):
    """Runs tscaudit ARGS; every output must be safe, and `expect` (text) must be in stderr or
    stdout, with the path shown escaped."""
    result = subprocess.run([TSCAUDIT.encode()] + list(args), capture_output=True, env=env)
    outputs = {"stdout": result.stdout, "stderr": result.stderr}
    for f in files:
        with open(f, "rb") as fh:
            outputs[f.decode(errors="replace")] = fh.read()
    for where, data in outputs.items():
        bad = unsafe(data)
        if bad:
            failures.append(f"{name}: {where} holds {bad}: {data[:300]!r}")
    # Messages go on over continuation lines: read them as one.
    said = " ".join(d.decode(errors="replace") for d in outputs.values()).replace("\n  ", " ")
    if expect not in said:
        failures.append(f"{name}: '{expect}' not said: {said[:600]!r}")
    if rc is not None and result.returncode != rc:
        failures.append(f"{name}: exit {result.returncode}, expected {rc}")


topology = "synthetic:package:1 core:2 pu:1"
# Writing: a machine, a one-pair simulation, a matrix, a check's metrics, a report.
case("simulate --topology", ["simulate", "--topology", topology, "--rounds", "300", "--out", p("m")],
     f"wrote {SHOWN}/m: 2 CPUs", rc=0)
case("simulate one pair", ["simulate", "--rounds", "200", "--out", p("run.csv"), "--truth", p("t.json")], "", rc=0)
case("matrix --from --out", ["matrix", "--from", p("m"), "--out", p("mo")], f"rebuilt from {SHOWN}/m", rc=0)
case("matrix --out: wrote", ["matrix", "--from", p("m"), "--out", p("mo")], f"wrote {SHOWN}/mo/matrix.json", rc=0)
case("check --from D/run", ["check", "--from", p("mo")], f"rebuilt from {SHOWN}/mo/run (the run of the matrix in {SHOWN}/mo)")
case("check --openmetrics", ["check", "--from", p("m"), "--openmetrics", p("c.prom")], f"wrote {SHOWN}/c.prom", rc=0)
case("report --from", ["report", "--from", p("m"), "--out", p("r")], f"wrote {SHOWN}/r/report.md and {SHOWN}/r/report.html",
     files=[p("r", "report.md")])
case("report: where it is", ["report", "--from", p("m"), "--out", p("r")], f"report: {SHOWN}/r/report.html")
case("report: one run", ["report", "--from", p("m"), "--out", p("r")], f"rebuilt from one run ({SHOWN}/m)")
case("matrix without gnuplot", ["matrix", "--from", p("m"), "--out", p("mo")], f"not drawn in {SHOWN}/mo:",
     env={"PATH": "/nonexistent"})
# Reading: a run file's label, an interval log's, a file that is missing, a directory for a file.
case("analyze: the label", ["analyze", p("run.csv")], f"{SHOWN}/run.csv: ")
case("analyze: missing", ["analyze", p("missing.csv")], f"cannot open {SHOWN}/missing.csv for reading", rc=2)
case("analyze: a directory", ["analyze", p("m")], f"cannot read {SHOWN}/m: it is a directory", rc=2)
case("analyze --out: a missing directory", ["analyze", "--out", p("no", "a.txt"), p("run.csv")],
     f"cannot create {SHOWN}/no/a.txt", rc=3)
with open(p("empty.csv"), "wb"):
    pass
case("analyze: an empty file", ["analyze", p("empty.csv")], f"{SHOWN}/empty.csv: empty file", rc=2)
with open(p("bad.csv"), "wb") as f:
    f.write(b"t1,t2,t3,t4\n1,2,x,4\n")
case("analyze: a malformed line", ["analyze", p("bad.csv")], f"{SHOWN}/bad.csv:2:", rc=2)
case("--from: missing", ["check", "--from", p("none")], f"--from {SHOWN}/none: no such directory", rc=2)
case("--from: a file", ["check", "--from", p("run.csv")], f"--from {SHOWN}/run.csv: not a directory", rc=2)
os.mkdir(p("empty"))
case("--from: holds no run", ["check", "--from", p("empty")], f"{SHOWN}/empty: holds no run", rc=2)
case("--out: a file", ["matrix", "--from", p("m"), "--out", p("run.csv")],
     f"cannot write {SHOWN}/run.csv: it exists and is not a directory", rc=3)
with open(p("mo", "notes.txt"), "wb") as f:
    f.write(b"mine")
case("--out: not its own", ["check", "--from", p("m"), "--out", p("mo")], f"cannot write {SHOWN}/mo: it holds notes.txt", rc=3)
# A name found inside a hostile run directory: the host its manifest records.
shutil.copytree(p("m"), p("hostile"))
with open(p("hostile", "manifest.json")) as f:
    manifest = json.load(f)
manifest["platform"]["host"] = "host\x1b]0;pwned\x07\n"
with open(p("hostile", "manifest.json"), "w") as f:
    json.dump(manifest, f)
case("a manifest's host", ["report", "--from", p("hostile"), "--out", p("hr")], "host\\x1b]0;pwned\\x07\\x0a",
     files=[p("hr", "report.md")])

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("every message quoted its path printable")
