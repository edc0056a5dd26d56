/* A C99 program that uses libtscaudit as its users do: the installed tscaudit.h, linked with
 * what `pkg-config --libs tscaudit` says (or --static). lib_test.sh builds it with
 * -std=c99 -Wall -Wextra -pedantic -Werror and runs one mode at a time:
 *   consumer check       the quick check on the CPUs the process may use: an answer, and
 *                        wherever there are two CPUs or more, all of them measured
 *   consumer one-cpu     run on one CPU (taskset): an inconclusive answer that says so, and a
 *                        list naming a CPU outside the mask refused
 *   consumer arguments   every argument the caller can get wrong: an error code and a reason
 *                        (where the result can carry one), never a crash; and the sizes of
 *                        older and newer callers' structs
 *   consumer layout      the structs' sizes and offsets, which the Python consumer compares
 *                        with its ctypes declarations
 *   consumer versions V  without measuring: the header's version is V (the project's), its
 *                        number the library's (tscaudit_version_number, tscaudit_version),
 *                        the named enums, and tscaudit_result_init's values, field by field
 *   consumer state FILE  the published state FILE, state_writer's fixture (consumer_state.h):
 *                        its status, fields, offsets and orders; tscaudit_stamp on each CPU
 *   consumer state-hostile DIR  the files lib_test.sh made in DIR, each kind a reader may
 *                        meet: the status or the error, with its reason
 * Exit 0: every check held; 1: one failed (each printed on stderr); 2: the test could not run. */
#define _GNU_SOURCE /* sched_getaffinity and the CPU_* macros, in C99 */

#include <stddef.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "consumer_checks.h"
#include "consumer_state.h"

static int mode_check(void) {
  struct consumer_mask allowed = consumer_affinity();
  struct tscaudit_options options;
  struct tscaudit_result result;
  struct consumer_call call;
  consumer_check_version();

  /* tscaudit_options_init leaves nothing of what was there: size set, the rest 0 or NULL. */
  memset(&options, 0xA5, sizeof options);
  tscaudit_options_init(&options);
  CHECK(options.size == sizeof options, "options.size %zu after tscaudit_options_init", options.size);
  CHECK(options.cpus == NULL && options.budget_seconds == 0 && options.tolerance_ns == 0 &&
            options.max_bound_ns == 0,
        "tscaudit_options_init left a field set");
  tscaudit_options_init(NULL); /* documented as harmless */

  tscaudit_result_init(&result);
  call = consumer_quick_check(&options, &result);
  consumer_print("default options", call.rc, &result);
  consumer_check_call(call, "default options");
  consumer_check_answer(call.rc, &result, allowed, "default options");
  CPU_FREE(allowed.set);
  return consumer_failures == 0 ? 0 : 1;
}

