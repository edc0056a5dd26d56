/* tscaudit.h: libtscaudit (docs/library.md, tscaudit_quick_check(3), tscaudit_state_open(3),
 * tscaudit_stamp(3)).
 *
 * The quick check: one call, at start-up or from a fleet's agent, that measures whether the
 * time stamp counters of the CPUs the caller may use agree, and how far apart they can be:
 * pinned threads of its own exchange counter readings through one cache line, each pair
 * until its hard band settles, within a budget of milliseconds.
 *
 * The state: the per-CPU table that `tscaudit check --publish` writes (by default the
 * shipped timer's TSCAUDIT_STATE_PATH), opened once, then asked on the hot path, without a
 * system call, a lock or an allocation, for a CPU's offset at a counter value and for the
 * proven order of two stamps read on different CPUs; tscaudit_stamp reads such a stamp (the
 * counter and the CPU it was read on, as one reading). tscaudit_state_get_info says whether the
 * table still describes the machine now (current, aged, another boot, disrupted).
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
#include <stdint.h>

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
  TSCAUDIT_ERROR_SYSTEM = 3,           /* a system call or an allocation failed */
  TSCAUDIT_ERROR_NO_STATE = 4,         /* no state file at the path */
  TSCAUDIT_ERROR_BAD_STATE = 5,        /* a file that is not a state file this library reads:
                                          cut short, torn, damaged, of another major version,
                                          not a regular file, too large (reason says which) */
  TSCAUDIT_ERROR_NO_BAND = 6           /* the table has no band for that CPU */
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

/* "ok", "invalid argument", "unsupported", "system error", "no state", "bad state", "no band",
 * or "unknown error". */
const char *tscaudit_error_name(int code);

/* "synchronized", "not synchronized", "inconclusive", or "unknown verdict". */
const char *tscaudit_verdict_name(int verdict);

/* ---- The published state (docs/library.md, "The state"; tscaudit_state_open(3)) ---- */

/* Where the shipped timer publishes (`tscaudit check --quick --publish`). */
#define TSCAUDIT_STATE_PATH "/var/lib/tscaudit/state"

/* Whether a state still describes the machine now, as tscaudit_state_get_info computes it. */
enum tscaudit_state_status {
  TSCAUDIT_STATE_CURRENT = 0,    /* this boot, the same CPUs and clocksource, within valid_seconds */
  TSCAUDIT_STATE_AGED = 1,       /* older than valid_seconds: the drift bands may have carried a
                                    CPU beyond the tolerance; the bands still hold, wider */
  TSCAUDIT_STATE_OTHER_BOOT = 2, /* published during another boot (or from a run directory,
                                    which records none): the table says nothing of this one */
  TSCAUDIT_STATE_DISRUPTED = 3   /* a CPU came or went, the clocksource changed, a suspend, or
                                    the counter's rate moved: the table may no longer hold */
};

/* What tscaudit_state_order answers, as an int. */
enum tscaudit_order {
  TSCAUDIT_BEFORE = -1,   /* the first stamp was read before the second: proven */
  TSCAUDIT_UNORDERED = 0, /* the bands allow both orders */
  TSCAUDIT_AFTER = 1      /* the first stamp was read after the second: proven */
};

/* A state file, read and decoded: immutable after tscaudit_state_open, so any number of
 * threads may use one at once. */
struct tscaudit_state;

/* Reads the state file at `path` (NULL: TSCAUDIT_STATE_PATH) whole and checks it (size,
 * checksum, version, every field). On success *state is the new object (free it with
 * tscaudit_state_close); on error *state is NULL and `reason` (may be NULL; 256 bytes) says
 * why in one line. TSCAUDIT_ERROR_NO_STATE: no file there; TSCAUDIT_ERROR_BAD_STATE: not a
 * state file this library reads (a FIFO, a directory, over 16 MiB, cut short, torn, another
 * major version, ...); TSCAUDIT_ERROR_SYSTEM: it could not be read (permission, memory);
 * TSCAUDIT_ERROR_INVALID_ARGUMENT: `state` NULL. */
int tscaudit_state_open(const char *path, struct tscaudit_state **state, char reason[256]);

