// The x86-64 lines of the kernel log: what Linux's TSC code prints about the counter's
// stability and its frequency (arch/x86/kernel/tsc.c), the synchronization check at each
// CPU's bring-up and TSC_ADJUST (tsc_sync.c), and the clocksource watchdog's verdicts on
// the TSC (kernel/time/clocksource.c).
#include "platform/kernel_log_lines.hpp"

#include <charconv>
#include <cstdint>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"

namespace tscaudit {
namespace {

/// The number at `pos` in `line` followed by `suffix`, or nullopt.
std::optional<double> mhz_at(std::string_view line, std::size_t pos, std::string_view suffix) {
  double v = 0;
  const char* first = line.data() + pos;
  const char* last = line.data() + line.size();
  const auto [ptr, ec] = std::from_chars(first, last, v, std::chars_format::fixed);
  if (ec != std::errc{} || !(v > 0)) return std::nullopt;
  if (std::string_view(ptr, static_cast<std::size_t>(last - ptr)).substr(0, suffix.size()) != suffix) {
    return std::nullopt;
  }
  return v;
}

/// The signed decimal number at `pos` of `line`; `end` receives where it stops.
std::optional<std::int64_t> integer_at(std::string_view line, std::size_t pos, std::size_t& end) {
  if (pos > line.size()) return std::nullopt;
  std::int64_t v = 0;
  const char* first = line.data() + pos;
  const auto [ptr, ec] = std::from_chars(first, line.data() + line.size(), v);
  if (ec != std::errc{}) return std::nullopt;
  end = static_cast<std::size_t>(ptr - line.data());
  return v;
}

/// The number that follows `before` in `line` (from `from` on), and where it stops.
std::optional<std::int64_t> integer_after(std::string_view line, std::string_view before, std::size_t from,
                                          std::size_t& end) {
  const std::size_t p = line.find(before, from);
  if (p == std::string_view::npos) return std::nullopt;
  return integer_at(line, p + before.size(), end);
}

/// A CPU number that fits an int and is not negative.
std::optional<int> cpu_number(std::optional<std::int64_t> v) {
  if (!v || *v < 0 || *v > 1 << 30) return std::nullopt;
  return static_cast<int>(*v);
}

/// The line as a report quotes it: control bytes taken out, bytes outside ASCII as '?'.
std::string printable_line(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (char c : line) {
    if (is_printable_byte(c)) {
      out += c;
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      out += '?';
    }
  }
  return std::string(trim(out, kBlanks));
}

/// A clocksource name of the TSC's: "tsc" or "tsc-early".
bool is_tsc_clocksource(std::string_view name) { return name == "tsc" || name == "tsc-early"; }

/// The TSC's events of one line, appended to f.tsc_events; a warp's first line waits in
/// `state`.
void parse_tsc_event(std::string_view line, std::optional<double> stamp_s, KernelLogFacts& f, TscLogState& state) {
  auto event = [&](KernelTscEventKind kind) {
    KernelTscEvent e;
    e.kind = kind;
    e.lines.push_back(printable_line(line));
    e.timestamp_s = stamp_s;
    return e;
  };
  auto has = [&](std::string_view s) { return line.find(s) != std::string_view::npos; };
  std::size_t end = 0;

  constexpr std::string_view kSync = "TSC synchronization [CPU#";
  if (const std::size_t p = line.find(kSync); p != std::string_view::npos) {
    const auto source = cpu_number(integer_at(line, p + kSync.size(), end));
    const auto target = source ? cpu_number(integer_after(line, " -> CPU#", end, end)) : std::nullopt;
    // "...]: passed" is the debug message of a check that passed.
    if (!target || trim(line.substr(end), kBlanks) != "]:") return;
    if (state.warp) f.tsc_events.add(std::move(*state.warp));
    KernelTscEvent e = event(KernelTscEventKind::warp);
    e.cpu = *source;
    e.other_cpu = *target;
    state.warp = std::move(e);
    return;
  }
  if (has(" cycles TSC warp between CPUs")) {
    const auto cycles = integer_after(line, "Measured ", 0, end);
    if (!cycles) return;
    KernelTscEvent e = event(KernelTscEventKind::warp);
    if (state.warp) {
      // The two lines of one message: the CPUs from the first.
      state.warp->lines.push_back(std::move(e.lines.front()));
      e = std::move(*state.warp);
      state.warp.reset();
    }
    e.value = cycles;
    e.timestamp_s = stamp_s;
    f.tsc_events.add(std::move(e));
    return;
  }
  if (has("TSC warped randomly between CPUs")) {
    f.tsc_events.add(event(KernelTscEventKind::warp_random));
    return;
  }
  constexpr std::string_view kUnstableDue = "Marking TSC unstable due to ";
  if (const std::size_t p = line.find(kUnstableDue); p != std::string_view::npos) {
    KernelTscEvent e = event(KernelTscEventKind::unstable);
    e.reason = printable_line(line.substr(p + kUnstableDue.size()));
    f.tsc_events.add(std::move(e));
    return;
  }
  if (has("TSC found unstable after boot")) {
    f.tsc_events.add(event(KernelTscEventKind::unstable_after_boot));
    return;
  }
  constexpr std::string_view kWatchdog = "timekeeping watchdog on CPU";
  if (const std::size_t p = line.find(kWatchdog); p != std::string_view::npos) {
    // "Marking clocksource 'tsc' as unstable because the skew is too large:", or
    // "wd-tsc-wd excessive read-back delay of ... marking tsc unstable".
    constexpr std::string_view kMarking = "Marking clocksource '";
    bool tsc = false;
    if (const std::size_t m = line.find(kMarking); m != std::string_view::npos) {
      const std::size_t name = m + kMarking.size();
      const std::size_t close = line.find('\'', name);
      tsc = close != std::string_view::npos && is_tsc_clocksource(line.substr(name, close - name)) &&
            line.find("as unstable", close) != std::string_view::npos;
    } else {
      tsc = has(", marking tsc unstable") || has(", marking tsc-early unstable");
    }
    if (!tsc) return;
    KernelTscEvent e = event(KernelTscEventKind::watchdog_unstable);
    if (const auto cpu = cpu_number(integer_at(line, p + kWatchdog.size(), end))) e.cpu = *cpu;
    f.tsc_events.add(std::move(e));
    return;
  }
  for (const auto& [word, kind] : {std::pair{std::string_view(" ahead of CPU "), KernelTscEventKind::cpus_ahead},
                                   std::pair{std::string_view(" behind CPU "), KernelTscEventKind::cpus_behind}}) {
    const std::size_t w = line.find(word);
    const std::size_t c = line.find("CPUs ");
    if (w == std::string_view::npos || c == std::string_view::npos || c + 5 > w) continue;
    const auto reference = cpu_number(integer_at(line, w + word.size(), end));
    constexpr std::string_view kFor = " for clocksource ";
    if (!reference || line.substr(end, kFor.size()) != kFor) return;
    std::string_view name = trim(line.substr(end + kFor.size()), kBlanks);
    if (!name.empty() && name.back() == '.') name.remove_suffix(1);
    if (!is_tsc_clocksource(name)) return;
    KernelTscEvent e = event(kind);
    e.cpu = *reference;
    try {
      e.cpus = sorted_cpus(parse_cpu_list(trim(line.substr(c + 5, w - c - 5), kBlanks)));
    } catch (const UsageError&) {
      return;
    }
    f.tsc_events.add(std::move(e));
    return;
  }
  if (has("Skipped synchronization checks as TSC is reliable")) {
    f.tsc_events.add(event(KernelTscEventKind::sync_skipped));
    return;
  }
  if (has("TSC ADJUST differs within socket(s)")) {
    f.tsc_events.add(event(KernelTscEventKind::adjust_differs));
    return;
  }
  // A CPU and two numbers: "TSC ADJUST differs: CPU%u %lld --> %lld" (was, restored to)
  // and "TSC ADJUST compensate: CPU%u observed %lld warp. Adjust: %lld".
  struct TwoValues {
    std::string_view prefix, before_value, before_value2;
    KernelTscEventKind kind;
  };
  for (const TwoValues& t : {TwoValues{"TSC ADJUST differs: CPU", " ", " --> ", KernelTscEventKind::adjust_restored},
                             TwoValues{"TSC ADJUST compensate: CPU", " observed ", "Adjust: ",
                                       KernelTscEventKind::adjust_compensated}}) {
    const std::size_t p = line.find(t.prefix);
    if (p == std::string_view::npos) continue;
    const auto cpu = cpu_number(integer_at(line, p + t.prefix.size(), end));
    const auto value = cpu ? integer_after(line, t.before_value, end, end) : std::nullopt;
    const auto value2 = value ? integer_after(line, t.before_value2, end, end) : std::nullopt;
    if (!value2) return;
    KernelTscEvent e = event(t.kind);
    e.cpu = *cpu;
    e.value = value;
    e.value2 = value2;
    f.tsc_events.add(std::move(e));
    return;
  }
  constexpr std::string_view kAdjust = "TSC ADJUST: CPU";
  if (const std::size_t p = line.find(kAdjust); p != std::string_view::npos) {
    const auto cpu = cpu_number(integer_at(line, p + kAdjust.size(), end));
    const auto value = cpu && line.substr(end, 2) == ": " ? integer_at(line, end + 2, end) : std::nullopt;
    if (!value) return;
    const std::string_view rest = trim(line.substr(end), kBlanks);
    if (rest != "force to 0" && rest != "NOT forced to 0") return;
    KernelTscEvent e =
        event(rest == "force to 0" ? KernelTscEventKind::adjust_forced : KernelTscEventKind::adjust_not_forced);
    e.cpu = *cpu;
    e.value = value;
    f.tsc_events.add(std::move(e));
  }
}

}  // namespace

void parse_tsc_log_line(std::string_view line, std::optional<double> stamp_s, KernelLogFacts& f, TscLogState& state) {
  int& mhz_rank = state.mhz_rank;
  const bool unstable = line.find("Marking TSC unstable") != std::string_view::npos ||
                        (line.find("Marking clocksource 'tsc") != std::string_view::npos &&
                         line.find("as unstable") != std::string_view::npos) ||
                        line.find("TSC found unstable") != std::string_view::npos ||
                        line.find("turning off TSC clock") != std::string_view::npos;
  if (unstable && !f.tsc_marked_unstable) {
    f.tsc_marked_unstable = true;
    f.unstable_line = printable_line(line);
  }
  constexpr std::string_view kRefined = "Refined TSC clocksource calibration: ";
  constexpr std::string_view kDetected = "Detected ";
  if (const std::size_t p = line.find(kRefined); p != std::string_view::npos) {
    if (auto v = mhz_at(line, p + kRefined.size(), " MHz"); v && mhz_rank <= 3) {
      f.tsc_mhz = v;
      f.tsc_mhz_line = printable_line(line);
      mhz_rank = 3;
    }
  } else if (const std::size_t d = line.find(kDetected); d != std::string_view::npos) {
    if (auto v = mhz_at(line, d + kDetected.size(), " MHz TSC"); v && mhz_rank <= 2) {
      f.tsc_mhz = v;
      f.tsc_mhz_line = printable_line(line);
      mhz_rank = 2;
    } else if (auto w = mhz_at(line, d + kDetected.size(), " MHz processor"); w && mhz_rank <= 1) {
      f.tsc_mhz = w;
      f.tsc_mhz_line = printable_line(line);
      mhz_rank = 1;
    }
  }
  parse_tsc_event(line, stamp_s, f, state);
}

void finish_tsc_log(KernelLogFacts& f, TscLogState& state) {
  if (state.warp) f.tsc_events.add(std::move(*state.warp));
  state.warp.reset();
}

}  // namespace tscaudit
