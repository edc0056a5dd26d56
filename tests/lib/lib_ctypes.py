#!/usr/bin/env python3
"""libtscaudit from Python through ctypes, as a script that loads the installed library does.

    lib_ctypes.py LIBRARY LAYOUT STATE

LIBRARY is the installed libtscaudit.so.0; LAYOUT the output of `consumer layout` (the C
compiler's sizes and offsets of the header's structs), against which the ctypes declarations
below are held first: a struct declared wrong here would pass garbage both ways. STATE is
state_writer's fixture (state_fixture.h): opened, asked, ordered, and a stamp read.
Exit 0: every check held; 1: one failed (each printed); 2: the test could not run.
"""
import ctypes
import math
import os
import sys


class Options(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("cpus", ctypes.c_char_p),
        ("budget_seconds", ctypes.c_double),
        ("tolerance_ns", ctypes.c_double),
        ("max_bound_ns", ctypes.c_double),
    ]


class Result(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("verdict", ctypes.c_int),
        ("bound_ns", ctypes.c_double),
        ("proven_offset_ns", ctypes.c_double),
        ("worst_a", ctypes.c_int),
        ("worst_b", ctypes.c_int),
        ("cpus", ctypes.c_int),
        ("pairs", ctypes.c_int),
        ("elapsed_seconds", ctypes.c_double),
        ("reason", ctypes.c_char * 256),
        ("bound_ticks", ctypes.c_double),
        ("counter_hz", ctypes.c_double),
    ]


class StateInfo(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("status", ctypes.c_int),
        ("verdict", ctypes.c_int),
        ("bound_ns", ctypes.c_double),
        ("age_seconds", ctypes.c_double),
        ("valid_seconds", ctypes.c_double),
        ("cpus", ctypes.c_int),
        ("reference_cpu", ctypes.c_int),
        ("counter_hz", ctypes.c_double),
        ("as_of_counter", ctypes.c_uint64),
        ("reason", ctypes.c_char * 256),
        ("tolerance_ns", ctypes.c_double),
        ("as_of_realtime_ns", ctypes.c_int64),
        ("quantum_ticks", ctypes.c_int64),
    ]


OK, INVALID_ARGUMENT, UNSUPPORTED = 0, 1, 2
NO_STATE, BAD_STATE, NO_BAND = 4, 5, 6
STATE_CURRENT = 0
BEFORE, UNORDERED, AFTER = -1, 0, 1
FIXTURE_STEP_TICKS, FIXTURE_HALF_TICKS, FIXTURE_BOUND_NS = 100.0, 5.0, 1000.0  # state_fixture.h
SYNCHRONIZED, NOT_SYNCHRONIZED, INCONCLUSIVE = 0, 1, 2
VERDICT_NAMES = {SYNCHRONIZED: "synchronized", NOT_SYNCHRONIZED: "not synchronized", INCONCLUSIVE: "inconclusive"}
ERRNO_SENTINEL = 12345

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL " + what, file=sys.stderr)


def check_layout(path):
    """The ctypes structs against the C compiler's: the same size, the same fields in the same
    order, each at C's offset with C's size."""
    structs = {"tscaudit_options": Options, "tscaudit_result": Result, "tscaudit_state_info": StateInfo}
    named = {name: [] for name in structs}
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) == 2:
                size = ctypes.sizeof(structs[words[0]])
                check(size == int(words[1]), f"sizeof {words[0]}: ctypes {size}, C {words[1]}")
            elif len(words) == 3:
                struct, field = words[0].split(".")
                named[struct].append(field)
                declared = getattr(structs[struct], field, None)
                if declared is not None:
                    check((declared.offset, declared.size) == (int(words[1]), int(words[2])),
                          f"{struct}.{field}: ctypes at {declared.offset} size {declared.size}, "
                          f"C at {words[1]} size {words[2]}")
    for struct, cls in structs.items():
        declared = [f[0] for f in cls._fields_]
        check(named[struct] == declared, f"{struct}: C has the fields {named[struct]}, ctypes {declared}")


