// libtscaudit's state entry points (include/tscaudit.h; docs/library.md, "The state"): the
// state file read whole and decoded (formats/state_file.hpp), its standing against the
// machine now (order/published_state.hpp, platform/machine_now.hpp), and the hot path's
// offset, order and stamp (order/order.hpp), each behind a wall no exception crosses. errno is
// the caller's again on return.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "formats/state_file.hpp"
#include "order/order.hpp"
#include "order/published_state.hpp"
#include "platform/counter_access.hpp"
#include "platform/machine_now.hpp"
#include "quick/c_result.hpp"
#include "tscaudit.h"

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__)
#include <sched.h>

#include "platform/counter.hpp"
#endif

/// What tscaudit_state_open made: the decoded state, immutable from then on (so shared by
/// threads without a lock). Its table's bands are dense by CPU number: a lookup is an index.
struct tscaudit_state {
  tscaudit::PublishedState state;
};

namespace {

/// The first version's size of struct tscaudit_state_info: what every caller passes at least.
constexpr std::size_t kStateInfoV1 = offsetof(tscaudit_state_info, quantum_ticks) + sizeof(std::int64_t);
static_assert(kStateInfoV1 == sizeof(tscaudit_state_info), "a new info field needs its own version size");
static_assert(static_cast<int>(tscaudit::StateStatus::current) == TSCAUDIT_STATE_CURRENT &&
                  static_cast<int>(tscaudit::StateStatus::aged) == TSCAUDIT_STATE_AGED &&
                  static_cast<int>(tscaudit::StateStatus::other_boot) == TSCAUDIT_STATE_OTHER_BOOT &&
                  static_cast<int>(tscaudit::StateStatus::disrupted) == TSCAUDIT_STATE_DISRUPTED,
              "enum tscaudit_state_status numbers StateStatus");
static_assert(static_cast<int>(tscaudit::PublishedVerdict::synchronized) == TSCAUDIT_SYNCHRONIZED &&
                  static_cast<int>(tscaudit::PublishedVerdict::not_synchronized) == TSCAUDIT_NOT_SYNCHRONIZED &&
                  static_cast<int>(tscaudit::PublishedVerdict::inconclusive) == TSCAUDIT_INCONCLUSIVE,
              "enum tscaudit_verdict numbers PublishedVerdict");

/// An error of tscaudit_state_open: its code and one line.
struct OpenError {
  int code = TSCAUDIT_OK;
  std::string reason;
};

/// strerror, thread-safe (the GNU strerror_r, which returns its text).
std::string error_text(int e) {
  char buf[128];
  return ::strerror_r(e, buf, sizeof buf);
}

const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// Closes a descriptor when it leaves scope.
class StateFd {
 public:
  explicit StateFd(int fd) : fd_(fd) {}
  ~StateFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  StateFd(const StateFd&) = delete;
  StateFd& operator=(const StateFd&) = delete;
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_;
};

/// The bytes of the state file at `path`, at most kStateMaxBytes. O_NONBLOCK: a FIFO or a
/// device at the path is refused by its fstat, never waited on (a regular file ignores it).
/// Links are followed: a reader may be pointed at a state anywhere.
OpenError read_state_bytes(const std::string& path, std::vector<std::uint8_t>& out) {
  const std::string shown = tscaudit::printable_text(path);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT || e == ENOTDIR) return {TSCAUDIT_ERROR_NO_STATE, shown + ": no state file there (" + error_text(e) + ")"};
    return {TSCAUDIT_ERROR_SYSTEM, "cannot open " + shown + ": " + error_text(e)};
  }
  const StateFd file(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) return {TSCAUDIT_ERROR_SYSTEM, "cannot stat " + shown + ": " + error_text(errno)};
  if (!S_ISREG(st.st_mode)) return {TSCAUDIT_ERROR_BAD_STATE, shown + ": " + file_kind(st.st_mode) + ", not a state file"};
  if (static_cast<std::uint64_t>(st.st_size) > tscaudit::kStateMaxBytes) {
    return {TSCAUDIT_ERROR_BAD_STATE, shown + ": " + std::to_string(st.st_size) + " bytes, more than the " +
                                          std::to_string(tscaudit::kStateMaxBytes) + " a state file may hold"};
  }
  // One byte more than the size said: a file that grew since the fstat is seen to have.
  out.resize(static_cast<std::size_t>(st.st_size) + 1);
  std::size_t got = 0;
  while (got < out.size()) {
    const ssize_t n = ::read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return {TSCAUDIT_ERROR_SYSTEM, "cannot read " + shown + ": " + error_text(errno)};
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > static_cast<std::size_t>(st.st_size)) {
    return {TSCAUDIT_ERROR_BAD_STATE, shown + ": grew while it was read (not written by renaming into place)"};
  }
  out.resize(got);
  return {};
}

