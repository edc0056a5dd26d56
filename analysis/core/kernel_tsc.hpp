// What Linux's kernel log says about the synchronization of the TSCs: its verdicts (a warp
// measured between two CPUs at their bring-up, the TSC marked unstable, CPUs found ahead of
// or behind another) and what it did to TSC_ADJUST. Plain data: read from the log by
// src/platform (kernel_log.cpp), written and read as JSON by formats/kernel_tsc_json.hpp,
// compared with the tool's own findings by matrix/kernel_agreement.hpp, worded by
// render/kernel_tsc_text.hpp and render/kernel_agreement.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tscaudit {

/// Each kind is one message of Linux (arch/x86/kernel/tsc.c, tsc_sync.c,
/// kernel/time/clocksource.c).
enum class KernelTscEventKind {
  // The verdicts.
  warp,                  // "TSC synchronization [CPU#S -> CPU#T]:" then "Measured N cycles TSC warp between
                         // CPUs, turning off TSC clock." (check_tsc_sync_source, at T's bring-up)
  warp_random,           // "TSC warped randomly between CPUs" (the warps went both ways)
  unstable,              // "tsc: Marking TSC unstable due to REASON"
  unstable_after_boot,   // "TSC found unstable after boot, most likely due to broken BIOS. Use 'tsc=unstable'."
  watchdog_unstable,     // "timekeeping watchdog on CPUN: Marking clocksource 'tsc' as unstable because the skew
                         // is too large:"
  cpus_ahead,            // "CPUs LIST ahead of CPU N for clocksource tsc." (clocksource_verify_percpu)
  cpus_behind,           // "CPUs LIST behind CPU N for clocksource tsc."
  sync_skipped,          // "Skipped synchronization checks as TSC is reliable."
  // What the kernel did to TSC_ADJUST (tsc_sync.c).
  adjust_differs,        // "[Firmware Bug]: TSC ADJUST differs within socket(s), fixing all errors"
  adjust_forced,         // "[Firmware Bug]: TSC ADJUST: CPUN: V force to 0"
  adjust_not_forced,     // "TSC ADJUST: CPUN: V NOT forced to 0"
  adjust_compensated,    // "TSC ADJUST compensate: CPUN observed W warp. Adjust: A"
  adjust_restored,       // "[Firmware Bug]: TSC ADJUST differs: CPUN OLD --> NEW. Restoring"
};

/// "warp", "warp_random", "unstable", "unstable_after_boot", "watchdog_unstable",
/// "cpus_ahead", "cpus_behind", "sync_skipped", "adjust_differs", "adjust_forced",
/// "adjust_not_forced", "adjust_compensated", "adjust_restored" (JSON's `kind`).
std::string_view kernel_tsc_kind_name(KernelTscEventKind kind);
/// The kind of a name of kernel_tsc_kind_name; nullopt for another name.
std::optional<KernelTscEventKind> kernel_tsc_kind_from_name(std::string_view name);

/// A verdict of the kernel on the TSCs' synchronization (warp, warp_random, unstable,
/// unstable_after_boot, watchdog_unstable, cpus_ahead, cpus_behind), as opposed to a note of
/// what it checked or wrote.
bool is_kernel_tsc_verdict(KernelTscEventKind kind);

/// `cpus` increasing, each once.
std::vector<int> sorted_cpus(std::vector<int> cpus);

/// One message. Fields a kind does not name stay at their defaults (-1, empty, nullopt).
struct KernelTscEvent {
  KernelTscEventKind kind = KernelTscEventKind::unstable;
  /// warp: the source CPU S (the CPU already up); adjust_*: the CPU whose TSC_ADJUST it is;
  /// watchdog_unstable: the CPU the watchdog ran on; cpus_ahead and cpus_behind: the CPU
  /// they are compared with. -1 where the message names none (a warp whose first line is
  /// missing).
  int cpu = -1;
  /// warp: the target CPU T (the CPU being brought up); -1 where not named.
  int other_cpu = -1;
  /// cpus_ahead, cpus_behind: the CPUs named, increasing.
  std::vector<int> cpus;
  /// warp: the cycles of warp N (how far a read on one CPU went back behind a read on the
  /// other, the largest seen); adjust_forced, adjust_not_forced: the value found;
  /// adjust_compensated: the warp observed W (> 0: this CPU's TSC was behind, < 0: ahead);
  /// adjust_restored: the value the kernel had set (OLD).
  std::optional<std::int64_t> value;
  /// adjust_compensated: the TSC_ADJUST written A; adjust_restored: the value found (NEW).
  std::optional<std::int64_t> value2;
  /// unstable: REASON ("check_tsc_sync_source failed", "clocksource watchdog").
  std::string reason;
  /// The message's lines as the log has them, printable (control bytes taken out, bytes
  /// outside ASCII as '?'), the timestamp's padding taken out ("[0.512345] ..."): two for a
  /// warp whose first line was seen, one otherwise.
  std::vector<std::string> lines;
  /// Seconds since boot of the (last) line, when stamped.
  std::optional<double> timestamp_s;
};

/// The events of one log, in the log's order, at most kMaxEvents.
struct KernelTscLog {
  static constexpr std::size_t kMaxEvents = 16;
  std::vector<KernelTscEvent> events;
  /// Events left out past the limit (a log repeats some per CPU: one TSC_ADJUST line per
  /// CPU brought up). A verdict is kept before a note: when the list is full, a verdict
  /// takes the place of the last note kept; a note past the limit is left out.
  std::size_t left_out = 0;

  /// Appends `e` under the rule above.
  void add(KernelTscEvent e);
};

}  // namespace tscaudit
