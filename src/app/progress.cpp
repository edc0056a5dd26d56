#include "app/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "render/text_wrap.hpp"

namespace tscaudit {
namespace {

std::string& command_name() {
  static std::string name = "tscaudit";
  return name;
}

/// The terminal's width, at most kTextColumns (the width of every other line of the tool).
std::size_t terminal_columns() {
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return std::min<std::size_t>(size.ws_col, kTextColumns);
  }
  return kTextColumns;
}

/// kProgressAfter, or $TSCAUDIT_PROGRESS_AFTER's seconds where it holds a number from 0 to a
/// day (anything else is the default: a setting of the display is not worth an error).
Progress::Clock::duration progress_after() {
  const char* text = std::getenv("TSCAUDIT_PROGRESS_AFTER");
  if (text != nullptr && *text != '\0') {
    char* end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (*end == '\0' && seconds >= 0 && seconds <= 86400) {
      return std::chrono::duration_cast<Progress::Clock::duration>(std::chrono::duration<double>(seconds));
    }
  }
  return kProgressAfter;
}

}  // namespace

std::string minutes_seconds(double seconds) {
  const long s = std::isfinite(seconds) && seconds > 0 ? std::lround(seconds) : 0;
  char buf[48];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  }
  return buf;
}

std::string progress_text(const std::string& command, const std::string& phase, const std::string& step,
                          double elapsed_seconds, double left_seconds, std::size_t columns) {
  std::string text = "  " + command + ": " + phase;
  if (!step.empty()) text += ": " + step;
  text += ", " + minutes_seconds(elapsed_seconds) + " elapsed";
  if (left_seconds >= 0 && std::isfinite(left_seconds)) text += ", about " + minutes_seconds(left_seconds) + " left";
  // One column short of the width: a line that fills the last column wraps on some terminals.
  const std::size_t room = columns > 1 ? columns - 1 : 1;
  if (text.size() > room) text.resize(room);
  return text;
}

void set_progress_command(std::string command) { command_name() = std::move(command); }

bool progress_shown() {
  if (isatty(STDERR_FILENO) != 1) return false;
  const char* term = std::getenv("TERM");
  return term == nullptr || std::strcmp(term, "dumb") != 0;
}

Progress::Progress(std::string phase, std::size_t total)
    : phase_(std::move(phase)), total_(total), start_(Clock::now()), after_(progress_after()), tty_(progress_shown()) {}

Progress::~Progress() { clear(); }

void Progress::update(std::size_t done, const std::string& step) {
  if (!tty_) return;
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  const double left = total_ > 0 && done > 0 && done <= total_
                          ? elapsed / static_cast<double>(done) * static_cast<double>(total_ - done)
                          : -1.0;
  draw(step, left);
}

void Progress::show(const std::string& step, double left_seconds) {
  if (!tty_) return;
  draw(step, left_seconds);
}

void Progress::draw(const std::string& step, double left_seconds) {
  const Clock::time_point now = Clock::now();
  if (now - start_ < after_ || (shown_ && now - drawn_at_ < kProgressRedraw)) return;
  drawn_at_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  // \r to the line's start, the text, then erase what a longer earlier text left (EL, "\033[K").
  const std::string line =
      "\r" + progress_text(command_name(), phase_, step, elapsed, left_seconds, terminal_columns()) + "\033[K";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  shown_ = true;
}

void Progress::clear() {
  if (!shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace tscaudit
