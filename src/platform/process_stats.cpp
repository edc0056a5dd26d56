#include "platform/process_stats.hpp"

#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

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
  std::size_t at = 0;
  while (at < status_text.size()) {
    std::size_t end = status_text.find('\n', at);
    if (end == std::string_view::npos) end = status_text.size();
    std::string_view line = status_text.substr(at, end - at);
    at = end + 1;
    if (line.size() <= key.size() || line.substr(0, key.size()) != key || line[key.size()] != ':') continue;
    line.remove_prefix(key.size() + 1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    std::uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
    if (ec != std::errc{} || ptr == line.data()) return std::nullopt;
    const std::string_view rest(ptr, static_cast<std::size_t>(line.data() + line.size() - ptr));
    if (!rest.empty() && rest != " kB") return std::nullopt;
    return v;
  }
  return std::nullopt;
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