static int mode_one_cpu(void) {
  struct consumer_mask allowed = consumer_affinity();
  const int cpu = consumer_first_cpu(allowed);
  struct tscaudit_options options;
  struct tscaudit_result result;
  struct consumer_call call;
  char expected[64], own[32];
  int outside = -1, i;
  if (consumer_mask_count(allowed) != 1) {
    fprintf(stderr, "one-cpu: run this mode on one CPU (taskset -c N); the thread may use %d\n",
            consumer_mask_count(allowed));
    return 2;
  }
  consumer_check_version();

  /* The default CPUs: only this one. An answer, inconclusive, saying why. */
  tscaudit_options_init(&options);
  memset(&result, 0, sizeof result);
  result.size = sizeof result;
  call = consumer_quick_check(&options, &result);
  consumer_print("one CPU, default options", call.rc, &result);
  consumer_check_call(call, "one CPU");
  consumer_check_answer(call.rc, &result, allowed, "one CPU");
  snprintf(expected, sizeof expected, "one CPU only (CPU %d)", cpu);
  CHECK(strstr(result.reason, expected) != NULL, "one CPU: the reason does not say '%s': %.*s", expected,
        REASON(&result));
  CHECK(result.pairs == 0 && result.worst_a == -1 && result.worst_b == -1 && result.bound_ns == 0,
        "one CPU: %d pairs, worst %d -> %d, bound %g ns, with nothing measured", result.pairs, result.worst_a,
        result.worst_b, result.bound_ns);
  CHECK(result.cpus == 0 || result.cpus == 1, "one CPU: %d CPUs", result.cpus);

  /* The same CPU named in the options: the same answer. */
  snprintf(own, sizeof own, "%d", cpu);
  options.cpus = own;
  memset(&result, 0, sizeof result);
  result.size = sizeof result;
  call = consumer_quick_check(&options, &result);
  consumer_print("one CPU, named", call.rc, &result);
  consumer_check_call(call, "one CPU named");
  consumer_check_answer(call.rc, &result, allowed, "one CPU named");
  CHECK(strstr(result.reason, expected) != NULL, "one CPU named: the reason does not say '%s': %.*s", expected,
        REASON(&result));

  /* CPUs 0 and 1, one of which the thread may not use: refused, naming it. */
  for (i = 0; i <= 1 && outside < 0; ++i) {
    if (!consumer_mask_has(allowed, i)) outside = i;
  }
  options.cpus = "0-1";
  memset(&result, 0, sizeof result);
  result.size = sizeof result;
  call = consumer_quick_check(&options, &result);
  consumer_print("one CPU, cpus 0-1", call.rc, &result);
  consumer_check_call(call, "cpus 0-1 on one CPU");
  CHECK(call.rc == TSCAUDIT_ERROR_INVALID_ARGUMENT, "cpus 0-1 on one CPU: rc %d (%s)", call.rc,
        tscaudit_error_name(call.rc));
  CHECK(consumer_reason_ok(&result), "cpus 0-1 on one CPU: no reason");
  snprintf(expected, sizeof expected, "CPU %d ", outside);
  CHECK(strstr(result.reason, expected) != NULL, "cpus 0-1 on one CPU: the reason does not name CPU %d: %.*s",
        outside, REASON(&result));
  CPU_FREE(allowed.set);
  return consumer_failures == 0 ? 0 : 1;
}

/* One call that must be refused with `code`, its reason naming `word`. */
static void expect_refused(const struct tscaudit_options *options, int code, const char *word, const char *what) {
  struct tscaudit_result result;
  struct consumer_call call;
  memset(&result, 0, sizeof result);
  result.size = sizeof result;
  call = consumer_quick_check(options, &result);
  consumer_print(what, call.rc, &result);
  consumer_check_call(call, what);
  CHECK(call.rc == code, "%s: rc %d (%s), expected %d (%s)", what, call.rc, tscaudit_error_name(call.rc), code,
        tscaudit_error_name(code));
  CHECK(consumer_reason_ok(&result), "%s: the reason is empty, more than one line or not terminated", what);
  CHECK(strstr(result.reason, word) != NULL, "%s: the reason does not mention '%s': %.*s", what, word,
        REASON(&result));
}

static void expect_cpus_refused(const char *cpus, const char *word) {
  struct tscaudit_options options;
  char what[96];
  tscaudit_options_init(&options);
  options.cpus = cpus;
  snprintf(what, sizeof what, "cpus \"%s\"", cpus);
  expect_refused(&options, TSCAUDIT_ERROR_INVALID_ARGUMENT, word, what);
}

/* A number the option is refused for: `field` is one of options' doubles. */
static void expect_number_refused(size_t field, double value, const char *word, const char *what) {
  struct tscaudit_options options;
  tscaudit_options_init(&options);
  memcpy((unsigned char *)&options + field, &value, sizeof value);
  expect_refused(&options, TSCAUDIT_ERROR_INVALID_ARGUMENT, word, what);
}

/* A result too small for even the first version: refused, and not one byte of it written
 * (there is no room for a reason the caller could know of). */
static void expect_result_untouched(size_t size) {
  union {
    struct tscaudit_result r;
    unsigned char bytes[sizeof(struct tscaudit_result)];
  } u, copy;
  struct consumer_call call;
  char what[64];
  memset(&u, 0x5A, sizeof u);
  u.r.size = size;
  copy = u;
  snprintf(what, sizeof what, "result.size %zu", size);
  call = consumer_quick_check(NULL, &u.r);
  consumer_check_call(call, what);
  printf("%s: rc %d (%s)\n", what, call.rc, tscaudit_error_name(call.rc));
  CHECK(call.rc == TSCAUDIT_ERROR_INVALID_ARGUMENT, "%s: rc %d", what, call.rc);
  CHECK(memcmp(u.bytes, copy.bytes, sizeof u.bytes) == 0, "%s: the library wrote into a result it refused", what);
}