/* Frees what tscaudit_state_open made. NULL: nothing. */
void tscaudit_state_close(struct tscaudit_state *state);

struct tscaudit_state_info {
  size_t size;           /* set by tscaudit_state_info_init: sizeof(struct tscaudit_state_info) */
  int status;            /* an enum tscaudit_state_status, computed now */
  int verdict;           /* the publishing check's enum tscaudit_verdict */
  double bound_ns;       /* every pair that check passed lay within +/- bound_ns; 0 if none */
  double age_seconds;    /* since the table's moment, on CLOCK_BOOTTIME; NaN when unknown */
  double valid_seconds;  /* how long after its moment every band stays within tolerance_ns
                            (the drift bands widen it); +infinity: no drift moves any */
  int cpus;              /* CPUs the table has a band for */
  int reference_cpu;     /* the CPU every offset is against */
  double counter_hz;     /* the counter's frequency; 0 unknown */
  uint64_t as_of_counter; /* the table's moment, on the reference CPU's counter */
  char reason[256];      /* why the status when not current, else the check's own line */
  double tolerance_ns;   /* what valid_seconds keeps the bands within */
  int64_t as_of_realtime_ns; /* the moment on CLOCK_REALTIME; 0 unknown */
  int64_t quantum_ticks; /* a read r stands for a counter value in [r, r + quantum_ticks) */
  /* more fields may follow */
};

/* Fills the first `size` bytes of `info` with zeros (age_seconds NaN, reference_cpu -1), size
 * = `size`. NULL: nothing. Call it through tscaudit_state_info_init. */
void tscaudit_state_info_init_size(struct tscaudit_state_info *info, size_t size);

/* tscaudit_state_info_init_size with the caller's own struct size. */
static inline void tscaudit_state_info_init(struct tscaudit_state_info *info) {
  tscaudit_state_info_init_size(info, sizeof *info);
}

/* What the state says, and its status against the machine now (the boot id, the online CPUs,
 * the clocksource, the clocks and the counter: a few reads of /proc and /sys). Writes at most
 * info->size bytes. TSCAUDIT_ERROR_INVALID_ARGUMENT: a NULL argument or info->size below the
 * first version's. */
int tscaudit_state_get_info(const struct tscaudit_state *state, struct tscaudit_state_info *info);

/* Hard bounds, in ticks, on CPU `cpu`'s counter minus the reference CPU's at the moment that
 * CPU's counter read `counter`: the table's band widened by the drift band over the distance
 * from its moment. No system call, lock or allocation. TSCAUDIT_ERROR_NO_BAND: the table has
 * no band for `cpu` (nothing written); TSCAUDIT_ERROR_INVALID_ARGUMENT: a NULL argument. */
int tscaudit_state_offset(const struct tscaudit_state *state, int cpu, uint64_t counter, double *lo_ticks, double *hi_ticks);

/* Whether stamp a (the counter `counter_a` read on CPU `cpu_a`) was read before or after
 * stamp b: *order a TSCAUDIT_BEFORE or TSCAUDIT_AFTER only where the table proves it, else
 * TSCAUDIT_UNORDERED. On one CPU the counters order the stamps. No system call, lock or
 * allocation. TSCAUDIT_ERROR_NO_BAND: the table has no band for either CPU (*order then
 * TSCAUDIT_UNORDERED); TSCAUDIT_ERROR_INVALID_ARGUMENT: a NULL argument. */
int tscaudit_state_order(const struct tscaudit_state *state, int cpu_a, uint64_t counter_a, int cpu_b, uint64_t counter_b, int *order);

/* Reads the counter and the CPU it was read on as one reading (x86-64: RDTSCP and the
 * TSC_AUX the kernel sets to the CPU's number; aarch64: see tscaudit_stamp(3)). No system
 * call, lock or allocation. TSCAUDIT_ERROR_UNSUPPORTED: this CPU cannot (no RDTSCP);
 * TSCAUDIT_ERROR_INVALID_ARGUMENT: a NULL argument. */
int tscaudit_stamp(int *cpu, uint64_t *counter);

#ifdef __cplusplus
}
#endif

#endif /* TSCAUDIT_H */
