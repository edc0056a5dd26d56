#!/usr/bin/env python3
"""The published table against a simulated machine's truth, as a program reads it.

    state_truth.py LIBTSCAUDIT STATE TRUTH_JSON

STATE is what `tscaudit check --from SIM --publish STATE` wrote of the machine that
`tscaudit simulate --topology ... --out SIM` made, TRUTH_JSON its truth.json
(tscaudit-machine-truth/1). Through libtscaudit (ctypes): for every CPU, tscaudit_state_offset
at counters across the whole run and beyond it holds the true offset from the reference CPU;
10^6 random pairs of events with known true order get no wrong BEFORE or AFTER from
tscaudit_state_order, and UNORDERED only where the true gap is within the two bands' widths
and two readings (docs/machine.md §10.8). Exit 0 when every check holds, 1 otherwise.
"""
import ctypes
import json
import random
import sys


def main():
    lib = ctypes.CDLL(sys.argv[1])
    state_path, truth_path = sys.argv[2].encode(), sys.argv[3]
    with open(truth_path, encoding="utf-8") as f:
        truth = json.load(f)
    model = truth["model"]
    start = model["start_tick"]
    span = model["visit_spacing_ticks"] * 4  # the run's visits, each over one spacing
    q = model["quantum_ticks"]
    cpus = {c["cpu"]: c for c in truth["cpus"]}
    ref = truth["cpus"][0]["cpu"]  # the first CPU in topology order, the table's reference

    lib.tscaudit_state_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p]
    lib.tscaudit_state_offset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64,
                                          ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double)]
    lib.tscaudit_state_order.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64, ctypes.c_int,
                                         ctypes.c_uint64, ctypes.POINTER(ctypes.c_int)]
    state = ctypes.c_void_p()
    reason = ctypes.create_string_buffer(256)
    rc = lib.tscaudit_state_open(state_path, ctypes.byref(state), reason)
    if rc != 0:
        print(f"FAIL: tscaudit_state_open: {rc}: {reason.value.decode()}")
        return 1

    # x_c(T) = offset_ticks + drift_ppb·1e-9·(T − start): CPU c's counter reads T + x_c(T) at
    # the true time T (analysis/simulate/README.md). θ_c = x_c − x_ref at one T.
    def x(c, t):
        return cpus[c]["offset_ticks"] + cpus[c]["drift_ppb"] * 1e-9 * (t - start)

    def counter(c, t):
        return t + x(c, t)

    failures = 0
    lo, hi = ctypes.c_double(), ctypes.c_double()
    widths = {}
    checked = 0
    for c in cpus:
        widest = 0.0
        for k in range(201):
            t = start - span / 2 + 2 * span * k / 200  # the run and half as much either side
            theta = x(c, t) - x(ref, t)
            rc = lib.tscaudit_state_offset(state, c, int(counter(c, t)), ctypes.byref(lo), ctypes.byref(hi))
            checked += 1
            if rc != 0 or not lo.value - 1 <= theta <= hi.value + 1:
                # one tick either way: the stamp is the counter floored, θ moves by ρ over it
                failures += 1
                if failures <= 10:
                    print(f"FAIL: CPU {c} at t={t:.0f}: rc {rc}, band [{lo.value}, {hi.value}], truth {theta}")
            if start <= t <= start + span:
                widest = max(widest, hi.value - lo.value)
        widths[c] = widest
    print(f"offsets: {checked} counters on {len(cpus)} CPUs, {failures} outside their bands;"
          f" widest band in the run {max(widths.values()):.0f} ticks")

    rng = random.Random(20261202)
    order = ctypes.c_int()
    counts = {-1: 0, 0: 0, 1: 0}
    wrong = loose = 0
    cpu_list = sorted(cpus)
    for _ in range(1000000):
        a, b = rng.choice(cpu_list), rng.choice(cpu_list)
        ta = start + rng.random() * span
        tb = ta + rng.uniform(-5000, 5000) if rng.random() < 0.5 else start + rng.random() * span
        ra = int(counter(a, ta)) // q * q  # a read floored to the counter's lattice
        rb = int(counter(b, tb)) // q * q
        rc = lib.tscaudit_state_order(state, a, ra, b, rb, ctypes.byref(order))
        if rc != 0:
            failures += 1
            continue
        counts[order.value] += 1
        truly = -1 if ta < tb else 1 if ta > tb else 0
        if order.value != 0 and order.value != truly:
            wrong += 1
        if order.value == 0 and a != b and abs(ta - tb) > widths[a] + widths[b] + 2 * (q + 1) + 2:
            loose += 1
    print(f"orders: 10^6 pairs, {counts[-1]} before, {counts[1]} after, {counts[0]} unordered;"
          f" {wrong} wrong, {loose} unordered beyond the bands' widths")
    lib.tscaudit_state_close.argtypes = [ctypes.c_void_p]
    lib.tscaudit_state_close(state)
    return 0 if failures == 0 and wrong == 0 and loose == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