static int mode_arguments(void) {
  struct consumer_mask allowed = consumer_affinity();
  const int first = consumer_first_cpu(allowed);
  struct tscaudit_options options;
  struct tscaudit_result result;
  struct consumer_call call;
  char cpus[32];
  consumer_check_version();

  /* The result. */
  call = consumer_quick_check(NULL, NULL);
  consumer_check_call(call, "NULL result");
  printf("NULL result: rc %d (%s)\n", call.rc, tscaudit_error_name(call.rc));
  CHECK(call.rc == TSCAUDIT_ERROR_INVALID_ARGUMENT, "NULL result: rc %d", call.rc);
  expect_result_untouched(0);
  expect_result_untouched(8);
  expect_result_untouched(sizeof(struct tscaudit_result) - 1);

  /* options.size. */
  tscaudit_options_init(&options);
  options.size = 0;
  expect_refused(&options, TSCAUDIT_ERROR_INVALID_ARGUMENT, "options->size", "options.size 0");
  options.size = offsetof(struct tscaudit_options, max_bound_ns);
  expect_refused(&options, TSCAUDIT_ERROR_INVALID_ARGUMENT, "options->size", "options.size without max_bound_ns");
  /* A size no version will have: a wrong size or pointer, refused before the library reads
   * past the struct (it would read the caller's memory far beyond, or fault). */
  options.size = (size_t)-1;
  expect_refused(&options, TSCAUDIT_ERROR_INVALID_ARGUMENT, "options->size", "options.size SIZE_MAX");
  options.size = (size_t)1 << 20;
  expect_refused(&options, TSCAUDIT_ERROR_INVALID_ARGUMENT, "options->size", "options.size 1 MiB");

  /* A caller built against a newer header: larger options, whose fields this library does not
   * know, are refused when they are set and read as this version's when they are all zero. */
  {
    struct {
      struct tscaudit_options known;
      unsigned char newer[24];
    } larger;
    memset(&larger, 0, sizeof larger);
    tscaudit_options_init(&larger.known);
    larger.known.size = sizeof larger;
    larger.newer[5] = 1;
    expect_refused(&larger.known, TSCAUDIT_ERROR_INVALID_ARGUMENT, "does not know",
                   "larger options with a field set");
    /* All zero: accepted, and the known fields read (the one CPU named is measured alone). */
    larger.newer[5] = 0;
    snprintf(cpus, sizeof cpus, "%d", first);
    larger.known.cpus = cpus;
    memset(&result, 0, sizeof result);
    result.size = sizeof result;
    call = consumer_quick_check(&larger.known, &result);
    consumer_print("larger options, all zero", call.rc, &result);
    consumer_check_call(call, "larger options, all zero");
    CHECK(call.rc == TSCAUDIT_OK, "larger options, all zero: rc %d (%s): %.*s", call.rc,
          tscaudit_error_name(call.rc), REASON(&result));
    CHECK(result.verdict == TSCAUDIT_INCONCLUSIVE && strstr(result.reason, "one CPU only") != NULL,
          "larger options, all zero: the CPU named was not what was checked: %.*s", REASON(&result));
  }

  /* A caller built against a newer header: a larger result, whose bytes past this version's
   * struct the library leaves as they were. */
  {
    struct {
      struct tscaudit_result known;
      unsigned char newer[40];
    } larger;
    unsigned char before[sizeof larger.newer];
    memset(&larger, 0, sizeof larger);
    memset(larger.newer, 0xC3, sizeof larger.newer);
    memcpy(before, larger.newer, sizeof before);
    larger.known.size = sizeof larger;
    snprintf(cpus, sizeof cpus, "%d", first);
    tscaudit_options_init(&options);
    options.cpus = cpus;
    call = consumer_quick_check(&options, &larger.known);
    consumer_print("larger result", call.rc, &larger.known);
    consumer_check_call(call, "larger result");
    CHECK(call.rc == TSCAUDIT_OK, "larger result: rc %d (%s)", call.rc, tscaudit_error_name(call.rc));
    CHECK(larger.known.size == sizeof larger, "larger result: size %zu, the caller set %zu", larger.known.size,
          sizeof larger);
    CHECK(memcmp(before, larger.newer, sizeof before) == 0,
          "larger result: the library wrote past the struct it knows");
    CHECK(consumer_reason_ok(&larger.known), "larger result: no reason");
  }

  /* The CPU list. */
  expect_cpus_refused("", "CPU list");
  expect_cpus_refused("abc", "abc");
  expect_cpus_refused("0-", "0-");
  expect_cpus_refused("1-0", "1-0");
  expect_cpus_refused("99999", "99999");
  expect_cpus_refused("0,0", "twice");
  expect_cpus_refused("0,", "0,");
  expect_cpus_refused("-1", "-1");
  /* Bytes that are not text, quoted in the reason as \xNN, which stays one printable line. */
  expect_cpus_refused("0\n1", "\\x0a");
  expect_cpus_refused("\x01\xff", "\\xff");
  /* A CPU this machine does not have: the tool's lists go up to 8191; none has that many here. */
  {
    const long configured = sysconf(_SC_NPROCESSORS_CONF);
    if (configured > 0 && configured < 8191) {
      snprintf(cpus, sizeof cpus, "%ld", configured);
      {
        char word[48];
        snprintf(word, sizeof word, "CPU %ld does not exist", configured);
        expect_cpus_refused(cpus, word);
      }
    } else {
      printf("no CPU number above this machine's %ld CPUs to try\n", configured);
    }
  }

  /* The numbers: finite and >= 0. */
  expect_number_refused(offsetof(struct tscaudit_options, budget_seconds), -1, "budget", "budget_seconds -1");
  expect_number_refused(offsetof(struct tscaudit_options, budget_seconds), NAN, "budget", "budget_seconds NaN");
  expect_number_refused(offsetof(struct tscaudit_options, budget_seconds), INFINITY, "budget",
                        "budget_seconds INFINITY");
  expect_number_refused(offsetof(struct tscaudit_options, tolerance_ns), -1, "tolerance", "tolerance_ns -1");
  expect_number_refused(offsetof(struct tscaudit_options, tolerance_ns), NAN, "tolerance", "tolerance_ns NaN");
  expect_number_refused(offsetof(struct tscaudit_options, tolerance_ns), INFINITY, "tolerance",
                        "tolerance_ns INFINITY");
  expect_number_refused(offsetof(struct tscaudit_options, max_bound_ns), NAN, "bound", "max_bound_ns NaN");
  expect_number_refused(offsetof(struct tscaudit_options, max_bound_ns), -1, "bound", "max_bound_ns -1");

  /* NULL options: the defaults, on every CPU the thread may use. */
  memset(&result, 0, sizeof result);
  result.size = sizeof result;
  call = consumer_quick_check(NULL, &result);
  consumer_print("NULL options", call.rc, &result);
  consumer_check_call(call, "NULL options");
  consumer_check_answer(call.rc, &result, allowed, "NULL options");
  CPU_FREE(allowed.set);
  return consumer_failures == 0 ? 0 : 1;
}

