// `tscaudit info`: the platform facts a measurement depends on.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/format.hpp"
#include "estimate/quantum.hpp"
#include "platform/affinity.hpp"
#include "platform/msr.hpp"
#include "platform/platform.hpp"
#include "platform/platform_warnings.hpp"
#include "platform/topology.hpp"

namespace tscaudit {

struct CpuQuantum {
  int cpu = 0;
  QuantumEstimate estimate;
  std::string error;  // why there is no estimate (pinning failed)
};

/// Everything `info` reports, gathered first and then printed by the pure functions below.
struct InfoReport {
  PlatformFacts platform;  // with a CLOCK_MONOTONIC_RAW calibration, always
  CpuAvailability cpus;
  std::vector<CpuQuantum> quanta;  // per allowed CPU
  TopologyResult topology;
  std::vector<std::pair<int, MsrRead>> tsc_adjust;  // per online CPU
  std::optional<Calibration> realtime;              // --ntp-seconds > 0
  std::optional<NtpState> ntp;                      // with realtime
  std::vector<Warning> warnings;
};

/// Gathers the report: CPUID, kernel facts, calibration (200 ms, plus `ntp_seconds`
/// against CLOCK_REALTIME when > 0), quantum per CPU, topology, TSC_ADJUST per CPU.
InfoReport gather_info(unsigned ntp_seconds);

/// One fact per line, warnings last. Pure.
std::string info_text(const InfoReport& report);

/// Schema tscaudit-info/1. A fact that could not be read is {"state": "absent" |
/// "unreadable" | "malformed", "reason": "..."} where its value would be. Pure.
nlohmann::ordered_json info_json(const InfoReport& report);

/// Prints the facts to stdout. \returns the exit code (0).
int run_info(OutputFormat format, unsigned ntp_seconds = 0);

}  // namespace tscaudit