def check_state(lib, path):
    """The fixture through ctypes: open, info, an offset and an order at the bands' edge, a
    missing file, a stamp."""
    lib.tscaudit_state_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p]
    lib.tscaudit_state_close.argtypes = [ctypes.c_void_p]
    lib.tscaudit_state_close.restype = None
    lib.tscaudit_state_info_init_size.argtypes = [ctypes.POINTER(StateInfo), ctypes.c_size_t]
    lib.tscaudit_state_info_init_size.restype = None
    lib.tscaudit_state_get_info.argtypes = [ctypes.c_void_p, ctypes.POINTER(StateInfo)]
    lib.tscaudit_state_offset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64,
                                          ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double)]
    lib.tscaudit_state_order.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64, ctypes.c_int, ctypes.c_uint64,
                                         ctypes.POINTER(ctypes.c_int)]
    lib.tscaudit_stamp.argtypes = [ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_uint64)]

    state = ctypes.c_void_p()
    reason = ctypes.create_string_buffer(256)
    rc = lib.tscaudit_state_open(path.encode(), ctypes.byref(state), reason)
    check(rc == OK and state.value is not None, f"open {path}: rc {rc}: {reason.value.decode()}")
    if rc != OK:
        return
    info = StateInfo()
    lib.tscaudit_state_info_init_size(ctypes.byref(info), ctypes.sizeof(StateInfo))
    rc = lib.tscaudit_state_get_info(state, ctypes.byref(info))
    print(f"state: rc {rc}, status {info.status}, bound {info.bound_ns} ns, {info.cpus} CPUs against CPU "
          f"{info.reference_cpu}, age {info.age_seconds:.3g} s: {info.reason.decode()}")
    check(rc == OK and info.status == STATE_CURRENT and info.bound_ns == FIXTURE_BOUND_NS and info.cpus >= 1,
          f"info: rc {rc}, status {info.status}, bound {info.bound_ns}, {info.cpus} CPUs")
    cpus = []
    lo, hi = ctypes.c_double(), ctypes.c_double()
    for cpu in range(4096):
        if lib.tscaudit_state_offset(state, cpu, info.as_of_counter, ctypes.byref(lo), ctypes.byref(hi)) == OK:
            k = len(cpus)
            cpus.append(cpu)
            half = FIXTURE_HALF_TICKS if k else 0.0
            check(k * FIXTURE_STEP_TICKS - half - 0.01 < lo.value <= k * FIXTURE_STEP_TICKS - half and
                  k * FIXTURE_STEP_TICKS + half <= hi.value < k * FIXTURE_STEP_TICKS + half + 0.01,
                  f"CPU {cpu}: [{lo.value}, {hi.value}]")
    check(len(cpus) == info.cpus and cpus[0] == info.reference_cpu, f"banded CPUs {cpus}, info {info.cpus}")
    order = ctypes.c_int(7)
    if len(cpus) >= 2:
        a, b, x = cpus[0], cpus[-1], info.as_of_counter + 1000
        edge = int((len(cpus) - 1) * FIXTURE_STEP_TICKS + FIXTURE_HALF_TICKS) + 2
        for gap, want in ((edge + 1, BEFORE), (edge - 1, UNORDERED)):
            rc = lib.tscaudit_state_order(state, a, x, b, x + gap, ctypes.byref(order))
            check(rc == OK and order.value == want, f"CPU {a} then {b} {gap} ticks later: rc {rc}, order {order.value}")
    rc = lib.tscaudit_state_order(state, cpus[0], 1, 99999, 2, ctypes.byref(order))
    check(rc == NO_BAND and order.value == UNORDERED, f"no band: rc {rc}, order {order.value}")
    lib.tscaudit_state_close(state)

    missing = path + ".missing"
    state = ctypes.c_void_p(1)
    rc = lib.tscaudit_state_open(missing.encode(), ctypes.byref(state), reason)
    check(rc == NO_STATE and state.value is None and "no state file" in reason.value.decode(),
          f"open {missing}: rc {rc}, state {state.value}: {reason.value.decode()}")
    lib.tscaudit_state_close(None)

    cpu, counter = ctypes.c_int(-1), ctypes.c_uint64(0)
    rc = lib.tscaudit_stamp(ctypes.byref(cpu), ctypes.byref(counter))
    check(rc == UNSUPPORTED or (rc == OK and cpu.value in os.sched_getaffinity(0)),
          f"stamp: rc {rc}, CPU {cpu.value}")


