/* What a program may rely on from libtscaudit's state functions (include/tscaudit.h, "The
 * published state"), checked through the installed header alone against the fixture that
 * state_writer.cpp publishes (state_fixture.h): its numbers give every offset and order
 * exactly. Shared by the C99 and the C++17 consumers; uses consumer_checks.h's CHECK. */
#ifndef TSCAUDIT_CONSUMER_STATE_H
#define TSCAUDIT_CONSUMER_STATE_H

#include "consumer_checks.h"
#include "state_fixture.h"

/* CPU numbers the fixture's table may name: the CPUs a machine of the tests has, and more. */
#define CONSUMER_STATE_MAX_CPU 4096

/* The table's CPUs, ascending, as the library answers offsets for them: the fixture's rank k
 * of each. Returns how many. */
static inline int consumer_state_cpus(const struct tscaudit_state *state, int *cpus, int room) {
  int n = 0, cpu;
  double lo, hi;
  for (cpu = 0; cpu < CONSUMER_STATE_MAX_CPU && n < room; ++cpu) {
    const int rc = tscaudit_state_offset(state, cpu, 0, &lo, &hi);
    if (rc == TSCAUDIT_OK) cpus[n++] = cpu;
    else CHECK(rc == TSCAUDIT_ERROR_NO_BAND, "offset of CPU %d: rc %d (%s)", cpu, rc, tscaudit_error_name(rc));
  }
  return n;
}

/* The fixture, opened from `path`: CURRENT, its fields, each CPU's offset at the moment and a
 * second of ticks later, the orders around the bands' edges, NO_BAND, the arguments. */