/// The whole of tscaudit_state_open's work, errors as codes and lines.
OpenError open_state(const char* path, tscaudit_state*& made) {
  const std::string file = path != nullptr ? path : TSCAUDIT_STATE_PATH;
  std::vector<std::uint8_t> bytes;
  if (OpenError e = read_state_bytes(file, bytes); e.code != TSCAUDIT_OK) return e;
  auto* s = new (std::nothrow) tscaudit_state;
  if (s == nullptr) return {TSCAUDIT_ERROR_SYSTEM, "out of memory"};
  std::string why;
  if (!tscaudit::decode_state(bytes, s->state, why)) {
    delete s;
    return {TSCAUDIT_ERROR_BAD_STATE, tscaudit::printable_text(file) + ": " + why};
  }
  made = s;
  return {};
}

void write_reason(char* reason, const std::string& text) {
  if (reason != nullptr) tscaudit::copy_reason(reason, 256, text);
}

#if defined(__x86_64__)
/// Whether RDTSCP may be executed here: 0 not yet asked, 1 yes, 2 no. Asked once (CPUID and
/// the process's PR_GET_TSC), so that later stamps make no system call. A process that
/// forbids itself the counter (PR_SET_TSC) after its first stamp is not seen.
std::atomic<int> rdtscp_usable{0};

bool stamp_supported() {
  int known = rdtscp_usable.load(std::memory_order_relaxed);
  if (known == 0) {
    unsigned eax = 0;
    unsigned ebx = 0;
    unsigned ecx = 0;
    unsigned edx = 0;
    // CPUID 0x80000001: EDX bit 27 is RDTSCP (Intel SDM vol. 2A, CPUID).
    const bool has = __get_cpuid(0x80000001U, &eax, &ebx, &ecx, &edx) != 0 && (edx & (1U << 27)) != 0;
    known = has && !tscaudit::counter_unreadable() ? 1 : 2;
    rdtscp_usable.store(known, std::memory_order_relaxed);
  }
  return known == 1;
}
#endif

}  // namespace

