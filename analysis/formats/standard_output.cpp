#include "formats/standard_output.hpp"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>

#include "core/errors.hpp"

namespace tscaudit {

FdOutputBuffer::FdOutputBuffer(int fd) : fd_(fd) { setp(buffer_, buffer_ + sizeof buffer_); }

FdOutputBuffer::int_type FdOutputBuffer::overflow(int_type ch) {
  if (!drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(ch, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(ch);
    pbump(1);
  }
  return traits_type::not_eof(ch);
}

int FdOutputBuffer::sync() { return drain() ? 0 : -1; }

bool FdOutputBuffer::drain() {
  const char* p = pbase();
  std::size_t n = static_cast<std::size_t>(pptr() - pbase());
  setp(buffer_, buffer_ + sizeof buffer_);  // emptied whatever happens: a failed write drops the rest
  if (error_ != 0) return false;
  while (n > 0) {
    const ssize_t w = ::write(fd_, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      error_ = w < 0 ? errno : EIO;
      return false;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

namespace {
bool g_reader_gone = false;  // standard_output_closed saw it (the main thread's)

FdOutputBuffer& stdout_buffer() {
  // Never destroyed: std::cout is flushed once more when the process exits, after the
  // function-local statics are gone.
  static auto* buffer = new FdOutputBuffer(STDOUT_FILENO);
  return *buffer;
}
}  // namespace

void install_standard_output() { std::cout.rdbuf(&stdout_buffer()); }

bool finish_standard_output() {
  std::cout.flush();
  const int err = stdout_buffer().first_error();
  if (err == EPIPE || g_reader_gone) return false;
  if (err != 0) throw IoError(std::string("cannot write standard output: ") + std::strerror(err));
  return true;
}

bool standard_output_closed(const std::exception& e) {
  if (dynamic_cast<const IoError*>(&e) == nullptr) return false;
  if (std::string_view(e.what()).find("standard output") == std::string_view::npos) return false;
  // The write's errno is gone with the message; the descriptor still says it: a pipe or a
  // socket whose reader has gone polls as an error (a hung-up terminal is not one of these).
  struct stat st {};
  if (::fstat(STDOUT_FILENO, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) return false;
  pollfd p{STDOUT_FILENO, POLLOUT, 0};
  if (::poll(&p, 1, 0) != 1 || (p.revents & (POLLERR | POLLHUP)) == 0) return false;
  g_reader_gone = true;
  return true;
}

}  // namespace tscaudit