/* `r`'s fields are an unanswered result's (tscaudit_result_init), its size `size`. */
static void expect_unanswered(const struct tscaudit_result *r, size_t size, const char *what) {
  size_t i, reason_set = 0;
  for (i = 0; i < sizeof r->reason; ++i) reason_set += r->reason[i] != 0;
  CHECK(r->size == size, "%s: size %zu, not %zu", what, r->size, size);
  CHECK(r->verdict == TSCAUDIT_INCONCLUSIVE, "%s: verdict %d", what, r->verdict);
  CHECK(r->bound_ns == 0 && r->proven_offset_ns == 0 && r->elapsed_seconds == 0 && r->bound_ticks == 0 &&
            r->counter_hz == 0,
        "%s: bound %g ns, proven %g ns, %g s, bound %g ticks, %g Hz", what, r->bound_ns, r->proven_offset_ns,
        r->elapsed_seconds, r->bound_ticks, r->counter_hz);
  CHECK(r->worst_a == -1 && r->worst_b == -1, "%s: worst %d -> %d", what, r->worst_a, r->worst_b);
  CHECK(r->cpus == 0 && r->pairs == 0, "%s: %d CPUs, %d pairs", what, r->cpus, r->pairs);
  CHECK(reason_set == 0, "%s: %zu bytes of reason not 0", what, reason_set);
}

/* The version the header says against `project` (the build's), and the library's against the
 * header's; the enums by name; tscaudit_result_init. Nothing is measured. */
