/* tscaudit.h: the quick check of libtscaudit (docs/library.md, tscaudit_quick_check(3)).
 *
 * One call, at start-up or from a fleet's agent, that measures whether the time stamp
 * counters of the CPUs the caller may use agree, and how far apart they can be: pinned
 * threads of its own exchange counter readings through one cache line, each pair until
 * its hard band settles, within a budget of milliseconds.
 *
 * C99 and C++. Every function is safe to call from several threads at once. The library
 * never aborts, never throws, never installs signal handlers, never changes the calling
 * thread's affinity or errno, and writes only the caller's result and its own memory.
 *
 * Versions: the structs begin with their size. A caller built against a newer header may
 * pass larger structs (the fields this library does not know must be zero in options); one
 * built against an older header passes smaller ones, down to the first version's size.
 * TSCAUDIT_VERSION_NUMBER is the header's version, tscaudit_version_number() the library's:
 * a program compares them to learn whether it runs with the library it was built against.
 * libtscaudit.so.0 keeps its name while its ABI only grows (docs/library.md, "Versions").
 */
#ifndef TSCAUDIT_H
#define TSCAUDIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of tscaudit this header belongs to: the project's (CMakeLists.txt), which the
 * library's build checks it against. MINOR and PATCH stay below 100. */
#define TSCAUDIT_VERSION_MAJOR 0
#define TSCAUDIT_VERSION_MINOR 2
#define TSCAUDIT_VERSION_PATCH 0
/* One number that grows with every version, for #if and for comparing with
 * tscaudit_version_number(): 0.2.0 is 200, 1.4.12 would be 10412. */
#define TSCAUDIT_VERSION_NUMBER \
  (TSCAUDIT_VERSION_MAJOR * 10000 + TSCAUDIT_VERSION_MINOR * 100 + TSCAUDIT_VERSION_PATCH)

/* The verdict: the same three answers as `tscaudit check` (exit codes 0, 1 and 5). The
 * functions and the result carry it as an int, whose values these are. */
enum tscaudit_verdict {
  TSCAUDIT_SYNCHRONIZED = 0,     /* every measured pair's band meets the tolerance */
  TSCAUDIT_NOT_SYNCHRONIZED = 1, /* a pair's band proves an offset beyond the tolerance, or a
                                    drift, a step or a run that cannot be judged */
  TSCAUDIT_INCONCLUSIVE = 2      /* no judgement: one CPU, pinning refused, the counter not
                                    readable, a partner that never answered, a bound wider
                                    than max_bound_ns */
};

/* What tscaudit_quick_check returns, as an int: 0 when it answered (the verdict says what). */
enum tscaudit_error {
  TSCAUDIT_OK = 0,
  TSCAUDIT_ERROR_INVALID_ARGUMENT = 1, /* a NULL result, a size too small, options the check
                                          cannot use (reason says which) */
  TSCAUDIT_ERROR_UNSUPPORTED = 2,      /* this machine or build cannot read its counters */
  TSCAUDIT_ERROR_SYSTEM = 3            /* a system call or an allocation failed */
};

struct tscaudit_options {
  size_t size;            /* sizeof(struct tscaudit_options): set by tscaudit_options_init */
  const char *cpus;       /* taskset syntax ("0-3,8"); NULL: the CPUs the calling thread may use */
  double budget_seconds;  /* 0: the default (at most 10 ms of measuring for up to 8 CPUs) */
  double tolerance_ns;    /* 0: every band must contain 0 */
  double max_bound_ns;    /* 0: no limit; else a pass proven only within more is INCONCLUSIVE */
  /* more fields may follow in later versions */
};

struct tscaudit_result {
  size_t size;             /* set by the caller: sizeof(struct tscaudit_result) */
  int verdict;             /* an enum tscaudit_verdict: TSCAUDIT_SYNCHRONIZED, ... */
  double bound_ns;         /* every measured pair's counters agree within +/- bound_ns */
  double proven_offset_ns; /* the smallest offset the worst pair's band proves; 0 if none */
  int worst_a, worst_b;    /* the pair behind them (CPU numbers); -1 if none */
  int cpus, pairs;         /* measured: CPUs, and ordered pairs */
  double elapsed_seconds;  /* wall time of the call */
  char reason[256];        /* one line, as `tscaudit check` words it; set on errors too */
  double bound_ticks;      /* bound_ns in counter ticks */
  double counter_hz;       /* the counter's frequency the figures in ns were made with */
  /* more fields may follow */
};

/* Fills `options` with the defaults: size set, every other field 0 or NULL. NULL: nothing.
 * It writes the first version's struct, and always will (docs/library.md, "Versions"). */
void tscaudit_options_init(struct tscaudit_options *options);

/* Fills the first `size` bytes of `result` as an unanswered result: size = `size`, verdict
 * TSCAUDIT_INCONCLUSIVE, worst_a and worst_b -1, every other field of this library's 0 (reason
 * ""), and any bytes past them, up to `size`, 0. NULL: nothing. Call it through
 * tscaudit_result_init, which passes the size of the struct the caller was built with. */
void tscaudit_result_init_size(struct tscaudit_result *result, size_t size);

/* tscaudit_result_init_size for the caller's own struct: inline, so that `size` is the
 * sizeof of the header the caller compiled, never the library's (which may be larger). */
static inline void tscaudit_result_init(struct tscaudit_result *result) {
  tscaudit_result_init_size(result, sizeof *result);
}

/* Measures and decides. `options` NULL: the defaults. Returns TSCAUDIT_OK when it answered,
 * otherwise an error code, with result->reason saying why wherever result is usable. */
int tscaudit_quick_check(const struct tscaudit_options *options, struct tscaudit_result *result);

/* "0.2.0": the library's version. */
const char *tscaudit_version(void);

/* The library's version as TSCAUDIT_VERSION_NUMBER counts it (200 for 0.2.0): that of the
 * library the program runs with, where the macro is that of the header it was built with. */
unsigned tscaudit_version_number(void);

/* "ok", "invalid argument", "unsupported", "system error", or "unknown error". */
const char *tscaudit_error_name(int code);

/* "synchronized", "not synchronized", "inconclusive", or "unknown verdict". */
const char *tscaudit_verdict_name(int verdict);

#ifdef __cplusplus
}
#endif

#endif /* TSCAUDIT_H */
