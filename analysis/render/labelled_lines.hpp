// The building blocks of a listing of facts (`tscaudit info`): one "label   value" line per
// fact, the labels padded to one column, and per-CPU facts grouped so that the CPUs that
// say the same share one line. Pure, and free of the platform's types: app/info_render.cpp
// words the facts with them.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace tscaudit {

/// "label   value" lines: each label padded to kLabelWidth columns (one space after a longer one).
class LabelledLines {
 public:
  static constexpr std::size_t kLabelWidth = 20;

  void add(const std::string& label, const std::string& value);
  [[nodiscard]] const std::string& str() const { return text_; }

 private:
  std::string text_;
};

/// "/dev/cpu/3/msr" -> "/dev/cpu/N/msr", "/cpu3/" -> "/cpuN/": so that CPUs whose facts
/// differ only in their own path share one line.
std::string generic_cpu_paths(const std::string& text);

/// Per-CPU texts grouped: CPUs with the same text (generic_cpu_paths of it) share one
/// entry, in order of first CPU. \returns (the CPUs in taskset syntax, the text) per group.
std::vector<std::pair<std::string, std::string>> group_cpus_by_text(
    const std::vector<std::pair<int, std::string>>& per_cpu);

/// "+0.0345 ppm", "-12.3 ppm": three significant digits, and the sign always.
std::string signed_ppm(double ppm);

}  // namespace tscaudit
