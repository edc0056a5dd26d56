// A progress line on a terminal for the commands that measure for more than a moment
// (matrix, variants). Context and progress go to stderr; the data goes to stdout.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

namespace tscaudit {

/// Progress appears on a terminal once a run has taken this long.
inline constexpr std::chrono::seconds kProgressAfter{2};

/// "m:ss", rounded to the second.
inline std::string minutes_seconds(double seconds) {
  const long s = std::lround(seconds);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

/// One line on a terminal, rewritten in place; nothing when stderr is not a terminal.
/// update() reads the clock only when the line can be shown.
class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  /// \param total  steps in the whole run (the time left is extrapolated from them).
  explicit Progress(std::size_t total) : total_(total), start_(Clock::now()), tty_(isatty(STDERR_FILENO) == 1) {}
  /// \param what  what is done so far, e.g. "12 of 400 pair visits".
  void update(std::size_t done, const std::string& what, const char* command) {
    if (!tty_ || Clock::now() - start_ < kProgressAfter) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double left = done > 0 ? elapsed / static_cast<double>(done) * static_cast<double>(total_ - done) : 0;
    std::fprintf(stderr, "\r  %s: %s, %s elapsed, about %s left   ", command, what.c_str(),
                 minutes_seconds(elapsed).c_str(), minutes_seconds(left).c_str());
    shown_ = true;
  }
  /// The same line with the time left as the caller knows it (a run with a deadline).
  void show(const std::string& what, double left_seconds, const char* command) {
    if (!tty_ || Clock::now() - start_ < kProgressAfter) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    std::fprintf(stderr, "\r  %s: %s, %s elapsed, about %s left   ", command, what.c_str(),
                 minutes_seconds(elapsed).c_str(), minutes_seconds(left_seconds).c_str());
    shown_ = true;
  }
  ~Progress() {
    if (shown_) std::fputs("\n", stderr);
  }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  std::size_t total_;
  Clock::time_point start_;
  bool tty_;
  bool shown_ = false;
};

}  // namespace tscaudit