extern "C" {

int tscaudit_state_open(const char* path, struct tscaudit_state** state, char reason[256]) {
  const tscaudit::ErrnoKeeper errno_keeper;
  write_reason(reason, "");
  if (state == nullptr) {
    write_reason(reason, "state is NULL: nowhere to put the opened state");
    return TSCAUDIT_ERROR_INVALID_ARGUMENT;
  }
  *state = nullptr;
  OpenError e;
  try {
    e = open_state(path, *state);
  } catch (const std::bad_alloc&) {
    e = {TSCAUDIT_ERROR_SYSTEM, "out of memory"};
  } catch (const std::exception& x) {
    try {
      e = {TSCAUDIT_ERROR_SYSTEM, x.what()};
    } catch (...) {
      e.code = TSCAUDIT_ERROR_SYSTEM;
    }
  } catch (...) {
    e.code = TSCAUDIT_ERROR_SYSTEM;
  }
  if (e.code != TSCAUDIT_OK) {
    write_reason(reason, e.reason.empty() ? std::string("an unknown failure") : e.reason);
    *state = nullptr;
  }
  return e.code;
}

void tscaudit_state_close(struct tscaudit_state* state) { delete state; }

void tscaudit_state_info_init_size(struct tscaudit_state_info* info, size_t size) {
  if (info == nullptr) return;
  tscaudit_state_info defaults{};
  defaults.size = size;
  defaults.age_seconds = std::numeric_limits<double>::quiet_NaN();
  defaults.reference_cpu = -1;
  const std::size_t known = std::min(size, sizeof defaults);
  std::memcpy(info, &defaults, known);
  if (size > known) std::memset(reinterpret_cast<unsigned char*>(info) + known, 0, size - known);
}

int tscaudit_state_get_info(const struct tscaudit_state* state, struct tscaudit_state_info* info) {
  const tscaudit::ErrnoKeeper errno_keeper;
  if (state == nullptr || info == nullptr || info->size < kStateInfoV1) return TSCAUDIT_ERROR_INVALID_ARGUMENT;
  tscaudit_state_info out{};
  out.size = info->size;
  out.age_seconds = std::numeric_limits<double>::quiet_NaN();
  int code = TSCAUDIT_OK;
  try {
    const tscaudit::PublishedState& s = state->state;
    const tscaudit::StateStanding standing = tscaudit::state_standing(s, tscaudit::read_machine_now());
    out.status = static_cast<int>(standing.status);
    out.verdict = static_cast<int>(s.verdict);
    out.bound_ns = s.bound_ns;
    out.age_seconds = standing.age_seconds;
    out.valid_seconds = s.valid_seconds;
    out.cpus = static_cast<int>(s.table.known());
    out.reference_cpu = s.table.reference_cpu;
    out.counter_hz = s.table.counter_hz;
    out.as_of_counter = s.table.as_of_counter;
    tscaudit::copy_reason(out.reason, sizeof out.reason,
                          standing.status == tscaudit::StateStatus::current ? s.reason : standing.reason);
    out.tolerance_ns = s.tolerance_ns;
    out.as_of_realtime_ns = s.realtime_ns;
    out.quantum_ticks = s.table.quantum_ticks;
  } catch (const std::bad_alloc&) {
    tscaudit::copy_reason(out.reason, sizeof out.reason, "out of memory");
    code = TSCAUDIT_ERROR_SYSTEM;
  } catch (...) {
    tscaudit::copy_reason(out.reason, sizeof out.reason, "an unknown failure");
    code = TSCAUDIT_ERROR_SYSTEM;
  }
  // This version's fields only: a newer caller's larger struct keeps the rest.
  std::memcpy(info, &out, sizeof out);
  return code;
}

int tscaudit_state_offset(const struct tscaudit_state* state, int cpu, uint64_t counter, double* lo_ticks,
                          double* hi_ticks) {
  if (state == nullptr || lo_ticks == nullptr || hi_ticks == nullptr) return TSCAUDIT_ERROR_INVALID_ARGUMENT;
  tscaudit::TickBand band{};
  if (!tscaudit::offset_at(state->state.table, cpu, counter, band)) return TSCAUDIT_ERROR_NO_BAND;
  *lo_ticks = band.lo_ticks;
  *hi_ticks = band.hi_ticks;
  return TSCAUDIT_OK;
}

int tscaudit_state_order(const struct tscaudit_state* state, int cpu_a, uint64_t counter_a, int cpu_b,
                         uint64_t counter_b, int* order) {
  if (state == nullptr || order == nullptr) return TSCAUDIT_ERROR_INVALID_ARGUMENT;
  bool known = false;
  *order = tscaudit::order_of(state->state.table, cpu_a, counter_a, cpu_b, counter_b, known);
  return known ? TSCAUDIT_OK : TSCAUDIT_ERROR_NO_BAND;
}

int tscaudit_stamp(int* cpu, uint64_t* counter) {
  if (cpu == nullptr || counter == nullptr) return TSCAUDIT_ERROR_INVALID_ARGUMENT;
#if defined(__x86_64__)
  if (!stamp_supported()) return TSCAUDIT_ERROR_UNSUPPORTED;
  // One instruction reads both: the counter and TSC_AUX, which Linux sets on each CPU to
  // (node << 12) | cpu. A migration cannot fall between them. RDTSCP waits for earlier
  // instructions, so the stamp is not taken before what the caller did before it.
  std::uint32_t lo = 0;
  std::uint32_t hi = 0;
  std::uint32_t aux = 0;
  asm volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
  *counter = (static_cast<std::uint64_t>(hi) << 32) | lo;
  *cpu = static_cast<int>(aux & 0xfffU);
  return TSCAUDIT_OK;
#elif defined(__aarch64__)
  // CNTVCT_EL0 says nothing of the CPU, so the CPU is read before and after the counter and
  // the three kept when both say the same CPU. sched_getcpu reads the CPU number the kernel
  // keeps in the thread's rseq area (glibc 2.35 and later, where the kernel has rseq): no
  // system call; elsewhere it is the getcpu system call. The residual window: a thread moved
  // away after the first read and back before the second, with the counter read in between
  // on the other CPU, gives a stamp whose CPU is not the one the counter was read on. Only an
  // rseq critical section would close it (docs/library.md, "The state").
  const tscaudit::ErrnoKeeper errno_keeper;  // sched_getcpu may set it
  for (int attempt = 0; attempt < 64; ++attempt) {
    const int before = ::sched_getcpu();
    const std::uint64_t value = tscaudit::counter::OrderedRead::read();
    const int after = ::sched_getcpu();
    if (before < 0) return TSCAUDIT_ERROR_UNSUPPORTED;
    if (before == after) {
      *cpu = before;
      *counter = value;
      return TSCAUDIT_OK;
    }
  }
  return TSCAUDIT_ERROR_SYSTEM;  // moved between CPUs 64 times in a row
#else
  return TSCAUDIT_ERROR_UNSUPPORTED;
#endif
}

}  // extern "C"
