// What the tests of removal (a signal's cleanup, directories made aside) look at: whether a
// path is there without following a link, a directory's entries, and whether a process has
// ended.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace tscaudit::test {

/// Whether something (a link too, a dangling one included) is at `p`; a link is not followed.
inline bool is_there(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::symlink_status(p, ec).type() != std::filesystem::file_type::not_found;
}

/// The entries of the directory `dir` (0 when it cannot be read).
inline std::size_t entry_count(const std::filesystem::path& dir) {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = std::filesystem::directory_iterator(dir, ec); !ec && it != std::filesystem::directory_iterator();
       it.increment(ec)) {
    ++n;
  }
  return n;
}

/// Whether process `pid` has ended: gone, or a zombie that its parent has not reaped yet.
inline bool process_ended(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const std::size_t close = line.rfind(')');  // the name in parentheses may hold anything
  if (close == std::string::npos || close + 2 >= line.size()) return true;
  const char state = line[close + 2];
  return state == 'Z' || state == 'X';
}

/// Polls `holds` until it is true, at most `limit` (a bound against a hang, not a timing
/// under test). \returns its last answer.
template <typename Predicate>
bool eventually(Predicate holds, std::chrono::milliseconds limit = std::chrono::seconds(30)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!holds()) {
    if (std::chrono::steady_clock::now() >= until) return holds();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

}  // namespace tscaudit::test
