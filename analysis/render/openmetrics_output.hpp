// The metrics of `check` and `monitor` for Prometheus, as metric families (exposition.hpp
// writes them): names with the tscaudit_ prefix and a base unit, a `cpu` label as
// node_exporter's, `a` and `b` for a pair (a initiates, b responds). Every figure is one the
// analysis already made (the matrix's per-CPU offsets and hard bounds, the check, the
// monitor's interval summaries), converted from ticks to seconds with the TSC frequency.
// The names, labels and series counts are documented in docs/fleets.md, "Metrics for
// Prometheus". Pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/interval_summary.hpp"
#include "matrix/check.hpp"
#include "matrix/matrix.hpp"
#include "monitor/interval_analysis.hpp"
#include "monitor/rtt_buckets.hpp"
#include "render/exposition.hpp"

namespace tscaudit {

/// What the check's metrics say beside the matrix and the verdict.
struct CheckRunFacts {
  std::string version;                                           // the tool's
  std::string clocksource;                                       // the kernel's current clocksource; "" when unknown
  std::string hypervisor;                                        // its CPUID signature, "none", or "" when unknown
  double end_unix_s = std::numeric_limits<double>::quiet_NaN();  // when the measuring ended
  double duration_s = std::numeric_limits<double>::quiet_NaN();  // how long it measured
  std::string check = "full";  // which check ran: "full" (the matrix or its sparse design) or "quick"
  /// check --history: CPUs whose offset moved since the previous boot's check, proven by
  /// disjoint bands (app/boot_history.hpp); empty when there is no previous boot to compare.
  std::optional<std::size_t> moved_since_boot = std::nullopt;
};

/// Per-CPU series (three each, and a fourth for a CPU named off) are written for at most
/// this many CPUs by default, so that the exposition of any machine stays under 1,000
/// series: 27 + 2 × 6 + 4 × 240 = 999 at the most (docs/fleets.md, "Metrics for Prometheus").
inline constexpr std::size_t kDefaultExportCpus = 240;

/// Which series grow with the machine.
struct CheckExport {
  /// Per-CPU series for every CPU of a machine of up to this many; beyond, for the CPU the
  /// offsets are relative to and those farthest from the median offset, this many in all.
  std::size_t max_cpus = kDefaultExportCpus;
  bool pairs = false;  // four series per ordered pair measured (--export-pairs)
};

/// Indexes into m.cpus of the CPUs whose series are written, in CPU number order: all of
/// them up to `max_cpus`, else the reference (index 0) and the max_cpus − 1 CPUs farthest
/// from the median per-CPU offset (matrix_worst.hpp).
std::vector<std::size_t> exported_cpus(const MatrixResult& m, std::size_t max_cpus);

/// The check's gauges: the verdict (tscaudit_check_success, with the failure's kind as
/// `reason` when 0), the exported CPUs named off, per-CPU offsets with their hard bounds, the spread, the worst pair,
/// the drift bands' envelope, the negative and violating one-way latency ratios of the
/// read variants, the counter's frequency and quantum, an info gauge, the run's time and
/// duration; per-pair series with `what.pairs`. Families in seconds are left out when the
/// TSC frequency is unknown (m.tsc_hz <= 0).
std::vector<MetricFamily> check_metrics(const MatrixResult& m, const CheckResult& c, const CheckRunFacts& facts,
                                        const CheckExport& what);

/// What the monitor's metrics say, rewritten after every interval.
struct MonitorMetricsState {
  int a = 0, b = 0;
  std::string send, recv, version;
  double tsc_hz = 0;  // > 0: the monitor runs only where it is known
  std::int64_t quantum_ticks = 1;
  double interval_s = 0;
  bool running = true;                  // false in the last rewrite, when the run has ended
  MonitorTotals totals;                 // over the intervals written so far
  std::optional<IntervalSummary> last;  // the last interval written; none before the first
  double last_end_unix_s = std::numeric_limits<double>::quiet_NaN();  // when it was written
  const RttBuckets* rtt = nullptr;  // the opt-in histogram of every round trip; null: none
};

/// The monitor's counters (rounds, lost rounds, negative one-way latencies per direction,
/// rounds impossible for any offset), the last interval's gauges (its hard offset band at
/// k = 1, minimum latencies, rounds, when it ended), whether it runs, an info gauge, and
/// with `rtt` the round-trip histogram. Every series has the pair's `a` and `b` labels, so
/// several monitors can share a textfile directory.
std::vector<MetricFamily> monitor_metrics(const MonitorMetricsState& s);

}  // namespace tscaudit
