#include "formats/standard_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>

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
FdOutputBuffer& stdout_buffer() {
  // Never destroyed: std::cout is flushed once more when the process exits, after the
  // function-local statics are gone.
  static auto* buffer = new FdOutputBuffer(STDOUT_FILENO);
  return *buffer;
}
}  // namespace

void install_standard_output() { std::cout.rdbuf(&stdout_buffer()); }

void finish_standard_output() {
  std::cout.flush();
  if (const int err = stdout_buffer().first_error(); err != 0) {
    throw IoError(std::string("cannot write standard output: ") + std::strerror(err));
  }
}

}  // namespace tscaudit
