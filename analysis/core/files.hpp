// Files as the readers open and ask about them, written once: opening a file for reading
// (one message when it cannot be), whether a path exists, is a directory or a regular
// file, the names in a directory, reading part of an open file. The readers of runs,
// interval logs and run directories, and the platform's readers of /sys, share them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tscaudit {

struct FileCloser {
  void operator()(std::FILE* file) const noexcept { std::fclose(file); }
};

/// A stream that closes itself (a read stream: nothing is lost when fclose fails).
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

/// fopen(path, "rb").
/// \throws InputError "cannot open PATH for reading: REASON" (missing, no permission).
FilePtr open_for_reading(const std::string& path);

/// A file that a user named, opened for reading: a directory is refused by name before
/// (fopen would open one, and only its first read would fail).
/// \throws InputError "cannot read PATH: it is a directory", or as open_for_reading.
FilePtr open_input_file(const std::string& path);

/// What a reader accepts at a path it opens.
enum class OpenAs {
  any_file,      // whatever open(2) opens
  regular_file,  // a regular file (or a link to one) only: opened without waiting (O_NONBLOCK,
                 // so that a FIFO never blocks the open), then fstat must say regular
};

/// A file descriptor open for reading (open(2), O_RDONLY | O_CLOEXEC), closed with it.
class ReadOnlyFd {
 public:
  /// \throws InputError "cannot open PATH for reading: REASON", as open_for_reading; with
  ///         OpenAs::regular_file, "PATH: not a regular file (a FIFO)" (a directory, a
  ///         character device, ...) as read_regular_file.
  explicit ReadOnlyFd(const std::string& path, OpenAs as = OpenAs::any_file);
  ~ReadOnlyFd();
  ReadOnlyFd(const ReadOnlyFd&) = delete;
  ReadOnlyFd& operator=(const ReadOnlyFd&) = delete;
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_;
};

/// The whole of the regular file at `path` (or where a link to one leads), at most
/// `max_bytes` of it: what a reader of a file that a hostile directory may hold reads whole.
/// The open never waits (O_NONBLOCK: a FIFO is refused, not waited on), anything but a
/// regular file is refused before a byte is read (a FIFO, a device such as /dev/zero, a
/// directory, a socket), and the read stops past `max_bytes` even when the file grows
/// while it is read. `what` names the file in the message ("a manifest").
/// \throws InputError "cannot open PATH for reading: REASON"; "PATH: not a regular file (a
///         FIFO)"; "PATH: N bytes, more than the M bytes WHAT may hold"; IoError "cannot read
///         PATH: REASON".
std::string read_regular_file(const std::string& path, std::uint64_t max_bytes, std::string_view what = "a file");

/// Reads `size` bytes at `offset` of an open file into `out` (resized to `size`).
/// \throws IoError "cannot read PATH: REASON", or when the file ends before.
void read_at(int fd, const std::string& path, std::uint64_t offset, std::string& out, std::size_t size);

/// Something is there by that name (lstat: a link counts, even one that leads nowhere).
bool exists(const std::string& path);
/// A directory, or a link to one.
bool is_directory(const std::string& path);
/// A regular file, or a link to one.
bool is_regular_file(const std::string& path);

/// The names in `dir` (not . and ..), sorted.
/// \throws InputError "cannot read the directory DIR: REASON" (a directory the user named).
std::vector<std::string> list_dir(const std::string& dir);

/// DIR/NAME, for a directory given with or without its trailing '/'; NAME alone for "".
std::string join_path(const std::string& dir, std::string_view name);

}  // namespace tscaudit
