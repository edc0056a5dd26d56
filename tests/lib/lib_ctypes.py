#!/usr/bin/env python3
"""libtscaudit from Python through ctypes, as a script that loads the installed library does.

    lib_ctypes.py LIBRARY LAYOUT

LIBRARY is the installed libtscaudit.so.0; LAYOUT the output of `consumer layout` (the C
compiler's sizes and offsets of the header's structs), against which the ctypes declarations
below are held first: a struct declared wrong here would pass garbage both ways.
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


OK, INVALID_ARGUMENT = 0, 1
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
    structs = {"tscaudit_options": Options, "tscaudit_result": Result}
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


def main():
    library_path, layout_path = sys.argv[1], sys.argv[2]
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

    if failures:
        print(f"{len(failures)} checks failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
