// A progress line on a terminal for every phase of a command that can take more than a
// moment: measuring, reading a run directory, analysing, drawing, simulating, the read
// variants (docs/commands.md, "Conventions"). Context and progress go to stderr, the data to
// stdout. The line is one line rewritten in place, shown once a phase has run for
// kProgressAfter, cut to the terminal's width, and erased when the phase ends; when stderr is
// not a terminal nothing is written at all, so that logs and pipes hold only what they say.
//
// It is drawn from the thread that does the work, when that thread reports a step: no thread
// of its own wakes beside measuring threads pinned to CPUs.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace tscaudit {

/// Progress appears on a terminal once a phase has taken this long; $TSCAUDIT_PROGRESS_AFTER
/// (seconds, from 0) changes it, e.g. to see the line on a small input.
inline constexpr std::chrono::seconds kProgressAfter{2};
/// The line is drawn again at most this often (a step every microsecond costs a clock read).
inline constexpr std::chrono::milliseconds kProgressRedraw{200};

/// "m:ss", rounded to the second; "h:mm:ss" from an hour.
std::string minutes_seconds(double seconds);

/// The line's text for a phase: "  check: reading the run: 412 of 992 pairs, 0:05 elapsed,
/// about 0:07 left", cut to `columns` (a line that wraps cannot be rewritten in place).
/// \param left_seconds  negative: unknown, not shown.
std::string progress_text(const std::string& command, const std::string& phase, const std::string& step,
                          double elapsed_seconds, double left_seconds, std::size_t columns);

/// The command whose phases the line names ("check", "report"): set once by main.
void set_progress_command(std::string command);

/// Whether progress lines are drawn: stderr is a terminal whose TERM is not "dumb".
bool progress_shown();

/// One phase. Steps are reported with update() or show(); the line is erased when the
/// object goes (or by clear(), before other output is written to the terminal).
class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  /// \param phase  what the phase does, e.g. "measuring", "reading the run".
  /// \param total  steps in the whole phase; the time left is extrapolated from them (0: unknown).
  explicit Progress(std::string phase, std::size_t total = 0);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// `done` steps of `total`, described by `step` ("412 of 992 pairs"); the time left is
  /// extrapolated from the rate so far.
  void update(std::size_t done, const std::string& step);
  /// The step with the time left as the caller knows it (a run with a deadline).
  void show(const std::string& step, double left_seconds);
  /// Erases the line if it is shown, so that other text can be written to the terminal; the
  /// next step draws it again.
  void clear();

 private:
  void draw(const std::string& step, double left_seconds);

  std::string phase_;
  std::size_t total_;
  Clock::time_point start_;
  Clock::duration after_;
  Clock::time_point drawn_at_{};
  bool tty_;
  bool shown_ = false;
};

}  // namespace tscaudit