def main():
    library_path, layout_path, state_path = sys.argv[1], sys.argv[2], sys.argv[3]
    check_layout(layout_path)

    lib = ctypes.CDLL(library_path, use_errno=True)
    lib.tscaudit_options_init.argtypes = [ctypes.POINTER(Options)]
    lib.tscaudit_options_init.restype = None
    lib.tscaudit_quick_check.argtypes = [ctypes.POINTER(Options), ctypes.POINTER(Result)]
    lib.tscaudit_quick_check.restype = ctypes.c_int
    for name in ("tscaudit_version", "tscaudit_error_name", "tscaudit_verdict_name"):
        getattr(lib, name).restype = ctypes.c_char_p
    lib.tscaudit_error_name.argtypes = [ctypes.c_int]
    lib.tscaudit_verdict_name.argtypes = [ctypes.c_int]

    lib.tscaudit_version_number.restype = ctypes.c_uint
    lib.tscaudit_result_init_size.argtypes = [ctypes.POINTER(Result), ctypes.c_size_t]
    lib.tscaudit_result_init_size.restype = None

    version = lib.tscaudit_version().decode()
    check(len(version.split(".")) == 3 and all(p.isdigit() for p in version.split(".")),
          f"tscaudit_version() is '{version}'")
    if len(version.split(".")) == 3 and all(p.isdigit() for p in version.split(".")):
        major, minor, patch = (int(p) for p in version.split("."))
        check(lib.tscaudit_version_number() == major * 10000 + minor * 100 + patch,
              f"tscaudit_version_number() is {lib.tscaudit_version_number()}, tscaudit_version() '{version}'")

    # tscaudit_result_init is inline in the header: from Python, the function it calls, with the
    # size of the struct declared here.
    fresh = Result(size=7, verdict=5, worst_a=3, pairs=9, bound_ns=1.5, reason=b"left over")
    lib.tscaudit_result_init_size(ctypes.byref(fresh), ctypes.sizeof(Result))
    check((fresh.size, fresh.verdict, fresh.worst_a, fresh.worst_b, fresh.pairs, fresh.bound_ns, fresh.reason) ==
          (ctypes.sizeof(Result), INCONCLUSIVE, -1, -1, 0, 0.0, b""),
          f"tscaudit_result_init_size: size {fresh.size}, verdict {fresh.verdict}, worst {fresh.worst_a} -> "
          f"{fresh.worst_b}, {fresh.pairs} pairs, bound {fresh.bound_ns}, reason {fresh.reason!r}")

    def quick_check(options):
        """One call with errno set to the sentinel (ctypes swaps its private errno in and out
        around the call), and the thread's affinity and scheduling read before and after."""
        result = Result()
        result.size = ctypes.sizeof(Result)
        before = os.sched_getaffinity(0)
        scheduling = (os.sched_getscheduler(0), os.sched_getparam(0).sched_priority)
        ctypes.set_errno(ERRNO_SENTINEL)
        rc = lib.tscaudit_quick_check(ctypes.byref(options) if options is not None else None, ctypes.byref(result))
        errno_after = ctypes.get_errno()
        check(errno_after == ERRNO_SENTINEL, f"errno is {errno_after} after the call, it was {ERRNO_SENTINEL}")
        check(os.sched_getaffinity(0) == before, "the calling thread's affinity mask changed")
        check((os.sched_getscheduler(0), os.sched_getparam(0).sched_priority) == scheduling,
              "the calling thread's scheduling policy or priority changed")
        return rc, result

    options = Options()
    lib.tscaudit_options_init(ctypes.byref(options))
    check(options.size == ctypes.sizeof(Options), f"options.size {options.size} after tscaudit_options_init")
    rc, r = quick_check(options)
    reason = r.reason.decode("utf-8")
    print(f"default options: rc {rc} ({lib.tscaudit_error_name(rc).decode()}), verdict {r.verdict}, {r.cpus} CPUs, "
          f"{r.pairs} pairs, bound {r.bound_ns} ns, worst {r.worst_a} -> {r.worst_b}: {reason}")
    check(rc == OK, f"rc {rc}: {reason}")
    check(r.verdict in VERDICT_NAMES, f"verdict {r.verdict}")
    check(lib.tscaudit_verdict_name(r.verdict).decode() == VERDICT_NAMES.get(r.verdict),
          f"tscaudit_verdict_name({r.verdict}) is {lib.tscaudit_verdict_name(r.verdict)}")
    check(reason != "" and "\n" not in reason, f"the reason is empty or more than one line: {reason!r}")
    check(reason.startswith(VERDICT_NAMES.get(r.verdict, "?")), f"the reason does not begin with the verdict: {reason}")
    check(math.isfinite(r.elapsed_seconds) and r.elapsed_seconds > 0, f"elapsed_seconds {r.elapsed_seconds}")
    allowed = os.sched_getaffinity(0)
    if len(allowed) >= 2:
        check(r.cpus == len(allowed), f"{r.cpus} CPUs measured, the thread may use {len(allowed)}")
        check(2 <= r.pairs <= r.cpus * (r.cpus - 1), f"{r.pairs} ordered pairs of {r.cpus} CPUs")
        check(math.isfinite(r.bound_ns) and r.bound_ns > 0, f"bound_ns {r.bound_ns}")
        check(math.isfinite(r.counter_hz) and r.counter_hz > 0, f"counter_hz {r.counter_hz}")
        check(r.worst_a in allowed and r.worst_b in allowed and r.worst_a != r.worst_b,
              f"the worst pair {r.worst_a} -> {r.worst_b} is not two of the thread's CPUs {sorted(allowed)}")
    else:
        check(r.verdict == INCONCLUSIVE and r.pairs == 0, f"one CPU, yet verdict {r.verdict} with {r.pairs} pairs")

    # A refusal crosses the boundary too: rc, and the reason naming the option.
    options.budget_seconds = float("nan")
    rc, r = quick_check(options)
    reason = r.reason.decode("utf-8")
    print(f"budget_seconds NaN: rc {rc}: {reason}")
    check(rc == INVALID_ARGUMENT and "budget" in reason, f"budget_seconds NaN: rc {rc}: {reason}")
    options.budget_seconds = 0
    options.cpus = b"0,x"
    rc, r = quick_check(options)
    reason = r.reason.decode("utf-8")
    print(f"cpus 0,x: rc {rc}: {reason}")
    check(rc == INVALID_ARGUMENT and "0,x" in reason, f"cpus 0,x: rc {rc}: {reason}")

    check_state(lib, state_path)

    if failures:
        print(f"{len(failures)} checks failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
