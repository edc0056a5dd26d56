#include "io/output_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "core/errors.hpp"
#include "io/temporaries.hpp"
#include "core/format.hpp"

namespace tscaudit {
namespace {

/// The most of a target's file name that its aside file takes (+ ".tmp.XXXXXX").
constexpr std::size_t kTempStemBytes = 200;

/// Tries at a new random name before create_aside_file gives up (each collides with an
/// existing name with a chance of a few in 2^36 unless someone plants names on purpose).
constexpr int kAsideNameTries = 100;

/// Six characters of [A-Za-z0-9] from the kernel's random bytes (the clock and the pid
/// where getrandom(2) fails: the name only has to be new, O_EXCL makes sure it is).
std::string aside_random_chars() {
  static constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  unsigned char bytes[6] = {};
  if (::getrandom(bytes, sizeof bytes, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof bytes)) {
    struct timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    std::uint64_t x = static_cast<std::uint64_t>(ts.tv_nsec) * 0x9E3779B97F4A7C15ULL ^
                      static_cast<std::uint64_t>(::getpid()) << 20 ^ static_cast<std::uint64_t>(ts.tv_sec);
    for (unsigned char& b : bytes) {
      b = static_cast<unsigned char>(x);
      x = x >> 8 | x << 56;
    }
  }
  std::string out;
  for (const unsigned char b : bytes) out += kAlphabet[b % kAlphabet.size()];
  return out;
}

/// A symbolic link whose owner is this process' effective user or root: one that a
/// user set up on purpose (/dev/stdout), not one planted by somebody else.
bool own_or_root_link(const struct stat& link) { return link.st_uid == 0 || link.st_uid == ::geteuid(); }

}  // namespace

int create_aside_file(const std::string& target, std::string_view suffix, std::string& temp_path) {
  // The aside file sits next to the target. Its name must fit NAME_MAX (255 bytes) as
  // the target's does: a long target name gives only its first 200 bytes to it.
  const std::size_t slash = target.rfind('/');
  const std::size_t base = slash == std::string::npos ? 0 : slash + 1;
  const std::string stem =
      target.substr(0, base + std::min<std::size_t>(target.size() - base, kTempStemBytes)) + ".tmp.";
  int err = EEXIST;
  for (int i = 0; i < kAsideNameTries && err == EEXIST; ++i) {
    std::string name = stem + aside_random_chars() + std::string(suffix);
    // O_EXCL: never an existing file, and never through a link (O_NOFOLLOW says so twice).
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      temp_path = std::move(name);
      return fd;
    }
    err = errno;
  }
  throw IoError("cannot create " + printable_text(target) + ": " + std::strerror(err));
}

bool OutputFile::open_in_place() {
  if (path_.empty()) throw IoError("empty output path");
  if (path_ == "-") {
    fd_ = STDOUT_FILENO;
    owns_fd_ = false;
    return true;
  }
  struct stat st {};
  if (::lstat(path_.c_str(), &st) != 0) return false;
  int follow = O_NOFOLLOW;
  if (S_ISLNK(st.st_mode)) {
    // Somebody else's link is replaced by the rename like a regular file, never followed.
    if (!own_or_root_link(st) || ::stat(path_.c_str(), &st) != 0) return false;
    follow = 0;
  }
  if (S_ISDIR(st.st_mode)) throw IoError("cannot write " + printable_text(path_) + ": it is a directory");
  if (S_ISREG(st.st_mode)) return false;
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC | follow);
  if (fd_ < 0) fail("cannot open", errno);
  return true;
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (open_in_place()) return;
  fd_ = create_aside_file(path_, "", temp_path_);
  temp_slot_ = register_temporary(temp_path_);
}

OutputFile::OutputFile(std::string path, const std::string& visible_suffix) : path_(std::move(path)) {
  if (open_in_place()) return;
  const std::string temp = path_ + visible_suffix;
  fd_ = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    const int err = errno;
    if (err == EEXIST) {
      throw IoError("cannot create " + printable_text(temp) +
                    ": it exists (left by a run that was cut short? analyze it, then remove it)");
    }
    throw IoError("cannot create " + printable_text(temp) + ": " + std::strerror(err));
  }
  temp_path_ = temp;
}

void OutputFile::sync() {
  if (temp_path_.empty() || fd_ < 0) return;  // stdout or a device: nothing to keep on disk
  if (::fdatasync(fd_) != 0) fail("cannot write", errno);
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail("cannot write", errno);
  if (st.st_nlink == 0) {
    throw IoError("cannot write " + printable_text(path_) + ": " + printable_text(temp_path_) +
                  " was removed while it was written (its directory deleted?); what it held is lost");
  }
}

void OutputFile::keep_partial() noexcept {
  if (fd_ >= 0 && owns_fd_) ::close(fd_);
  fd_ = -1;
  unregister_temporary(temp_slot_);
  temp_slot_ = -1;
  committed_ = true;  // the destructor leaves the file written aside where it is
}

OutputFile::~OutputFile() {
  if (fd_ >= 0 && owns_fd_) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
  unregister_temporary(temp_slot_);
}

void OutputFile::fail(std::string_view what, int err) const {
  throw IoError(std::string(what) + " " + (path_ == "-" ? std::string("standard output") : printable_text(path_)) + ": " +
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

void OutputFile::set_mode(unsigned mode) {
  if (temp_path_.empty() || fd_ < 0) return;
  if (::fchmod(fd_, static_cast<mode_t>(mode)) != 0) fail("cannot write", errno);
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
  unregister_temporary(temp_slot_);
  temp_slot_ = -1;
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
  if (ec) throw IoError(printable_text(dir) + ": cannot create the directory: " + ec.message());
}

}  // namespace tscaudit