static int mode_versions(const char *project) {
  char header[64];
  unsigned major = 0, minor = 0, patch = 0;
  int fields = 0, consumed = 0;
  enum tscaudit_verdict verdict = TSCAUDIT_NOT_SYNCHRONIZED;
  enum tscaudit_error error = TSCAUDIT_ERROR_UNSUPPORTED;
  struct tscaudit_result result;
  consumer_check_version();

  snprintf(header, sizeof header, "%d.%d.%d", TSCAUDIT_VERSION_MAJOR, TSCAUDIT_VERSION_MINOR,
           TSCAUDIT_VERSION_PATCH);
  CHECK(strcmp(header, project) == 0, "the header says version %s, the project %s", header, project);
  CHECK(TSCAUDIT_VERSION_NUMBER == TSCAUDIT_VERSION_MAJOR * 10000 + TSCAUDIT_VERSION_MINOR * 100 + TSCAUDIT_VERSION_PATCH,
        "TSCAUDIT_VERSION_NUMBER is %d", TSCAUDIT_VERSION_NUMBER);
  CHECK(tscaudit_version_number() == (unsigned)TSCAUDIT_VERSION_NUMBER,
        "tscaudit_version_number() is %u, TSCAUDIT_VERSION_NUMBER %d", tscaudit_version_number(),
        TSCAUDIT_VERSION_NUMBER);
  fields = sscanf(tscaudit_version(), "%u.%u.%u%n", &major, &minor, &patch, &consumed);
  CHECK(fields == 3 && tscaudit_version()[consumed] == '\0' &&
            tscaudit_version_number() == major * 10000 + minor * 100 + patch,
        "tscaudit_version() '%s' and tscaudit_version_number() %u disagree", tscaudit_version(),
        tscaudit_version_number());
  printf("header %s (%d), library %s (%u)\n", header, TSCAUDIT_VERSION_NUMBER, tscaudit_version(),
         tscaudit_version_number());

  /* The enums are types of their own whose values are the ints the functions take. */
  CHECK(sizeof verdict == sizeof(int) && sizeof error == sizeof(int), "the enums are not int-sized");
  CHECK(strcmp(tscaudit_verdict_name(verdict), "not synchronized") == 0, "%s", tscaudit_verdict_name(verdict));
  CHECK(strcmp(tscaudit_error_name(error), "unsupported") == 0, "%s", tscaudit_error_name(error));

  /* Whatever was there before: an unanswered result. */
  memset(&result, 0xA5, sizeof result);
  tscaudit_result_init(&result);
  expect_unanswered(&result, sizeof result, "tscaudit_result_init");
  tscaudit_result_init(NULL);               /* documented as harmless */
  tscaudit_result_init_size(NULL, 4096);    /* likewise */

  /* A caller built against a newer header: its fields past this library's are zeroed. */
  {
    struct {
      struct tscaudit_result known;
      unsigned char newer[40];
    } larger;
    size_t i, newer_set = 0;
    memset(&larger, 0xC3, sizeof larger);
    tscaudit_result_init_size(&larger.known, sizeof larger);
    expect_unanswered(&larger.known, sizeof larger, "a larger result");
    for (i = 0; i < sizeof larger.newer; ++i) newer_set += larger.newer[i] != 0;
    CHECK(newer_set == 0, "a larger result: %zu bytes past this version's fields not 0", newer_set);
  }
  /* A caller with less room than this version's struct: not one byte past its size is written,
   * and the fields within it are set. */
  {
    union {
      struct tscaudit_result r;
      unsigned char bytes[sizeof(struct tscaudit_result)];
    } u;
    const size_t size = offsetof(struct tscaudit_result, reason);
    size_t i, past_written = 0;
    memset(&u, 0x5A, sizeof u);
    tscaudit_result_init_size(&u.r, size);
    for (i = size; i < sizeof u.bytes; ++i) past_written += u.bytes[i] != 0x5A;
    CHECK(past_written == 0, "a smaller result: %zu bytes past its size written", past_written);
    CHECK(u.r.size == size && u.r.verdict == TSCAUDIT_INCONCLUSIVE && u.r.worst_a == -1 && u.r.worst_b == -1 &&
              u.r.pairs == 0 && u.r.elapsed_seconds == 0,
          "a smaller result: size %zu, verdict %d, worst %d -> %d, %d pairs", u.r.size, u.r.verdict, u.r.worst_a,
          u.r.worst_b, u.r.pairs);
  }
  return consumer_failures == 0 ? 0 : 1;
}

