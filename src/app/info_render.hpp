// `tscaudit info`'s output: the platform facts in words (one fact per line) and as JSON
// (tscaudit-info/1). Pure functions of the facts, as the renderers of analysis/render/ are;
// they live here because the facts are the platform's types (src/platform), which no room
// of analysis/ may see. What does not need those types (the label column, CPUs grouped by
// what they say) is in render/labelled_lines.hpp.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

/// Everything `info` reports, gathered first (gather_info, app/info_command.hpp) and then
/// printed by the pure functions below.
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

/// One fact per line, warnings last. Pure.
std::string info_text(const InfoReport& report);

/// Schema tscaudit-info/1. A fact that could not be read is {"state": "absent" |
/// "unreadable" | "malformed", "reason": "..."} where its value would be. Pure.
nlohmann::ordered_json info_json(const InfoReport& report);

}  // namespace tscaudit
