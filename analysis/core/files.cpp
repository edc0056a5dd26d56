#include "core/files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/errors.hpp"
#include "core/format.hpp"

namespace tscaudit {
namespace {

[[noreturn]] void fail_open_for_reading(const std::string& path, int err) {
  throw InputError("cannot open " + printable_text(path) + " for reading: " + std::strerror(err));
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

ReadOnlyFd::ReadOnlyFd(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
  if (fd_ < 0) fail_open_for_reading(path, errno);
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