/* A process that made its counter reads fault (x86-64: prctl PR_SET_TSC): info reads no
 * counter, the stamp is unsupported, the quick check inconclusive; none faults. In a
 * child, whose death by a signal the parent sees. */
static void check_state_without_counter(const char *path) {
#if defined(__x86_64__) && defined(PR_SET_TSC)
  pid_t child;
  int status = 0;
  fflush(NULL);
  child = fork();
  if (child == 0) {
    struct tscaudit_state *state = NULL;
    struct tscaudit_state_info info;
    char reason[256];
    int cpu = -1;
    uint64_t t = 0;
    int rc;
    if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) != 0) _exit(3);
    rc = tscaudit_state_open(path, &state, reason);
    CHECK(rc == TSCAUDIT_OK, "open without the counter: %s", reason);
    tscaudit_state_info_init(&info);
    rc = tscaudit_state_get_info(state, &info);
    CHECK(rc == TSCAUDIT_OK && info.status == TSCAUDIT_STATE_CURRENT, "info without the counter: rc %d, status %d",
          rc, info.status);
    rc = tscaudit_stamp(&cpu, &t);
    CHECK(rc == TSCAUDIT_ERROR_UNSUPPORTED, "a stamp without the counter: rc %d", rc);
#if !defined(__SANITIZE_ADDRESS__)
    /* (Not under AddressSanitizer: its own allocator reads the vDSO's clock, which faults
     * here before the library is reached.) */
    {
      /* The quick check answers inconclusive, with the reason, instead of faulting in a
       * clock that reads the counter (docs/library.md). */
      struct tscaudit_result r;
      tscaudit_result_init(&r);
      rc = tscaudit_quick_check(NULL, &r);
      CHECK(rc == TSCAUDIT_OK && r.verdict == TSCAUDIT_INCONCLUSIVE,
            "the quick check without the counter: rc %d, verdict %d: %s", rc, r.verdict, r.reason);
    }
#endif
    tscaudit_state_close(state);
    fflush(NULL);
    _exit(consumer_failures == 0 ? 0 : 1);
  }
  CHECK(child > 0 && waitpid(child, &status, 0) == child, "fork or waitpid failed");
  if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
    printf("prctl PR_SET_TSC is refused here: the state without the counter is not checked\n");
    return;
  }
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the process without the counter: %s %d",
        WIFSIGNALED(status) ? "killed by signal" : "exit", WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
  printf("with counter reads made to fault: the state opened and judged, the stamp unsupported, "
         "the quick check inconclusive\n");
#else
  (void)path;
#endif
}

static int mode_state(const char *path) {
  consumer_check_fixture(path);
  check_state_without_counter(path); /* before the first stamp, whose answer is kept (fork copies it) */
  consumer_check_stamp();
  return consumer_failures == 0 ? 0 : 1;
}

static int mode_state_hostile(const char *dir) {
  static const struct {
    const char *name;
    int code, status;
    const char *words;
  } cases[] = {
      {"current", TSCAUDIT_OK, TSCAUDIT_STATE_CURRENT, FIXTURE_REASON},
      {"other-boot", TSCAUDIT_OK, TSCAUDIT_STATE_OTHER_BOOT, "another boot"},
      {"no-boot", TSCAUDIT_OK, TSCAUDIT_STATE_OTHER_BOOT, "records no boot"},
      {"cpus", TSCAUDIT_OK, TSCAUDIT_STATE_DISRUPTED, "the online CPUs changed since publishing (then "},
      {"clocksource", TSCAUDIT_OK, TSCAUDIT_STATE_DISRUPTED, "clocksource changed since publishing (then test-clock"},
      /* its age is 3600 s and the moment the reader runs: "older (3600 s)" or "(3601 s)" under emulation */
      {"aged", TSCAUDIT_OK, TSCAUDIT_STATE_AGED, " s) than the 60 s for which the drift bands keep every CPU"},
      {"truncated", TSCAUDIT_ERROR_BAD_STATE, 0, "cut short or torn"},
      {"torn", TSCAUDIT_ERROR_BAD_STATE, 0, "its checksum does not match"},
      {"major", TSCAUDIT_ERROR_BAD_STATE, 0, "state file version 2.0: this reader reads 1.x only"},
      {"garbage", TSCAUDIT_ERROR_BAD_STATE, 0, "not a tscaudit state file"},
      {"empty", TSCAUDIT_ERROR_BAD_STATE, 0, "empty"},
      {"fifo", TSCAUDIT_ERROR_BAD_STATE, 0, "a FIFO, not a state file"},
      {"directory", TSCAUDIT_ERROR_BAD_STATE, 0, "a directory, not a state file"},
      {"large", TSCAUDIT_ERROR_BAD_STATE, 0, "104857600 bytes, more than the 16777216"},
      {"missing", TSCAUDIT_ERROR_NO_STATE, 0, "no state file there"},
  };
  char path[4096];
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    snprintf(path, sizeof path, "%s/%s", dir, cases[i].name);
    consumer_check_hostile(cases[i].name, path, cases[i].code, cases[i].status, cases[i].words);
  }
  return consumer_failures == 0 ? 0 : 1;
}

