#include "core/files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "core/errors.hpp"
#include "core/format.hpp"

namespace tscaudit {
namespace {

[[noreturn]] void fail_open_for_reading(const std::string& path, int err) {
  throw InputError("cannot open " + printable_text(path) + " for reading: " + std::strerror(err));
}

/// "a FIFO", "a directory", ...: what `mode` is, as a message names it.
std::string file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "neither a file nor a directory";
}

/// Opens `path` for reading without waiting, and refuses anything but a regular file.
/// \returns the descriptor (the caller closes it) and its size when opened.
int open_regular(const std::string& path, std::uint64_t* size) {
  int fd = -1;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) fail_open_for_reading(path, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw IoError("cannot read " + path + ": " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError(path + ": not a regular file (" + file_kind(st.st_mode) + ")");
  }
  if (size != nullptr) *size = static_cast<std::uint64_t>(st.st_size);
  return fd;
}

}  // namespace

FilePtr open_for_reading(const std::string& path) {
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (!file) fail_open_for_reading(path, errno);
  return file;
}

FilePtr open_input_file(const std::string& path) {
  if (is_directory(path)) throw InputError("cannot read " + printable_text(path) + ": it is a directory");
  return open_for_reading(path);
}

ReadOnlyFd::ReadOnlyFd(const std::string& path, OpenAs as) : fd_(-1) {
  if (as == OpenAs::regular_file) {
    fd_ = open_regular(path, nullptr);
    return;
  }
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) fail_open_for_reading(path, errno);
}

std::string read_regular_file(const std::string& path, std::uint64_t max_bytes, std::string_view what) {
  std::uint64_t size = 0;
  const int fd = open_regular(path, &size);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  const std::string limit = "the " + std::to_string(max_bytes) + " bytes " + std::string(what) + " may hold";
  if (size > max_bytes) throw InputError(path + ": " + std::to_string(size) + " bytes, more than " + limit);
  std::string text;
  // The size fstat gave, one byte more to see the end; a file that grows past the limit
  // while it is read is cut there and refused.
  text.resize(static_cast<std::size_t>(std::min<std::uint64_t>(size, max_bytes) + 1));
  std::size_t done = 0;
  while (true) {
    if (done == text.size()) {
      if (done > max_bytes) throw InputError(path + ": it grew past " + limit + " while it was read");
      text.resize(static_cast<std::size_t>(std::min<std::uint64_t>(max_bytes + 1, std::uint64_t{done} * 2 + 4096)));
    }
    const ssize_t n = ::read(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError("cannot read " + path + ": " + std::strerror(errno));
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  text.resize(done);
  return text;
}

ReadOnlyFd::~ReadOnlyFd() { ::close(fd_); }

void read_at(int fd, const std::string& path, std::uint64_t offset, std::string& out, std::size_t size) {
  out.resize(size);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, out.data() + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError("cannot read " + printable_text(path) + ": " + std::strerror(errno));
    if (n == 0) throw IoError("cannot read " + printable_text(path) + ": it became shorter while it was read");
    done += static_cast<std::size_t>(n);
  }
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<std::string> list_dir(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) throw InputError("cannot read the directory " + printable_text(dir) + ": " + std::strerror(errno));
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::string join_path(const std::string& dir, std::string_view name) {
  if (dir.empty() || dir.back() == '/') return dir + std::string(name);
  return dir + "/" + std::string(name);
}

}  // namespace tscaudit
