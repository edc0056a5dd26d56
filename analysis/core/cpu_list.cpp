#include "core/cpu_list.hpp"

#include <algorithm>
#include <charconv>

#include "core/errors.hpp"
#include "core/format.hpp"

namespace tscaudit {
namespace {

[[noreturn]] void fail(std::string_view text, std::size_t pos, std::string_view what) {
  throw UsageError("bad CPU list '" + printable(text) + "' at character " + std::to_string(pos + 1) + ": " +
                   std::string(what));
}

int parse_number(std::string_view text, std::size_t& pos) {
  const char* first = text.data() + pos;
  const char* last = text.data() + text.size();
  if (first == last || *first < '0' || *first > '9') fail(text, pos, "expected a CPU number");
  int value = 0;
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec != std::errc{} || value > kMaxCpu) {
    fail(text, pos, "CPU number above " + std::to_string(kMaxCpu));
  }
  pos = static_cast<std::size_t>(ptr - text.data());
  return value;
}

}  // namespace

std::vector<int> parse_cpu_list(std::string_view text) {
  if (text.empty()) throw UsageError("empty CPU list");
  std::vector<int> cpus;
  std::size_t pos = 0;
  while (true) {
    const int first = parse_number(text, pos);
    int last = first;
    if (pos < text.size() && text[pos] == '-') {
      ++pos;
      const std::size_t range_end = pos;
      last = parse_number(text, pos);
      if (last < first) fail(text, range_end, "range end below its start");
    }
    for (int c = first; c <= last; ++c) cpus.push_back(c);
    if (pos == text.size()) break;
    if (text[pos] != ',') fail(text, pos, "expected ',' or '-'");
    ++pos;
  }
  return cpus;
}

std::string format_cpu_list(std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(cpus[i]);
    if (j > i) out += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace tscaudit
