// The kernel's word against the tool's, decided: for each verdict of the kernel log that
// names CPUs whose counters differ (a warp measured when a CPU was brought up, CPUs found
// ahead of or behind another), whether the matrix and its diagnosis (findings.hpp) agree.
// render/kernel_agreement.hpp says each answer in a sentence. Pure.
#pragma once

#include <cstddef>
#include <string_view>
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

/// Why a pair was not compared.
enum class KernelNotCompared {
  compared,          // it was
  cpus_not_named,    // the kernel's line does not name the CPUs
  x_not_measured,    // the reference CPU x is not in the matrix
  y_not_measured,    // the CPU y is not in the matrix
  neither_measured,  // neither is
  no_band,           // the diagnosis places neither, and no hard band links the two
};

/// What the tool says of TSC_y − TSC_x, x the kernel's reference CPU, y the CPU it names.
struct KernelPairAnswer {
  int x = -1, y = -1;  // CPU numbers; -1: not named
  KernelAgreement agreement = KernelAgreement::not_compared;
  KernelNotCompared why_not = KernelNotCompared::compared;
  double lo = kNoValue, hi = kNoValue;  // the band quoted, TSC_y − TSC_x, ticks; NaN: none
  /// The finding the answer rests on: its index in Diagnosis::findings; -1 for none. A
  /// drift or step of x or y, or the offset finding between their groups.
  int finding = -1;
  /// The offset finding's band as TSC_y − TSC_x (turned where the finding's group is x's);
  /// NaN where the finding is none, or not an offset.
  double finding_lo = kNoValue, finding_hi = kNoValue;
  bool quotes_finding = false;  // lo, hi are the finding's band: the pair has none of its own that proves it
};

/// The answers to one event of the log.
struct KernelEventAnswer {
  std::size_t event = 0;  // its index in KernelTscLog::events
  /// The pairs' agreement where they all agree alike; `mixed` where they do not.
  KernelAgreement agreement = KernelAgreement::not_compared;
  /// A warp's |cycles|: a lower bound of |TSC_y − TSC_x| when the kernel measured it; 0
  /// where the kernel says none (a warp whose line is missing, cpus_ahead, cpus_behind).
  double at_least_ticks = 0;
  /// One per CPU the event names against its reference (a warp: one), in the event's order.
  std::vector<KernelPairAnswer> pairs;
};

/// One answer per warp, cpus_ahead and cpus_behind event of `log` (cpus_ahead and
/// cpus_behind naming at least one CPU), in the log's order. The tool's answer for two CPUs
/// x and y rests on the diagnosis where it places both (different offset groups: they
/// differ; one group: they agree; a drift or step finding of either: they differ), else on
/// the pair's own hard band of TSC_y − TSC_x (either role, the narrower): a band that misses
/// [−tolerance, +tolerance] proves they differ, one inside it that they agree. The band
/// quoted is the pair's own where it proves the difference, else that of the finding between
/// their groups. A proven band wholly below a warp's cycles is agrees_smaller. cpus_ahead
/// (behind) says TSC_y − TSC_x > 0 (< 0), y named, x the reference: a band of the other sign
/// is `opposite`.
std::vector<KernelEventAnswer> weigh_kernel_events(const KernelTscLog& log, const MatrixResult& m,
                                                   const Diagnosis& diagnosis, double tolerance_ticks);

}  // namespace tscaudit
