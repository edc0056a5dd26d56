#include "render/labelled_lines.hpp"

#include <algorithm>
#include <cctype>

#include "core/cpu_list.hpp"
#include "core/format.hpp"

namespace tscaudit {

void LabelledLines::add(const std::string& label, const std::string& value) {
  text_.append(label)
      .append(label.size() < kLabelWidth ? kLabelWidth - label.size() : 1, ' ')
      .append(value)
      .append("\n");
}

std::string generic_cpu_paths(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const bool slash_cpu = text.compare(i, 5, "/cpu/") == 0;
    const bool cpu_n =
        text.compare(i, 4, "/cpu") == 0 && i + 4 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 4]));
    if (slash_cpu || cpu_n) {
      const std::size_t digits = i + (slash_cpu ? 5 : 4);
      std::size_t j = digits;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      if (j > digits && j < text.size() && text[j] == '/') {
        out += text.substr(i, digits - i) + "N";
        i = j;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> group_cpus_by_text(
    const std::vector<std::pair<int, std::string>>& per_cpu) {
  std::vector<std::pair<std::vector<int>, std::string>> groups;
  for (const auto& [cpu, text] : per_cpu) {
    const std::string key = generic_cpu_paths(text);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.second == key; });
    if (it == groups.end()) {
      groups.push_back({{cpu}, key});
    } else {
      it->first.push_back(cpu);
    }
  }
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(groups.size());
  for (const auto& [cpus, text] : groups) out.emplace_back(format_cpu_list(cpus), text);
  return out;
}

std::string signed_ppm(double ppm) {
  std::string s = ppm >= 0 ? "+" : "";
  return s.append(format_sig(ppm, 3)).append(" ppm");
}

}  // namespace tscaudit
