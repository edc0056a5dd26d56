#!/usr/bin/env python3
"""How often analyze finds offset steps of a given size (docs/method.md §6.4).

Simulates RUNS seeded runs, each with 1 to 3 offset steps whose sizes are drawn from
[MIN, MAX] ticks (either sign), at least 6 % of the run apart, with q 1 or 26, drift 0,
+20 or -5 ppm, 50,000 or 200,000 rounds and, in about 30 % of the runs, early receive reads
on b (rate 0.001, 800 to 1000 ticks early). Each run is analyzed and compared with its truth:

  all      every true step proven, and nothing else (no violation left where no read was early)
  some     fewer steps proven than there are, none invented
  whole    no step proven: the run is reported whole
  wrong    more steps proven than there are, or violations left in a run without early reads

Usage: scripts/steps-study.py [--tool build/tscaudit] [--min 300] [--max 420] [--runs 60] [--seed 1]
Prints one line per run that is 'wrong', then the counts. Exit 0 always: a study, not a test.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile


def one_run(tool, rng, lo, hi, work):
    q = rng.choice([1, 26])
    drift_ppb = rng.choice([0, 20000, -5000])
    rounds = rng.choice([50000, 200000])
    count = rng.randint(1, 3)
    steps = []
    while len(steps) < count:
        at = rng.uniform(0.02, 0.98)
        if all(abs(at - a) >= 0.06 for _, a in steps):
            steps.append((rng.choice([-1, 1]) * rng.uniform(lo, hi), at))
    early = rng.random() < 0.3
    run, truth = os.path.join(work, "run.csv"), os.path.join(work, "truth.json")
    args = [tool, "simulate", "--rounds", str(rounds), "--seed", str(rng.randint(1, 10**6)),
            "--quantum-ticks", str(q), "--drift-ppb", str(drift_ppb), "--offset-ticks", "-300",
            "--steps", ",".join(f"{s:.3f}@{a:.5f}" for s, a in steps), "--out", run, "--truth", truth]
    if early:
        args += ["--early-t2-rate", "0.001", "--early-t2-min-ticks", "800", "--early-t2-max-ticks", "1000"]
    subprocess.run(args, check=True, capture_output=True)
    out = subprocess.run([tool, "analyze", "--format", "json", run], capture_output=True, text=True)
    pair = json.loads(out.stdout)["pairs"][0]
    with open(truth) as f:
        true_steps = len(json.load(f)["truth"]["steps"])
    found = len(pair["steps"])
    violations = pair["classes"]["fwd"]["causality_violation"] + pair["classes"]["rev"]["causality_violation"]
    if found > true_steps or (not early and found == true_steps and violations > 0):
        return "wrong", " ".join(args[1:])
    if found == true_steps:
        return "all", None
    return ("whole" if found == 0 else "some"), None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tool", default="build/tscaudit")
    p.add_argument("--min", type=float, default=300)
    p.add_argument("--max", type=float, default=420)
    p.add_argument("--runs", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = random.Random(a.seed)
    counts = {"all": 0, "some": 0, "whole": 0, "wrong": 0}
    with tempfile.TemporaryDirectory() as work:
        for _ in range(a.runs):
            kind, command = one_run(a.tool, rng, a.min, a.max, work)
            counts[kind] += 1
            if command:
                print("wrong: tscaudit", command, flush=True)
    print(f"steps of {a.min:g} to {a.max:g} ticks, {a.runs} runs (seed {a.seed}): "
          + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
