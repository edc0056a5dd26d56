/* The installed tscaudit.h alone, as each language and standard a caller may compile it with
 * sees it: lib_test.sh's mode "header" compiles this file as C99, C11 and C17 and as C++98 to
 * C++20, with -Wall -Wextra -pedantic -Werror and more, and never links it. Every line that
 * could fail is a compile error, so that a header which a strict build rejects fails here. */
#include <tscaudit.h>
#include <tscaudit.h> /* twice: the include guard */

/* The number is usable in #if, where a caller chooses code by the header it has. */
#if !defined(TSCAUDIT_VERSION_NUMBER) || \
    TSCAUDIT_VERSION_NUMBER != TSCAUDIT_VERSION_MAJOR * 10000 + TSCAUDIT_VERSION_MINOR * 100 + TSCAUDIT_VERSION_PATCH
#error "TSCAUDIT_VERSION_NUMBER is not MAJOR * 10000 + MINOR * 100 + PATCH"
#endif
#if TSCAUDIT_VERSION_MINOR >= 100 || TSCAUDIT_VERSION_PATCH >= 100
#error "TSCAUDIT_VERSION_NUMBER would repeat"
#endif

/* The named enums: a switch over each names every value (-Wswitch). The functions take and
 * return them as int, which a caller passes on as it came. */
const char *header_only_verdict(enum tscaudit_verdict verdict);
const char *header_only_verdict(enum tscaudit_verdict verdict) {
  switch (verdict) {
    case TSCAUDIT_SYNCHRONIZED: return tscaudit_verdict_name(TSCAUDIT_SYNCHRONIZED);
    case TSCAUDIT_NOT_SYNCHRONIZED: return tscaudit_verdict_name(TSCAUDIT_NOT_SYNCHRONIZED);
    case TSCAUDIT_INCONCLUSIVE: return tscaudit_verdict_name(TSCAUDIT_INCONCLUSIVE);
  }
  return "";
}
const char *header_only_error(enum tscaudit_error error);
const char *header_only_error(enum tscaudit_error error) {
  switch (error) {
    case TSCAUDIT_OK: return tscaudit_error_name(TSCAUDIT_OK);
    case TSCAUDIT_ERROR_INVALID_ARGUMENT: return tscaudit_error_name(TSCAUDIT_ERROR_INVALID_ARGUMENT);
    case TSCAUDIT_ERROR_UNSUPPORTED: return tscaudit_error_name(TSCAUDIT_ERROR_UNSUPPORTED);
    case TSCAUDIT_ERROR_SYSTEM: return tscaudit_error_name(TSCAUDIT_ERROR_SYSTEM);
    case TSCAUDIT_ERROR_NO_STATE: return tscaudit_error_name(TSCAUDIT_ERROR_NO_STATE);
    case TSCAUDIT_ERROR_BAD_STATE: return tscaudit_error_name(TSCAUDIT_ERROR_BAD_STATE);
    case TSCAUDIT_ERROR_NO_BAND: return tscaudit_error_name(TSCAUDIT_ERROR_NO_BAND);
  }
  return "";
}
int header_only_status(enum tscaudit_state_status status);
int header_only_status(enum tscaudit_state_status status) {
  switch (status) {
    case TSCAUDIT_STATE_CURRENT: return 0;
    case TSCAUDIT_STATE_AGED: return 1;
    case TSCAUDIT_STATE_OTHER_BOOT: return 2;
    case TSCAUDIT_STATE_DISRUPTED: return 3;
  }
  return -1;
}
int header_only_order(enum tscaudit_order order);
int header_only_order(enum tscaudit_order order) {
  switch (order) {
    case TSCAUDIT_BEFORE: return -1;
    case TSCAUDIT_UNORDERED: return 0;
    case TSCAUDIT_AFTER: return 1;
  }
  return 2;
}
/* The default path is a string literal. */
const char header_only_state_path[] = TSCAUDIT_STATE_PATH;

/* Each function as a pointer of the type the header gives it. */
void header_only_functions(void);
void header_only_functions(void) {
  void (*options_init)(struct tscaudit_options *) = tscaudit_options_init;
  void (*result_init)(struct tscaudit_result *) = tscaudit_result_init;
  void (*result_init_size)(struct tscaudit_result *, size_t) = tscaudit_result_init_size;
  int (*quick_check)(const struct tscaudit_options *, struct tscaudit_result *) = tscaudit_quick_check;
  const char *(*version)(void) = tscaudit_version;
  unsigned (*version_number)(void) = tscaudit_version_number;
  const char *(*error_name)(int) = tscaudit_error_name;
  const char *(*verdict_name)(int) = tscaudit_verdict_name;
  int (*state_open)(const char *, struct tscaudit_state **, char *) = tscaudit_state_open;
  void (*state_close)(struct tscaudit_state *) = tscaudit_state_close;
  void (*state_info_init)(struct tscaudit_state_info *) = tscaudit_state_info_init;
  void (*state_info_init_size)(struct tscaudit_state_info *, size_t) = tscaudit_state_info_init_size;
  int (*state_get_info)(const struct tscaudit_state *, struct tscaudit_state_info *) = tscaudit_state_get_info;
  int (*state_offset)(const struct tscaudit_state *, int, uint64_t, double *, double *) = tscaudit_state_offset;
  int (*state_order)(const struct tscaudit_state *, int, uint64_t, int, uint64_t, int *) = tscaudit_state_order;
  int (*stamp)(int *, uint64_t *) = tscaudit_stamp;
  (void)options_init;
  (void)result_init;
  (void)result_init_size;
  (void)quick_check;
  (void)version;
  (void)version_number;
  (void)error_name;
  (void)verdict_name;
  (void)state_open;
  (void)state_close;
  (void)state_info_init;
  (void)state_info_init_size;
  (void)state_get_info;
  (void)state_offset;
  (void)state_order;
  (void)stamp;
}
