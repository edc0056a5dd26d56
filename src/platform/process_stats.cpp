#include "platform/process_stats.hpp"

#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

#include "core/lines.hpp"

namespace tscaudit {
namespace {

std::optional<std::string> slurp(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::optional<std::uint64_t> status_number(std::string_view status_text, std::string_view key) {
  std::optional<std::uint64_t> number;
  for_each_line(status_text, [&](std::string_view line) {
    if (line.size() <= key.size() || line.substr(0, key.size()) != key || line[key.size()] != ':') {
      return LineFlow::next;
    }
    line.remove_prefix(key.size() + 1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    std::uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
    const std::string_view rest(ptr, static_cast<std::size_t>(line.data() + line.size() - ptr));
    if (ec == std::errc{} && ptr != line.data() && (rest.empty() || rest == " kB")) number = v;
    return LineFlow::stop;  // the first line of the key answers, a number or not
  });
  return number;
}

std::optional<std::uint64_t> peak_rss_kib() {
  const auto text = slurp("/proc/self/status");
  if (!text) return std::nullopt;
  return status_number(*text, "VmHWM");
}

std::optional<std::uint64_t> thread_context_switches(long tid) {
  const auto text = slurp("/proc/self/task/" + std::to_string(tid) + "/status");
  if (!text) return std::nullopt;
  const auto voluntary = status_number(*text, "voluntary_ctxt_switches");
  const auto involuntary = status_number(*text, "nonvoluntary_ctxt_switches");
  if (!voluntary || !involuntary) return std::nullopt;
  return *voluntary + *involuntary;
}

}  // namespace tscaudit
