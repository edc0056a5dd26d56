/* What a program that uses libtscaudit may rely on after any call (include/tscaudit.h), checked
 * as such a program sees it: through the installed header alone. Shared by the C99 and the C++17
 * consumers (consumer.c, consumer_threads.cpp), so it is written in the language both accept.
 * Each failed check prints one line saying what and where, and counts; the program's exit code
 * says whether any failed. Nothing here judges a timing. */
#ifndef TSCAUDIT_CONSUMER_CHECKS_H
#define TSCAUDIT_CONSUMER_CHECKS_H

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tscaudit.h>

/* A value the library has no reason to leave in errno: if it is still there after the call,
 * the library gave the caller's errno back. */
#define CONSUMER_ERRNO_SENTINEL 12345
/* The affinity masks are allocated for this many CPUs, the most the tool's CPU lists name. */
#define CONSUMER_MAX_CPUS 8192

static int consumer_failures = 0;

/* The reason as printf's "%.*s" takes it: never read past its array, terminated or not. */
#define REASON(r) (int)sizeof (r)->reason, (r)->reason

#define CHECK(cond, ...)                                                  \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);     \
      fprintf(stderr, __VA_ARGS__);                                       \
      fputc('\n', stderr);                                                \
      ++consumer_failures;                                                \
    }                                                                     \
  } while (0)

/* The calling thread's affinity mask. */
struct consumer_mask {
  cpu_set_t *set;
  size_t size;
};

static inline struct consumer_mask consumer_affinity(void) {
  struct consumer_mask m;
  m.set = CPU_ALLOC(CONSUMER_MAX_CPUS);
  m.size = CPU_ALLOC_SIZE(CONSUMER_MAX_CPUS);
  if (m.set == NULL || sched_getaffinity(0, m.size, m.set) != 0) {
    perror("sched_getaffinity");
    exit(2);
  }
  return m;
}

static inline int consumer_same_mask(struct consumer_mask a, struct consumer_mask b) {
  return a.size == b.size && CPU_EQUAL_S(a.size, a.set, b.set);
}

static inline int consumer_mask_count(struct consumer_mask m) { return CPU_COUNT_S(m.size, m.set); }

static inline int consumer_mask_has(struct consumer_mask m, int cpu) {
  return cpu >= 0 && cpu < CONSUMER_MAX_CPUS && CPU_ISSET_S((size_t)cpu, m.size, m.set);
}

/* The lowest CPU in the mask. */
static inline int consumer_first_cpu(struct consumer_mask m) {
  int cpu;
  for (cpu = 0; cpu < CONSUMER_MAX_CPUS; ++cpu) {
    if (consumer_mask_has(m, cpu)) return cpu;
  }
  return -1;
}

/* What one call left behind in the calling thread, besides the result. */
struct consumer_call {
  int rc;
  int errno_after;
  int affinity_kept;
  int scheduling_kept;
};

/* The calling thread's scheduling policy and priority (on Linux, pid 0 is the calling thread). */
struct consumer_scheduling {
  int policy;
  int priority;
};

static inline struct consumer_scheduling consumer_scheduling_now(void) {
  struct consumer_scheduling s;
  struct sched_param param;
  s.policy = sched_getscheduler(0);
  s.priority = sched_getparam(0, &param) == 0 ? param.sched_priority : -1;
  return s;
}

/* tscaudit_quick_check as a program calls it, with the thread's errno set to the sentinel and
 * its affinity and scheduling read before and after (the library promises that none of them
 * changes). Safe to run on any thread: it checks nothing itself, so that a thread's findings
 * are judged by the main thread (consumer_check_call). */
static inline struct consumer_call consumer_quick_check(const struct tscaudit_options *options,
                                                        struct tscaudit_result *result) {
  struct consumer_call c;
  struct consumer_mask before = consumer_affinity();
  struct consumer_mask after;
  const struct consumer_scheduling scheduling = consumer_scheduling_now();
  struct consumer_scheduling scheduling_after;
  errno = CONSUMER_ERRNO_SENTINEL;
  c.rc = tscaudit_quick_check(options, result);
  c.errno_after = errno;
  scheduling_after = consumer_scheduling_now();
  after = consumer_affinity();
  c.affinity_kept = consumer_same_mask(before, after);
  c.scheduling_kept = scheduling.policy == scheduling_after.policy && scheduling.priority == scheduling_after.priority;
  CPU_FREE(before.set);
  CPU_FREE(after.set);
  return c;
}