static inline void consumer_check_fixture(const char *path) {
  struct tscaudit_state *state = NULL;
  struct tscaudit_state_info info;
  char reason[256];
  int cpus[CONSUMER_STATE_MAX_CPU];
  int n, k, rc, order;
  double lo, hi;
  errno = CONSUMER_ERRNO_SENTINEL;
  rc = tscaudit_state_open(path, &state, reason);
  CHECK(errno == CONSUMER_ERRNO_SENTINEL, "tscaudit_state_open changed errno to %d", errno);
  CHECK(rc == TSCAUDIT_OK && state != NULL, "open %s: rc %d (%s): %s", path, rc, tscaudit_error_name(rc), reason);
  if (state == NULL) return;
  CHECK(reason[0] == '\0', "open: a reason on success: %s", reason);

  memset(&info, 0xA5, sizeof info);
  tscaudit_state_info_init(&info);
  CHECK(info.size == sizeof info && info.reference_cpu == -1 && isnan(info.age_seconds) && info.cpus == 0,
        "tscaudit_state_info_init: size %zu, reference %d, age %g", info.size, info.reference_cpu, info.age_seconds);
  errno = CONSUMER_ERRNO_SENTINEL;
  rc = tscaudit_state_get_info(state, &info);
  CHECK(errno == CONSUMER_ERRNO_SENTINEL, "tscaudit_state_get_info changed errno to %d", errno);
  CHECK(rc == TSCAUDIT_OK, "info: rc %d", rc);
  printf("state %s: status %d, verdict %d, bound %g ns, age %g s, valid %g s, %d CPUs against CPU %d: %s\n", path,
         info.status, info.verdict, info.bound_ns, info.age_seconds, info.valid_seconds, info.cpus,
         info.reference_cpu, info.reason);
  CHECK(info.status == TSCAUDIT_STATE_CURRENT, "status %d: %s", info.status, info.reason);
  CHECK(info.verdict == TSCAUDIT_SYNCHRONIZED && info.bound_ns == FIXTURE_BOUND_NS &&
            info.tolerance_ns == FIXTURE_TOLERANCE_NS && info.counter_hz == FIXTURE_COUNTER_HZ &&
            info.quantum_ticks == FIXTURE_QUANTUM_TICKS,
        "verdict %d, bound %g, tolerance %g, hz %g, quantum %lld", info.verdict, info.bound_ns, info.tolerance_ns,
        info.counter_hz, (long long)info.quantum_ticks);
  CHECK(strcmp(info.reason, FIXTURE_REASON) == 0, "reason '%s'", info.reason);
  CHECK(info.age_seconds >= 0 && info.age_seconds < info.valid_seconds && info.valid_seconds > 1000,
        "age %g s, valid %g s", info.age_seconds, info.valid_seconds);
  CHECK(info.as_of_realtime_ns > 0, "as_of_realtime_ns %lld", (long long)info.as_of_realtime_ns);

  n = consumer_state_cpus(state, cpus, CONSUMER_STATE_MAX_CPU);
  CHECK(n == info.cpus && n >= 1 && cpus[0] == info.reference_cpu, "%d CPUs banded, info says %d, reference %d",
        n, info.cpus, info.reference_cpu);
  for (k = 0; k < n; ++k) {
    const double mid = k * FIXTURE_STEP_TICKS;
    const double half = k == 0 ? 0 : FIXTURE_HALF_TICKS;
    const uint64_t second = (uint64_t)FIXTURE_COUNTER_HZ;
    /* At the moment: the band itself, outward by no more than its rounding. */
    rc = tscaudit_state_offset(state, cpus[k], info.as_of_counter, &lo, &hi);
    CHECK(rc == TSCAUDIT_OK && lo <= mid - half && lo > mid - half - 0.01 && hi >= mid + half &&
              hi < mid + half + 0.01,
          "CPU %d at the moment: rc %d, [%.6f, %.6f], not [%g, %g]", cpus[k], rc, lo, hi, mid - half, mid + half);
    /* 10^9 ticks later, or earlier: widened by the drift, 50 ticks each way (the reference: 0). */
    rc = tscaudit_state_offset(state, cpus[k], info.as_of_counter + second, &lo, &hi);
    CHECK(rc == TSCAUDIT_OK && (k == 0 ? lo == 0 && hi == 0
                                        : fabs(lo - (mid - half - 50)) < 0.01 && fabs(hi - (mid + half + 50)) < 0.01),
          "CPU %d a second later: rc %d, [%.6f, %.6f]", cpus[k], rc, lo, hi);
    rc = tscaudit_state_offset(state, cpus[k], info.as_of_counter - second, &lo, &hi);
    CHECK(rc == TSCAUDIT_OK && (k == 0 ? lo == 0 && hi == 0
                                        : fabs(lo - (mid - half - 50)) < 0.01 && fabs(hi - (mid + half + 50)) < 0.01),
          "CPU %d a second before: rc %d, [%.6f, %.6f]", cpus[k], rc, lo, hi);
  }
  /* Two CPUs: stamp a on the first, b on the last. a came first when b's read is at least
   * (hi_b - lo_a) + quantum + 1 ticks after it; within a tick of that, not proven. */
  if (n >= 2) {
    const int a = cpus[0], b = cpus[n - 1];
    const uint64_t x = info.as_of_counter + 1000;
    const uint64_t edge = (uint64_t)((n - 1) * FIXTURE_STEP_TICKS + FIXTURE_HALF_TICKS + FIXTURE_QUANTUM_TICKS + 1);
    rc = tscaudit_state_order(state, a, x, b, x + edge + 1, &order);
    CHECK(rc == TSCAUDIT_OK && order == TSCAUDIT_BEFORE, "CPU %d then %d, %llu ticks: rc %d, order %d", a, b,
          (unsigned long long)(edge + 1), rc, order);
    rc = tscaudit_state_order(state, b, x + edge + 1, a, x, &order);
    CHECK(rc == TSCAUDIT_OK && order == TSCAUDIT_AFTER, "swapped: rc %d, order %d", rc, order);
    rc = tscaudit_state_order(state, a, x, b, x + edge - 1, &order);
    CHECK(rc == TSCAUDIT_OK && order == TSCAUDIT_UNORDERED, "within the bands: rc %d, order %d", rc, order);
    /* b's counter is ahead by about (n-1)·STEP: equal reads mean b's was read earlier, proven
     * once the offset exceeds the bands' width and the quantum. */
    rc = tscaudit_state_order(state, a, x, b, x, &order);
    CHECK(rc == TSCAUDIT_OK &&
              order == ((n - 1) * FIXTURE_STEP_TICKS - FIXTURE_HALF_TICKS >= FIXTURE_QUANTUM_TICKS + 1 + 0.01
                            ? TSCAUDIT_AFTER
                            : TSCAUDIT_UNORDERED),
          "equal reads: rc %d, order %d", rc, order);
  }
  /* One CPU: its counter orders. */
  rc = tscaudit_state_order(state, cpus[0], 5, cpus[0], 6, &order);
  CHECK(rc == TSCAUDIT_OK && order == TSCAUDIT_BEFORE, "one CPU: rc %d, order %d", rc, order);
  /* No band: a CPU beyond the table, a negative one. */
  order = 7;
  rc = tscaudit_state_order(state, cpus[0], 5, CONSUMER_STATE_MAX_CPU + 1, 6, &order);
  CHECK(rc == TSCAUDIT_ERROR_NO_BAND && order == TSCAUDIT_UNORDERED, "no band: rc %d, order %d", rc, order);
  lo = hi = 42;
  rc = tscaudit_state_offset(state, -1, 0, &lo, &hi);
  CHECK(rc == TSCAUDIT_ERROR_NO_BAND && lo == 42 && hi == 42, "CPU -1: rc %d, [%g, %g]", rc, lo, hi);
  /* The arguments. */
  CHECK(tscaudit_state_offset(NULL, 0, 0, &lo, &hi) == TSCAUDIT_ERROR_INVALID_ARGUMENT, "offset of NULL");
  CHECK(tscaudit_state_offset(state, 0, 0, NULL, &hi) == TSCAUDIT_ERROR_INVALID_ARGUMENT, "offset into NULL");
  CHECK(tscaudit_state_order(state, 0, 0, 0, 0, NULL) == TSCAUDIT_ERROR_INVALID_ARGUMENT, "order into NULL");
  CHECK(tscaudit_state_get_info(NULL, &info) == TSCAUDIT_ERROR_INVALID_ARGUMENT, "info of NULL");
  CHECK(tscaudit_state_get_info(state, NULL) == TSCAUDIT_ERROR_INVALID_ARGUMENT, "info into NULL");
  info.size = sizeof info - 1;
  CHECK(tscaudit_state_get_info(state, &info) == TSCAUDIT_ERROR_INVALID_ARGUMENT, "info smaller than the first version");
  CHECK(tscaudit_state_open(path, NULL, reason) == TSCAUDIT_ERROR_INVALID_ARGUMENT && reason[0] != '\0',
        "open into NULL: %s", reason);
  CHECK(strcmp(tscaudit_error_name(TSCAUDIT_ERROR_NO_STATE), "no state") == 0 &&
            strcmp(tscaudit_error_name(TSCAUDIT_ERROR_BAD_STATE), "bad state") == 0 &&
            strcmp(tscaudit_error_name(TSCAUDIT_ERROR_NO_BAND), "no band") == 0,
        "the state's error names: %s, %s, %s", tscaudit_error_name(TSCAUDIT_ERROR_NO_STATE),
        tscaudit_error_name(TSCAUDIT_ERROR_BAD_STATE), tscaudit_error_name(TSCAUDIT_ERROR_NO_BAND));
  tscaudit_state_close(state);
  tscaudit_state_close(NULL); /* documented as harmless */
}

