// The kernel log: read through klogctl, and parsed line by line. Each line is taken out of
// its record ("<6>", the timestamp's padding) here; what the TSC's code (x86-64) and the
// arch_timer driver (aarch64) print is read in x86_64_kernel_log.cpp and
// aarch64_kernel_log.cpp.
#include "platform/kernel_facts.hpp"

#include <sys/klog.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "core/lines.hpp"
#include "platform/kernel_log_lines.hpp"

namespace tscaudit {
namespace {

// klogctl actions (sys/klog.h does not name them; see syslog(2)).
constexpr int kSyslogActionReadAll = 3;
constexpr int kSyslogActionSizeBuffer = 10;

}  // namespace

KernelLogFacts parse_kernel_log(std::string_view text) {
  KernelLogFacts f;
  TscLogState tsc_state;
  for_each_line(text, [&](std::string_view line) {
    // klogctl's raw records start with "<level>".
    if (line.size() > 2 && line[0] == '<') {
      const std::size_t close = line.find('>');
      if (close != std::string_view::npos && close > 1 &&
          std::all_of(line.begin() + 1, line.begin() + static_cast<std::ptrdiff_t>(close),
                      [](char c) { return c >= '0' && c <= '9'; })) {
        line.remove_prefix(close + 1);
      }
    }
    if (trim(line, kBlanks).empty()) return;
    ++f.lines;
    // "[    0.000065] text" -> "[0.000065] text": lines are quoted in reports.
    std::string normalized;
    std::optional<double> stamp_s;
    if (const std::size_t close = line.find(']'); line[0] == '[' && close != std::string_view::npos) {
      const std::string_view stamp = trim(line.substr(1, close - 1), kBlanks);
      double s = 0;
      const auto [ptr, ec] = std::from_chars(stamp.data(), stamp.data() + stamp.size(), s);
      if (ec == std::errc{} && ptr == stamp.data() + stamp.size()) stamp_s = s;
      normalized.append("[").append(stamp).append("]").append(line.substr(close + 1));
      line = normalized;
    }
    if (f.lines == 1) {
      f.first_timestamp_s = stamp_s;
      f.starts_at_boot = (stamp_s && !(*stamp_s > 0)) || line.find("Linux version") != std::string_view::npos;
    }
    parse_tsc_log_line(line, stamp_s, f, tsc_state);
    parse_arch_timer_log_line(line, f);
    constexpr std::string_view kSwitched = "Switched to clocksource ";
    if (const std::size_t p = line.find(kSwitched); p != std::string_view::npos) {
      const std::string_view rest = trim(line.substr(p + kSwitched.size()), kBlanks);
      if (!rest.empty()) f.last_clocksource_switch = std::string(rest.substr(0, rest.find_first_of(kBlanks)));
    }
  });
  finish_tsc_log(f, tsc_state);
  return f;
}

Fact<std::string> read_kernel_log() {
  const int size = klogctl(kSyslogActionSizeBuffer, nullptr, 0);
  auto failure = [](int err) {
    std::string why = std::string("klogctl: ") + std::strerror(err);
    if (err == EPERM || err == EACCES) why += " (needs CAP_SYSLOG, or sysctl kernel.dmesg_restrict=0)";
    return Fact<std::string>::fail(FactState::unreadable, why);
  };
  if (size < 0) return failure(errno);
  std::string buf(static_cast<std::size_t>(size), '\0');
  const int n = klogctl(kSyslogActionReadAll, buf.data(), size);
  if (n < 0) return failure(errno);
  buf.resize(static_cast<std::size_t>(n));
  return Fact<std::string>::good(std::move(buf));
}

}  // namespace tscaudit
