// Standard output for the results that commands print with std::cout (info, matrix,
// check, variants): written with write(2) through a buffer that keeps the first error,
// so that a result sent to a full disk, /dev/full or a vanished file system ends the
// process with exit 3 and the reason instead of exit 0 with the result lost. (libstdc++
// over stdio sets only a flag; by the end, errno says nothing about the failed write.)
#pragma once

#include <cstddef>
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

/// Puts std::cout on an FdOutputBuffer over descriptor 1, for the life of the process.
void install_standard_output();

/// Flushes std::cout. \throws IoError "cannot write standard output: REASON" when any
/// write to it failed.
void finish_standard_output();

}  // namespace tscaudit
