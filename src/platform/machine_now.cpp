#include "platform/machine_now.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <string>

#include "core/cpu_list.hpp"
#include "core/files.hpp"
#include "platform/counter.hpp"
#include "platform/counter_access.hpp"

namespace tscaudit {
namespace {

/// The first line of a small file of /proc or /sys; "" when it cannot be read.
std::string first_line(const char* path) {
  try {
    std::string text = read_regular_file(path, 4096, "a kernel file");
    const std::size_t end = text.find('\n');
    if (end != std::string::npos) text.resize(end);
    return text;
  } catch (...) {
    return {};
  }
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool clock_ns(clockid_t id, std::int64_t& out, bool vdso) noexcept {
  struct timespec ts {};
  if ((vdso ? ::clock_gettime(id, &ts) : static_cast<int>(::syscall(SYS_clock_gettime, id, &ts))) != 0) return false;
  out = static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
  return true;
}

bool parse_boot_id(std::string_view text, std::array<std::uint8_t, 16>& out) noexcept {
  std::array<std::uint8_t, 16> id{};
  std::size_t n = 0;
  int high = -1;
  for (char c : text) {
    if (c == '-') continue;
    const int d = hex_digit(c);
    if (d < 0 || n == 16) return false;
    if (high < 0) {
      high = d;
    } else {
      id[n++] = static_cast<std::uint8_t>(high << 4 | d);
      high = -1;
    }
  }
  if (n != 16 || high >= 0) return false;
  out = id;
  return true;
}

MachineNow read_machine_now() noexcept {
  const int saved_errno = errno;
  MachineNow now;
  if (!parse_boot_id(first_line("/proc/sys/kernel/random/boot_id"), now.boot_id)) now.boot_id = {};
  now.clocksource = first_line("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  try {
    const std::string online = first_line("/sys/devices/system/cpu/online");
    if (!online.empty()) now.online_cpus = parse_cpu_list(online);
  } catch (...) {
    now.online_cpus.clear();
  }
  // A process that made its counter reads fault (prctl PR_SET_TSC) is a caller of the
  // library's tscaudit_state_get_info too: the counter is not read then, nor the vDSO's clocks.
  const bool counter_readable = !counter_unreadable();
  now.have_clocks = clock_ns(CLOCK_BOOTTIME, now.boottime_ns, counter_readable) &&
                    clock_ns(CLOCK_REALTIME, now.realtime_ns, counter_readable) &&
                    clock_ns(CLOCK_MONOTONIC, now.monotonic_ns, counter_readable) &&
                    clock_ns(CLOCK_MONOTONIC_RAW, now.monotonic_raw_ns, counter_readable);
  if (counter_readable) {
    now.counter = counter::OrderedRead::read();
    now.have_counter = true;
  }
  errno = saved_errno;
  return now;
}

}  // namespace tscaudit
