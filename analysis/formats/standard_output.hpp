// Standard output for the results that commands print with std::cout (info, matrix,
// check, variants): written with write(2) through a buffer that keeps the first error,
// so that a result sent to a full disk, /dev/full or a vanished file system ends the
// process with exit 3 and the reason instead of exit 0 with the result lost. (libstdc++
// over stdio sets only a flag; by the end, errno says nothing about the failed write.)
//
// A reader that goes away (`tscaudit matrix --from D | head -1`) is not a failure: as git
// and ripgrep do, the command ends quietly with 141 (128 + SIGPIPE, what a shell shows for
// a writer that SIGPIPE ended). SIGPIPE itself is ignored (src/app/stop_signals.hpp), so the
// write fails with EPIPE instead of killing the process halfway: the buffer drops the rest,
// and the command finishes the files it writes (--out) before it ends.
#pragma once

#include <csignal>
#include <cstddef>
#include <exception>
#include <streambuf>

namespace tscaudit {

/// An output buffer over a file descriptor that remembers why its first write failed.
/// After a failure it drops what it is given (the stream's badbit says so too).
class FdOutputBuffer final : public std::streambuf {
 public:
  explicit FdOutputBuffer(int fd);
  FdOutputBuffer(const FdOutputBuffer&) = delete;
  FdOutputBuffer& operator=(const FdOutputBuffer&) = delete;

  /// errno of the first failed write, 0 while none failed.
  [[nodiscard]] int first_error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override;
  int sync() override;

 private:
  bool drain();  // writes the buffered bytes; false (and error_ set) on a failure

  int fd_;
  int error_ = 0;
  char buffer_[std::size_t{1} << 16];
};

/// The exit status of a command whose standard output's reader went away.
inline constexpr int kExitOutputClosed = 128 + SIGPIPE;

/// Puts std::cout on an FdOutputBuffer over descriptor 1, for the life of the process.
void install_standard_output();

/// Flushes std::cout. \returns false when its reader went away (EPIPE: what was left is
/// dropped; the command ends quietly with kExitOutputClosed), through std::cout or as
/// standard_output_closed noted. \throws IoError "cannot write standard output: REASON" when a
/// write failed otherwise.
[[nodiscard]] bool finish_standard_output();

/// Whether the error `e` is a write to standard output refused because its reader went away
/// (an OutputFile on "-" over a pipe or socket with no reader). When it is, it is noted: the
/// command may go on with its other files (its output to "-" ends there), and it ends
/// quietly with kExitOutputClosed (finish_standard_output returns false).
[[nodiscard]] bool standard_output_closed(const std::exception& e);

}  // namespace tscaudit