/* name size, then each field's name and offset, one a line, as lib_ctypes.py reads them. */
static int mode_layout(void) {
#define FIELD(s, f) printf("%s.%s %zu %zu\n", #s, #f, offsetof(struct s, f), sizeof(((struct s *)0)->f))
  printf("tscaudit_options %zu\n", sizeof(struct tscaudit_options));
  FIELD(tscaudit_options, size);
  FIELD(tscaudit_options, cpus);
  FIELD(tscaudit_options, budget_seconds);
  FIELD(tscaudit_options, tolerance_ns);
  FIELD(tscaudit_options, max_bound_ns);
  printf("tscaudit_result %zu\n", sizeof(struct tscaudit_result));
  FIELD(tscaudit_result, size);
  FIELD(tscaudit_result, verdict);
  FIELD(tscaudit_result, bound_ns);
  FIELD(tscaudit_result, proven_offset_ns);
  FIELD(tscaudit_result, worst_a);
  FIELD(tscaudit_result, worst_b);
  FIELD(tscaudit_result, cpus);
  FIELD(tscaudit_result, pairs);
  FIELD(tscaudit_result, elapsed_seconds);
  FIELD(tscaudit_result, reason);
  FIELD(tscaudit_result, bound_ticks);
  FIELD(tscaudit_result, counter_hz);
  printf("tscaudit_state_info %zu\n", sizeof(struct tscaudit_state_info));
  FIELD(tscaudit_state_info, size);
  FIELD(tscaudit_state_info, status);
  FIELD(tscaudit_state_info, verdict);
  FIELD(tscaudit_state_info, bound_ns);
  FIELD(tscaudit_state_info, age_seconds);
  FIELD(tscaudit_state_info, valid_seconds);
  FIELD(tscaudit_state_info, cpus);
  FIELD(tscaudit_state_info, reference_cpu);
  FIELD(tscaudit_state_info, counter_hz);
  FIELD(tscaudit_state_info, as_of_counter);
  FIELD(tscaudit_state_info, reason);
  FIELD(tscaudit_state_info, tolerance_ns);
  FIELD(tscaudit_state_info, as_of_realtime_ns);
  FIELD(tscaudit_state_info, quantum_ticks);
#undef FIELD
  return 0;
}

int main(int argc, char **argv) {
  /* Line by line, so that a failure on stderr shows after the call it is about. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 2 && strcmp(argv[1], "check") == 0) return mode_check();
  if (argc == 2 && strcmp(argv[1], "one-cpu") == 0) return mode_one_cpu();
  if (argc == 2 && strcmp(argv[1], "arguments") == 0) return mode_arguments();
  if (argc == 2 && strcmp(argv[1], "layout") == 0) return mode_layout();
  if (argc == 3 && strcmp(argv[1], "versions") == 0) return mode_versions(argv[2]);
  if (argc == 3 && strcmp(argv[1], "state") == 0) return mode_state(argv[2]);
  if (argc == 3 && strcmp(argv[1], "state-hostile") == 0) return mode_state_hostile(argv[2]);
  fprintf(stderr, "usage: %s check|one-cpu|arguments|layout|versions PROJECT_VERSION|state FILE|state-hostile DIR\n",
          argv[0]);
  return 2;
}
