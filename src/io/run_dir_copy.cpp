// A copy of a run directory: what a reader of it reads, byte for byte.
#include "io/run_dir_copy.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "formats/run_dir.hpp"

namespace tscaudit {
namespace {

/// A descriptor closed with its owner.
struct OwnedFd {
  int fd = -1;
  ~OwnedFd() {
    if (fd >= 0) ::close(fd);
  }
};

[[noreturn]] void fail_write(const std::string& path, int err) {
  throw IoError("cannot write " + printable_text(path) + ": " + std::strerror(err));
}

/// Copies the regular file `from` to the new file `to`. `follow`: a link at `from` is
/// followed (a plain directory's reader follows them); else it is refused.
void copy_file(const std::string& from, const std::string& to, bool follow) {
  OwnedFd in;
  in.fd = ::open(from.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
  if (in.fd < 0) throw InputError("cannot open " + printable_text(from) + " for reading: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(in.fd, &st) != 0) throw InputError("cannot read " + printable_text(from) + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw InputError(printable_text(from) + ": not a regular file");
  OwnedFd out;
  out.fd = ::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (out.fd < 0) fail_write(to, errno);
  // Up to the size it has now: a file still growing is copied as it was.
  auto left = static_cast<std::uint64_t>(st.st_size);
  bool plain_copy = false;
  while (left > 0 && !plain_copy) {
    const ssize_t n = ::copy_file_range(in.fd, nullptr, out.fd, nullptr, left, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP)) {
      plain_copy = true;
      break;
    }
    if (n < 0) fail_write(to, errno);
    if (n == 0) break;  // the file became shorter
    left -= static_cast<std::uint64_t>(n);
  }
  std::vector<char> buf(plain_copy ? 1 << 16 : 0);
  while (plain_copy && left > 0) {
    const ssize_t n = ::read(in.fd, buf.data(), std::min<std::uint64_t>(buf.size(), left));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError("cannot read " + printable_text(from) + ": " + std::strerror(errno));
    if (n == 0) break;
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(out.fd, buf.data() + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) fail_write(to, w < 0 ? errno : EIO);
      done += w;
    }
    left -= static_cast<std::uint64_t>(n);
  }
  if (::fsync(out.fd) != 0) fail_write(to, errno);
}

void make_directory(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0777) != 0) fail_write(dir, errno);
}

}  // namespace

void copy_run_dir(const std::string& from, const std::string& to) {
  make_directory(to);
  if (exists(join_path(from, kManifestName))) {
    for (std::string_view name : {kManifestName, kTopologyName, std::string_view("truth.json")}) {
      if (name == kManifestName || exists(join_path(from, name))) {
        copy_file(join_path(from, name), join_path(to, name), false);
      }
    }
    const std::string rounds = join_path(from, kRoundsDirName);
    if (!is_directory(rounds)) return;
    make_directory(join_path(to, kRoundsDirName));
    for (const std::string& name : list_dir(rounds)) {
      copy_file(join_path(rounds, name), join_path(join_path(to, kRoundsDirName), name), false);
    }
    return;
  }
  for (const std::string& name : list_dir(from)) {
    if (name.front() == '.' || !is_regular_file(join_path(from, name))) continue;
    copy_file(join_path(from, name), join_path(to, name), true);
  }
}

}  // namespace tscaudit
