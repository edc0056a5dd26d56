// What `check --publish` writes (docs/machine.md §10.8): the check's answer, the per-CPU
// table it proved, the moment the table holds for on the machine's clocks, and what a
// reader compares with the machine now to know whether the table still describes it
// (the state's status). The file format is formats/state_file.hpp. Pure.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "order/counter_table.hpp"

namespace tscaudit {

/// The check's answer, as the library's enum tscaudit_verdict numbers it.
enum class PublishedVerdict : std::uint32_t { synchronized = 0, not_synchronized = 1, inconclusive = 2 };

/// How the table was made.
enum class PublishedFrom : std::uint32_t { live = 0, quick = 1, run_directory = 2 };

inline constexpr std::size_t kStateReasonBytes = 256;  // with its terminating 0
inline constexpr std::size_t kStateClocksourceBytes = 32;

struct PublishedState {
  PublishedVerdict verdict = PublishedVerdict::inconclusive;
  PublishedFrom from = PublishedFrom::live;
  double bound_ns = 0;      // every pair that passed lies within ±bound_ns; 0 when none passed
  double tolerance_ns = 0;  // what valid_seconds keeps the bound within
  /// How long after the moment the widening by the drift bands keeps every CPU's band
  /// within ±tolerance_ns (infinity when no CPU's drift band moves it; 0 when already beyond).
  double valid_seconds = 0;
  std::string reason;  // the check's one line, at most kStateReasonBytes − 1 bytes
  // The moment, on the machine's clocks (0: unknown, as for a table made from a run
  // directory that did not record them). CLOCK_BOOTTIME, CLOCK_REALTIME,
  // CLOCK_MONOTONIC and CLOCK_MONOTONIC_RAW, in ns.
  std::int64_t boottime_ns = 0;
  std::int64_t realtime_ns = 0;
  std::int64_t monotonic_ns = 0;
  std::int64_t monotonic_raw_ns = 0;
  std::array<std::uint8_t, 16> boot_id{};  // /proc/sys/kernel/random/boot_id; all 0: unknown
  std::string clocksource;                 // the kernel's current clocksource then; "" unknown
  std::vector<int> online_cpus;            // ascending; empty: unknown
  CounterTable table;
};

/// What the machine says now, for the status of a published state (src/: the facts).
struct MachineNow {
  std::array<std::uint8_t, 16> boot_id{};  // all 0: not readable
  std::string clocksource;                 // "": not readable
  std::vector<int> online_cpus;            // empty: not readable
  bool have_clocks = false;
  std::int64_t boottime_ns = 0;
  std::int64_t realtime_ns = 0;
  std::int64_t monotonic_ns = 0;
  std::int64_t monotonic_raw_ns = 0;
  /// The counter read now, on any CPU (the table's offsets are a few hundred ticks; the
  /// frequency test below allows thousands of times more); valid with have_counter.
  bool have_counter = false;
  std::uint64_t counter = 0;
};

/// The state's status, as the library's enum tscaudit_state_status numbers it.
enum class StateStatus : std::uint32_t { current = 0, aged = 1, other_boot = 2, disrupted = 3 };

struct StateStanding {
  StateStatus status = StateStatus::current;
  double age_seconds = 0;  // since the moment, on CLOCK_BOOTTIME (suspends count); NaN unknown
  std::string reason;      // one line: why this status ("" when current)
};

/// Compares a published state with the machine now, in this order: another boot (the boot
/// ids differ, or the state records none), disrupted (a CPU came or went, the clocksource
/// changed, a suspend since the moment, the counter's rate moved by more than
/// kRateChangePpm from counter_hz over at least a second), aged (older than valid_seconds),
/// else current. A fact not readable now raises nothing.
StateStanding state_standing(const PublishedState& state, const MachineNow& now);

/// A counter whose rate against CLOCK_MONOTONIC_RAW moved by more than this since the
/// moment is no longer the one the table was made for (docs/machine.md §10.8).
inline constexpr double kRateChangePpm = 1000;
/// A suspend: CLOCK_BOOTTIME ran ahead of CLOCK_MONOTONIC by more than this since the moment.
inline constexpr std::int64_t kSuspendNs = 100'000'000;

/// A state published earlier in the same boot tightens a fresh one (docs/machine.md §10.8):
/// the offset went from the previous band to the fresh one in the ticks between their
/// moments, which bounds each CPU's drift over that whole span (a check of milliseconds
/// cannot), and the previous band, carried forward by that drift, may cut the fresh one.
/// It assumes what one table does: each offset a line since the earlier moment. false, with
/// `fresh` as it was, when the two are not one machine state: a boot id that differs or is
/// unknown, another reference CPU, clocksource or set of online CPUs, a suspend between them,
/// a previous moment not earlier, or a CPU whose two bands no line within their drift bands
/// joins (the offset moved: nothing carries over). valid_seconds is made again after.
bool carry_forward(PublishedState& fresh, const PublishedState& previous);

/// valid_seconds of a table: the longest time after its moment for which every CPU's band,
/// widened by its drift band, stays within ±tolerance_ticks (counter_hz ticks per second).
/// 0 when a band is already beyond; infinity when no drift band moves any. \pre counter_hz > 0.
double valid_seconds_of(const CounterTable& table, double tolerance_ticks);

}  // namespace tscaudit