/* tscaudit_stamp: a counter and the CPU it was read on. Pinned to each CPU the process may
 * use in turn, the stamp names that CPU; two stamps on one CPU do not go backwards. */
static inline void consumer_check_stamp(void) {
  struct consumer_mask allowed = consumer_affinity();
  cpu_set_t *one = CPU_ALLOC(CONSUMER_MAX_CPUS);
  int cpu = -1, cpu2 = -1, c, rc, tried = 0;
  uint64_t t = 0, t2 = 0;
  rc = tscaudit_stamp(&cpu, &t);
  if (rc == TSCAUDIT_ERROR_UNSUPPORTED) {
    printf("tscaudit_stamp: unsupported here (no RDTSCP)\n");
  } else {
    CHECK(rc == TSCAUDIT_OK && cpu >= 0, "stamp: rc %d, CPU %d", rc, cpu);
    for (c = 0; c < CONSUMER_MAX_CPUS && one != NULL; ++c) {
      if (!CPU_ISSET_S((size_t)c, allowed.size, allowed.set)) continue;
      CPU_ZERO_S(allowed.size, one);
      CPU_SET_S((size_t)c, allowed.size, one);
      if (sched_setaffinity(0, allowed.size, one) != 0) continue;
      ++tried;
      rc = tscaudit_stamp(&cpu, &t);
      CHECK(rc == TSCAUDIT_OK && cpu == c, "stamp pinned to CPU %d: rc %d, CPU %d", c, rc, cpu);
      rc = tscaudit_stamp(&cpu2, &t2);
      CHECK(rc == TSCAUDIT_OK && cpu2 == c && t2 >= t, "a second stamp on CPU %d: CPU %d, %llu after %llu", c, cpu2,
            (unsigned long long)t2, (unsigned long long)t);
    }
    CHECK(sched_setaffinity(0, allowed.size, allowed.set) == 0, "the affinity could not be given back");
    printf("tscaudit_stamp named the CPU it was pinned to on %d CPUs\n", tried);
  }
  CHECK(tscaudit_stamp(NULL, &t) == TSCAUDIT_ERROR_INVALID_ARGUMENT, "stamp into NULL");
  CHECK(tscaudit_stamp(&cpu, NULL) == TSCAUDIT_ERROR_INVALID_ARGUMENT, "stamp into NULL");
  CPU_FREE(one);
  CPU_FREE(allowed.set);
}