static inline void consumer_check_call(struct consumer_call c, const char *what) {
  CHECK(c.errno_after == CONSUMER_ERRNO_SENTINEL, "%s: errno is %d after the call, it was %d before", what,
        c.errno_after, CONSUMER_ERRNO_SENTINEL);
  CHECK(c.affinity_kept, "%s: the calling thread's affinity mask changed", what);
  CHECK(c.scheduling_kept, "%s: the calling thread's scheduling policy or priority changed", what);
}

/* The reason is one NUL-terminated line within its array. */
static inline int consumer_reason_ok(const struct tscaudit_result *r) {
  const char *end = (const char *)memchr(r->reason, '\0', sizeof r->reason);
  const char *c;
  if (end == NULL || end == r->reason) return 0;
  /* One printable line: no control character (a caller's CPU list is quoted as \xNN). */
  for (c = r->reason; c != end; ++c) {
    if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7F) return 0;
  }
  return 1;
}

static inline int consumer_finite_positive(double x) { return isfinite(x) && x > 0; }

/* An answer (rc TSCAUDIT_OK) on the CPUs of `allowed`, the calling thread's mask: the verdict is
 * one of three, the reason is that verdict's, and wherever there are two CPUs or more, they were
 * all measured: the pairs, a finite bound, the worst pair among them. */
static inline void consumer_check_answer(int rc, const struct tscaudit_result *r, struct consumer_mask allowed,
                                  const char *what) {
  const int n = consumer_mask_count(allowed);
  const char *name = tscaudit_verdict_name(r->verdict);
  const size_t name_len = strlen(name);
  CHECK(rc == TSCAUDIT_OK, "%s: rc %d (%s): %.*s", what, rc, tscaudit_error_name(rc), REASON(r));
  CHECK(r->verdict == TSCAUDIT_SYNCHRONIZED || r->verdict == TSCAUDIT_NOT_SYNCHRONIZED ||
            r->verdict == TSCAUDIT_INCONCLUSIVE,
        "%s: verdict %d", what, r->verdict);
  CHECK(consumer_reason_ok(r), "%s: the reason is empty, more than one line or not terminated", what);
  /* The reason is worded as `tscaudit check` words it: the verdict first. */
  CHECK(strncmp(r->reason, name, name_len) == 0 && (r->reason[name_len] == ' ' || r->reason[name_len] == ':'),
        "%s: the reason does not begin with the verdict '%s': %.*s", what, name, REASON(r));
  CHECK(consumer_finite_positive(r->elapsed_seconds), "%s: elapsed_seconds %g", what, r->elapsed_seconds);
  CHECK(isfinite(r->proven_offset_ns) && r->proven_offset_ns >= 0, "%s: proven_offset_ns %g", what,
        r->proven_offset_ns);
  if (n >= 2) {
    CHECK(r->cpus == n, "%s: %d CPUs measured, the thread may use %d", what, r->cpus, n);
    CHECK(r->pairs >= 2 && r->pairs <= r->cpus * (r->cpus - 1), "%s: %d ordered pairs of %d CPUs", what, r->pairs,
          r->cpus);
    CHECK(consumer_finite_positive(r->bound_ns), "%s: bound_ns %g", what, r->bound_ns);
    CHECK(consumer_finite_positive(r->bound_ticks), "%s: bound_ticks %g", what, r->bound_ticks);
    CHECK(consumer_finite_positive(r->counter_hz), "%s: counter_hz %g", what, r->counter_hz);
    if (consumer_finite_positive(r->counter_hz)) {
      const double ns = r->bound_ticks * 1e9 / r->counter_hz;
      CHECK(fabs(ns - r->bound_ns) <= 1e-9 * ns, "%s: bound_ns %.17g is not bound_ticks %.17g at %.17g Hz (%.17g)",
            what, r->bound_ns, r->bound_ticks, r->counter_hz, ns);
    }
    CHECK(consumer_mask_has(allowed, r->worst_a) && consumer_mask_has(allowed, r->worst_b) && r->worst_a != r->worst_b,
          "%s: the worst pair %d -> %d is not two of the thread's CPUs", what, r->worst_a, r->worst_b);
    /* With the default tolerance (0) a pass means every band contains 0: nothing is proven. */
    if (r->verdict == TSCAUDIT_SYNCHRONIZED) {
      CHECK(r->proven_offset_ns == 0, "%s: synchronized, yet an offset of %g ns is proven", what,
            r->proven_offset_ns);
    }
  } else {
    CHECK(r->verdict == TSCAUDIT_INCONCLUSIVE && r->pairs == 0,
          "%s: one CPU, yet verdict %d with %d pairs", what, r->verdict, r->pairs);
  }
}

