// libtscaudit's C entry points (include/tscaudit.h): arguments checked, the C++ quick check
// run behind a wall that no exception crosses, the answer copied into the caller's struct as
// far as its size reaches. errno is the caller's again on return.
#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <system_error>

#include "core/errors.hpp"
#include "core/format.hpp"
#include "platform/counter_access.hpp"
#include "platform/machine_now.hpp"
#include "quick/c_result.hpp"
#include "quick/quick_check.hpp"
#include "tscaudit.h"
#include "version.hpp"

namespace {

using tscaudit::CheckOutcome;

/// The first version's sizes: what every caller passes at least.
constexpr std::size_t kOptionsV1 = offsetof(tscaudit_options, max_bound_ns) + sizeof(double);
constexpr std::size_t kResultV1 = offsetof(tscaudit_result, counter_hz) + sizeof(double);
static_assert(kOptionsV1 == sizeof(tscaudit_options), "a new options field needs its own version size");
static_assert(kResultV1 == sizeof(tscaudit_result), "a new result field needs its own version size");
/// The largest options struct read: the bytes beyond this version's fields are read to see
/// that they are zero, and a size far beyond any version is a wrong pointer or size, not a
/// newer caller (reading that far could leave the caller's memory).
constexpr std::size_t kOptionsMaxSize = 4096;

/// The version in `text` ("MAJOR.MINOR.PATCH") as TSCAUDIT_VERSION_NUMBER counts it; -1 where
/// `text` is not three numbers, or MINOR or PATCH is 100 or more (the count would repeat).
constexpr long version_number_of(std::string_view text) {
  long parts[3] = {0, 0, 0};
  std::size_t part = 0;
  bool digit_seen = false;
  for (const char c : text) {
    if (c == '.' && digit_seen && part < 2) {
      ++part;
      digit_seen = false;
    } else if (c >= '0' && c <= '9' && parts[part] < 100000) {
      parts[part] = parts[part] * 10 + (c - '0');
      digit_seen = true;
    } else {
      return -1;
    }
  }
  if (part != 2 || !digit_seen || parts[1] >= 100 || parts[2] >= 100) return -1;
  return parts[0] * 10000 + parts[1] * 100 + parts[2];
}
// The header's version macros are the project's (CMakeLists.txt, which version.hpp is made
// from): a release that moves one without the other does not build.
static_assert(version_number_of(tscaudit::kToolVersion) >= 0, "the project's version is not MAJOR.MINOR.PATCH below .100.100");
static_assert(version_number_of(tscaudit::kToolVersion) == TSCAUDIT_VERSION_NUMBER,
              "include/tscaudit.h's TSCAUDIT_VERSION_MAJOR/MINOR/PATCH are not the project's version");
static_assert(TSCAUDIT_VERSION_MINOR < 100 && TSCAUDIT_VERSION_PATCH < 100, "TSCAUDIT_VERSION_NUMBER would repeat");

/// An unanswered result of this version: what tscaudit_result_init gives, and what
/// tscaudit_quick_check starts from (its size is the caller's, set by each).
constexpr tscaudit_result unanswered_result() {
  tscaudit_result r{};
  r.verdict = TSCAUDIT_INCONCLUSIVE;
  r.worst_a = r.worst_b = -1;
  return r;
}

void set_reason(tscaudit_result& r, const std::string& raw) { tscaudit::copy_reason(r.reason, sizeof r.reason, raw); }

int verdict_of(CheckOutcome outcome) {
  switch (outcome) {
    case CheckOutcome::synchronized: return TSCAUDIT_SYNCHRONIZED;
    case CheckOutcome::not_synchronized: return TSCAUDIT_NOT_SYNCHRONIZED;
    case CheckOutcome::inconclusive: break;
    case CheckOutcome::incomplete: break;  // the quick check is never cut short: it has no signals
  }
  return TSCAUDIT_INCONCLUSIVE;
}

/// The fields of `options` this version knows; a larger struct's extra bytes must be zero
/// (a newer caller asking for something this library cannot do is told so).
/// \returns an empty string, or why the options cannot be used.
std::string read_options(const tscaudit_options* options, tscaudit::QuickOptions& out) {
  if (options == nullptr) return {};
  if (options->size < kOptionsV1) {
    return "options->size is " + std::to_string(options->size) + ", less than the first version's " +
           std::to_string(kOptionsV1) + " (call tscaudit_options_init)";
  }
  if (options->size > kOptionsMaxSize) {
    return "options->size is " + std::to_string(options->size) + ", more than any version's (" +
           std::to_string(kOptionsMaxSize) + " at most): not a struct tscaudit_options";
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(options);
  for (std::size_t i = sizeof(tscaudit_options); i < options->size; ++i) {
    if (bytes[i] != 0) {
      return "options->size is " + std::to_string(options->size) + " and sets fields this library (version " +
             std::string(tscaudit::kToolVersion) + ", " + std::to_string(sizeof(tscaudit_options)) +
             " bytes) does not know";
    }
  }
  if (options->cpus != nullptr) out.cpus = std::string(options->cpus);
  out.budget_seconds = options->budget_seconds;
  out.tolerance_ns = options->tolerance_ns;
  out.max_bound_ns = options->max_bound_ns;
  return {};
}

}  // namespace

namespace tscaudit {

void copy_reason(char* out, std::size_t bytes, const std::string& raw) {
  const std::string text = printable_utf8_text(raw);
  std::size_t n = std::min(text.size(), bytes - 1);
  while (n > 0 && n < text.size() && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
}

void fill_result(tscaudit_result& r, const QuickAnswer& a) {
  r.verdict = verdict_of(a.check.outcome);
  const double per_ns = a.counter_hz > 0 ? 1e9 / a.counter_hz : 0;
  r.bound_ticks = a.check.bound_ticks;
  r.bound_ns = a.check.bound_ticks * per_ns;
  r.proven_offset_ns = a.proven_offset_ticks * per_ns;
  r.worst_a = a.worst_a;
  r.worst_b = a.worst_b;
  r.cpus = a.pairs > 0 ? static_cast<int>(a.matrix.size()) : 0;  // measured: none when no pair was
  r.pairs = static_cast<int>(a.pairs);
  r.counter_hz = a.counter_hz;
  set_reason(r, a.reason);
}

}  // namespace tscaudit

extern "C" {

void tscaudit_options_init(struct tscaudit_options* options) {
  if (options == nullptr) return;
  // The first version's struct, whatever later versions add: a caller built against this
  // header has no room for more (static_assert above; docs/library.md, "Versions").
  *options = tscaudit_options{};
  options->size = kOptionsV1;
}

// `size_t` as the header spells it, not `std::size_t`: the ABI's description (abidw, the test
// "lib: abi") would otherwise name a type of namespace std and take all of it in.
void tscaudit_result_init_size(struct tscaudit_result* result, size_t size) {
  if (result == nullptr) return;
  tscaudit_result defaults = unanswered_result();
  defaults.size = size;
  // Only the caller's bytes: a smaller (older) struct gets the fields that fit, a larger
  // (newer) one zeros past this version's fields.
  const std::size_t known = std::min(size, sizeof defaults);
  std::memcpy(result, &defaults, known);
  if (size > known) std::memset(reinterpret_cast<unsigned char*>(result) + known, 0, size - known);
}

namespace {

/// CLOCK_MONOTONIC in seconds: the vDSO's when the counter may be read, else the system call.
double call_clock_seconds(bool vdso) {
  std::int64_t ns = 0;
  tscaudit::clock_ns(CLOCK_MONOTONIC, ns, vdso);
  return static_cast<double>(ns) * 1e-9;
}

}  // namespace

int tscaudit_quick_check(const struct tscaudit_options* options, struct tscaudit_result* result) {
  const tscaudit::ErrnoKeeper errno_keeper;
  // Where the counter may not be read (PR_SET_TSC), neither may the vDSO's clocks, which read
  // it: the wall time of the call comes from the system call then.
  const bool counter_readable = !tscaudit::counter_unreadable();
  const double start = call_clock_seconds(counter_readable);
  if (result == nullptr || result->size < kResultV1) return TSCAUDIT_ERROR_INVALID_ARGUMENT;
  // Only this version's fields are written; a newer caller's larger struct keeps the rest.
  tscaudit_result& r = *result;
  const std::size_t caller_size = r.size;
  r = unanswered_result();
  r.size = caller_size;
  int code = TSCAUDIT_OK;
  try {
    tscaudit::QuickOptions quick;
    if (std::string why = read_options(options, quick); !why.empty()) {
      set_reason(r, why);
      code = TSCAUDIT_ERROR_INVALID_ARGUMENT;
    } else {
      tscaudit::fill_result(r, tscaudit::run_quick_check(quick));
    }
  } catch (const tscaudit::UsageError& e) {
    set_reason(r, e.what());
    code = TSCAUDIT_ERROR_INVALID_ARGUMENT;
  } catch (const tscaudit::UnsupportedError& e) {
    set_reason(r, e.what());
    code = TSCAUDIT_ERROR_UNSUPPORTED;
  } catch (const std::bad_alloc&) {
    set_reason(r, "out of memory");
    code = TSCAUDIT_ERROR_SYSTEM;
  } catch (const std::exception& e) {
    set_reason(r, e.what());
    code = TSCAUDIT_ERROR_SYSTEM;
  } catch (...) {
    set_reason(r, "an unknown failure");
    code = TSCAUDIT_ERROR_SYSTEM;
  }
  if (code != TSCAUDIT_OK) r.verdict = TSCAUDIT_INCONCLUSIVE;
  r.elapsed_seconds = call_clock_seconds(counter_readable) - start;
  return code;
}

const char* tscaudit_version(void) { return tscaudit::kToolVersion.data(); }

// The header it was built with: the static_assert above makes that the project's version.
unsigned tscaudit_version_number(void) { return TSCAUDIT_VERSION_NUMBER; }

const char* tscaudit_error_name(int code) {
  switch (code) {
    case TSCAUDIT_OK: return "ok";
    case TSCAUDIT_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case TSCAUDIT_ERROR_UNSUPPORTED: return "unsupported";
    case TSCAUDIT_ERROR_SYSTEM: return "system error";
    case TSCAUDIT_ERROR_NO_STATE: return "no state";
    case TSCAUDIT_ERROR_BAD_STATE: return "bad state";
    case TSCAUDIT_ERROR_NO_BAND: return "no band";
    default: return "unknown error";
  }
}

const char* tscaudit_verdict_name(int verdict) {
  switch (verdict) {
    case TSCAUDIT_SYNCHRONIZED: return "synchronized";
    case TSCAUDIT_NOT_SYNCHRONIZED: return "not synchronized";
    case TSCAUDIT_INCONCLUSIVE: return "inconclusive";
    default: return "unknown verdict";
  }
}

}  // extern "C"