/* A file the library must refuse or judge: `path` opens with `code`; when that is
 * TSCAUDIT_OK its status is `status`; the reason names `words`. Never a crash, never a wait. */
static inline void consumer_check_hostile(const char *what, const char *path, int code, int status, const char *words) {
  struct tscaudit_state *state = (struct tscaudit_state *)&state; /* not NULL: open must set it */
  struct tscaudit_state_info info;
  char reason[256];
  int rc;
  errno = CONSUMER_ERRNO_SENTINEL;
  rc = tscaudit_state_open(path, &state, reason);
  CHECK(errno == CONSUMER_ERRNO_SENTINEL, "%s: errno %d", what, errno);
  CHECK(rc == code, "%s: rc %d (%s), not %d (%s): %s", what, rc, tscaudit_error_name(rc), code,
        tscaudit_error_name(code), reason);
  if (rc != TSCAUDIT_OK) {
    CHECK(state == NULL, "%s: state not NULL after an error", what);
    CHECK(strstr(reason, words) != NULL, "%s: the reason does not say '%s': %s", what, words, reason);
    printf("%s: %s: %s\n", what, tscaudit_error_name(rc), reason);
    return;
  }
  tscaudit_state_info_init(&info);
  rc = tscaudit_state_get_info(state, &info);
  CHECK(rc == TSCAUDIT_OK && info.status == status, "%s: rc %d, status %d, not %d: %s", what, rc, info.status, status,
        info.reason);
  CHECK(strstr(info.reason, words) != NULL, "%s: the reason does not say '%s': %s", what, words, info.reason);
  printf("%s: status %d: %s\n", what, info.status, info.reason);
  tscaudit_state_close(state);
}

#endif /* TSCAUDIT_CONSUMER_STATE_H */
