// The kernel's word against the tool's, in words: for each verdict of the kernel log that
// names CPUs whose counters differ, the kernel's claim and the tool's answer
// (matrix/kernel_agreement.hpp decides it) in one sentence. Pure.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/kernel_tsc.hpp"
#include "matrix/findings.hpp"
#include "matrix/kernel_agreement.hpp"
#include "matrix/matrix.hpp"

namespace tscaudit {

struct KernelComparison {
  std::size_t event = 0;  // its index in KernelTscLog::events
  KernelAgreement agreement = KernelAgreement::not_compared;
  std::string sentence;   // the kernel's claim and the tool's answer, one sentence
};

/// One comparison per answer of weigh_kernel_events (the same arguments), in the log's
/// order: the claim as the event's text says it, then the answer, with the band quoted and
/// the finding it rests on.
std::vector<KernelComparison> compare_with_kernel(const KernelTscLog& log, const MatrixResult& m,
                                                  const Diagnosis& diagnosis, double tolerance_ticks);

}  // namespace tscaudit
