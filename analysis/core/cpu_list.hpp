// CPU lists in taskset syntax: "0-3,8", "0,1", "2".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tscaudit {

/// The largest CPU number accepted; Linux's NR_CPUS tops out at 8192.
inline constexpr int kMaxCpu = 8191;

/// The most CPUs a matrix takes (make_plan; a run directory's manifest): its cells grow
/// with the square of the CPUs and the per-CPU offsets' shortest paths with the cube (16.8 M
/// ordered pairs at 4096). Beyond it a plan and a run directory are refused (exit 2).
inline constexpr int kMaxMatrixCpus = 4096;

/// Parses a CPU list, keeping the order written and any repeats ("1,0" is {1, 0};
/// "0,0" is {0, 0}), so an ordered pair can be written as a list.
/// \throws UsageError naming the list and the character position of the problem.
std::vector<int> parse_cpu_list(std::string_view text);

/// Formats CPUs as a sorted list with ranges compressed: {3, 0, 1, 2, 8} -> "0-3,8".
/// Repeats are dropped. Empty input gives "".
std::string format_cpu_list(std::vector<int> cpus);

}  // namespace tscaudit