/* The header's version is the library's, and the names are the header's. */
static inline void consumer_check_version(void) {
  char header[64];
  snprintf(header, sizeof header, "%d.%d.%d", TSCAUDIT_VERSION_MAJOR, TSCAUDIT_VERSION_MINOR,
           TSCAUDIT_VERSION_PATCH);
  CHECK(tscaudit_version() != NULL && strcmp(tscaudit_version(), header) == 0,
        "tscaudit_version() is '%s', the header says %s", tscaudit_version() ? tscaudit_version() : "(null)",
        header);
  CHECK(strcmp(tscaudit_error_name(TSCAUDIT_OK), "ok") == 0, "%s", tscaudit_error_name(TSCAUDIT_OK));
  CHECK(strcmp(tscaudit_error_name(TSCAUDIT_ERROR_INVALID_ARGUMENT), "invalid argument") == 0, "%s",
        tscaudit_error_name(TSCAUDIT_ERROR_INVALID_ARGUMENT));
  CHECK(strcmp(tscaudit_error_name(TSCAUDIT_ERROR_UNSUPPORTED), "unsupported") == 0, "%s",
        tscaudit_error_name(TSCAUDIT_ERROR_UNSUPPORTED));
  CHECK(strcmp(tscaudit_error_name(TSCAUDIT_ERROR_SYSTEM), "system error") == 0, "%s",
        tscaudit_error_name(TSCAUDIT_ERROR_SYSTEM));
  CHECK(strcmp(tscaudit_error_name(-7), "unknown error") == 0, "%s", tscaudit_error_name(-7));
  CHECK(strcmp(tscaudit_verdict_name(TSCAUDIT_SYNCHRONIZED), "synchronized") == 0, "%s",
        tscaudit_verdict_name(TSCAUDIT_SYNCHRONIZED));
  CHECK(strcmp(tscaudit_verdict_name(TSCAUDIT_NOT_SYNCHRONIZED), "not synchronized") == 0, "%s",
        tscaudit_verdict_name(TSCAUDIT_NOT_SYNCHRONIZED));
  CHECK(strcmp(tscaudit_verdict_name(TSCAUDIT_INCONCLUSIVE), "inconclusive") == 0, "%s",
        tscaudit_verdict_name(TSCAUDIT_INCONCLUSIVE));
  CHECK(strcmp(tscaudit_verdict_name(3), "unknown verdict") == 0, "%s", tscaudit_verdict_name(3));
}

/* One line a person reads in the test's output: what the call answered. */
static inline void consumer_print(const char *what, int rc, const struct tscaudit_result *r) {
  printf("%s: rc %d (%s), verdict %d, %d CPUs, %d pairs, bound %g ns, worst %d -> %d: %.*s\n", what, rc,
         tscaudit_error_name(rc), r->verdict, r->cpus, r->pairs, r->bound_ns, r->worst_a, r->worst_b, REASON(r));
}

#endif /* TSCAUDIT_CONSUMER_CHECKS_H */
