// The kernel's word against the tool's: for each verdict of the kernel log that names CPUs
// whose counters differ (a warp measured when a CPU was brought up, CPUs found ahead of or
// behind another), whether the matrix and its diagnosis (matrix/findings.hpp) agree, in one
// sentence. Pure.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/kernel_tsc.hpp"
#include "matrix/findings.hpp"
#include "matrix/matrix.hpp"

namespace tscaudit {

/// How the tool's measurement compares with the kernel's claim that two CPUs' counters
/// differ.
enum class KernelAgreement {
  agrees,          // the tool proves they differ too, the same way round where the kernel says which
  agrees_smaller,  // the tool proves they differ, by less than the kernel's warp (a lower bound of the
                   // offset when the kernel measured it): moved closer since
  opposite,        // the tool proves they differ the other way round
  disagrees,       // the tool measured the two counters agreeing (within the tolerance) now
  not_compared,    // a CPU not measured or not named, or nothing the tool measured links the two
  mixed,           // several CPUs named (cpus_ahead, cpus_behind), not all alike
};

/// "agrees", "agrees_smaller", "opposite", "disagrees", "not_compared", "mixed".
std::string_view kernel_agreement_name(KernelAgreement a);

struct KernelComparison {
  std::size_t event = 0;  // its index in KernelTscLog::events
  KernelAgreement agreement = KernelAgreement::not_compared;
  std::string sentence;   // the kernel's claim and the tool's answer, one sentence
};

/// One comparison per warp, cpus_ahead and cpus_behind event of `log`, in the log's order.
/// The tool's answer for two CPUs x and y rests on the diagnosis where it places both
/// (different offset groups: they differ; one group: they agree; a drift or step finding
/// of either: they differ), else on the pair's own hard band of TSC_y − TSC_x (either
/// role): a band that misses [−tolerance, +tolerance] proves they differ, one inside it
/// that they agree. The band quoted is the pair's own where it proves the difference, else
/// that of the finding between their groups. A warp's cycles are a lower bound of |offset|
/// when the kernel measured it: a proven band wholly below them is agrees_smaller.
/// cpus_ahead (behind) says TSC_y − TSC_x > 0 (< 0), y named, x the reference: a band of the
/// other sign is `opposite`.
std::vector<KernelComparison> compare_with_kernel(const KernelTscLog& log, const MatrixResult& m,
                                                  const Diagnosis& diagnosis, double tolerance_ticks);

}  // namespace tscaudit
