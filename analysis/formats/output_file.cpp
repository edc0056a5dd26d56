#include "formats/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/errors.hpp"

namespace tscaudit {
namespace {

/// The most of a target's file name that its aside file takes (+ ".tmp.XXXXXX").
constexpr std::size_t kTempStemBytes = 200;

}  // namespace

bool OutputFile::open_in_place() {
  if (path_.empty()) throw IoError("empty output path");
  if (path_ == "-") {
    fd_ = STDOUT_FILENO;
    owns_fd_ = false;
    return true;
  }
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw IoError("cannot write " + path_ + ": it is a directory");
    if (!S_ISREG(st.st_mode)) {
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) fail("cannot open", errno);
      return true;
    }
  }
  return false;
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (open_in_place()) return;
  // The aside file sits next to the target. Its name must fit NAME_MAX (255 bytes) as
  // the target's does: a long target name gives only its first 200 bytes to it.
  const std::size_t slash = path_.rfind('/');
  const std::size_t base = slash == std::string::npos ? 0 : slash + 1;
  temp_path_ = path_.substr(0, base + std::min<std::size_t>(path_.size() - base, kTempStemBytes)) + ".tmp.XXXXXX";
  std::vector<char> name(temp_path_.begin(), temp_path_.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) {
    const int err = errno;
    temp_path_.clear();
    fail("cannot create", err);
  }
  temp_path_.assign(name.data());
  // mkstemp creates 0600; a finished output gets the usual 0666 & ~umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
}

OutputFile::OutputFile(std::string path, const std::string& visible_suffix) : path_(std::move(path)) {
  if (open_in_place()) return;
  const std::string temp = path_ + visible_suffix;
  fd_ = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    const int err = errno;
    if (err == EEXIST) {
      throw IoError("cannot create " + temp +
                    ": it exists (left by a run that was cut short? analyze it, then remove it)");
    }
    throw IoError("cannot create " + temp + ": " + std::strerror(err));
  }
  temp_path_ = temp;
}

void OutputFile::sync() {
  if (temp_path_.empty() || fd_ < 0) return;  // stdout or a device: nothing to keep on disk
  if (::fdatasync(fd_) != 0) fail("cannot write", errno);
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail("cannot write", errno);
  if (st.st_nlink == 0) {
    throw IoError("cannot write " + path_ + ": " + temp_path_ +
                  " was removed while it was written (its directory deleted?); what it held is lost");
  }
}

void OutputFile::keep_partial() noexcept {
  if (fd_ >= 0 && owns_fd_) ::close(fd_);
  fd_ = -1;
  committed_ = true;  // the destructor leaves the file written aside where it is
}

OutputFile::~OutputFile() {
  if (fd_ >= 0 && owns_fd_) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void OutputFile::fail(std::string_view what, int err) const {
  throw IoError(std::string(what) + " " + (path_ == "-" ? std::string("standard output") : path_) + ": " +
                std::strerror(err));
}

void OutputFile::write(std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd_, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", errno);
    }
    if (n == 0) fail("cannot write", EIO);
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

void OutputFile::commit() {
  if (temp_path_.empty()) {
    // In place (stdout or a device): a device such as /dev/full reports its error on
    // write; nothing more to flush at this level.
    if (owns_fd_ && ::close(fd_) != 0) {
      fd_ = -1;
      fail("cannot write", errno);
    }
    if (owns_fd_) fd_ = -1;
    committed_ = true;
    return;
  }
  if (::fsync(fd_) != 0) fail("cannot write", errno);
  const int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) fail("cannot write", errno);
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) fail("cannot rename the finished output to", errno);
  committed_ = true;
}

void write_text_file(const std::string& path, std::string_view text) {
  OutputFile out(path);
  out.write(text);
  out.commit();
}

void make_directories(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw IoError(dir + ": cannot create the directory: " + ec.message());
}

}  // namespace tscaudit
