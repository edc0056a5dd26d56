// Streams for the tests of the stream readers: a temporary file holding a text, the check
// that reading one in chunks gives what the whole text gives, and a generated stream (glibc
// fopencookie) that counts what it handed out, so that a test can show that a reader
// stopped early instead of reading, and holding, everything.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <sys/types.h>

#include "core/errors.hpp"

namespace tscaudit::test {

/// std::tmpfile() holding `text`, rewound. Closed on destruction.
class TextFile {
 public:
  explicit TextFile(const std::string& text) : file_(std::tmpfile()) {
    if (file_ == nullptr) throw std::runtime_error("tmpfile failed");
    if (std::fwrite(text.data(), 1, text.size(), file_) != text.size())
      throw std::runtime_error("tmpfile write failed");
    std::rewind(file_);
  }
  ~TextFile() { std::fclose(file_); }
  TextFile(const TextFile&) = delete;
  TextFile& operator=(const TextFile&) = delete;
  [[nodiscard]] std::FILE* get() const { return file_; }

 private:
  std::FILE* file_;
};

/// What `read(FILE*)` gives for a file holding `text`, or the message of the InputError
/// it throws.
template <class Read>
auto read_or_error(const std::string& text, Read read) -> std::variant<decltype(read(nullptr)), std::string> {
  TextFile file(text);
  try {
    return read(file.get());
  } catch (const InputError& e) {
    return std::string(e.what());
  }
}

/// `text` with every LF line end made CRLF.
inline std::string with_crlf(std::string text) {
  for (std::size_t i = 0; (i = text.find('\n', i)) != std::string::npos; i += 2) text.insert(i, "\r");
  return text;
}

/// For each of `texts` and each chunk size of `chunks`: `read_chunked(text, chunk)` (a read
/// through a file, `chunk` bytes at a time: the reading, or the error's message) gives what
/// `parse(text)` gives: the same rows (the member `rows` of a Reading), header and trailer
/// metadata, and cut line.
template <class Reading, class Rows, class Parse, class ReadChunked>
void check_chunked_reading(const std::vector<std::string>& texts, const std::vector<std::size_t>& chunks, Parse parse,
                           ReadChunked read_chunked, Rows Reading::*rows) {
  for (const std::string& text : texts) {
    const Reading expected = parse(text);
    for (std::size_t chunk : chunks) {
      INFO("chunk " << chunk << ", text of " << text.size() << " bytes");
      const auto got = read_chunked(text, chunk);
      REQUIRE(std::holds_alternative<Reading>(got));
      const Reading& reading = std::get<Reading>(got);
      CHECK(reading.*rows == expected.*rows);
      CHECK(reading.header.entries() == expected.header.entries());
      CHECK(reading.trailer.entries() == expected.trailer.entries());
      CHECK(reading.cut_line == expected.cut_line);
    }
  }
}

/// An unbuffered read stream: `head`, then `fill_bytes` copies of `fill`, then end of
/// file. Nothing of the stream is stored, so `fill_bytes` may be far beyond memory.
class GeneratedStream {
 public:
  GeneratedStream(std::string head, char fill, std::size_t fill_bytes)
      : head_(std::move(head)), fill_(fill), total_(head_.size() + fill_bytes) {
    cookie_io_functions_t io{};
    io.read = &GeneratedStream::read;
    file_ = ::fopencookie(this, "r", io);
    if (file_ == nullptr) throw std::runtime_error("fopencookie failed");
    // Unbuffered: bytes_read() is what the reader asked for, not stdio's read-ahead.
    std::setvbuf(file_, nullptr, _IONBF, 0);
  }
  ~GeneratedStream() { std::fclose(file_); }
  GeneratedStream(const GeneratedStream&) = delete;
  GeneratedStream& operator=(const GeneratedStream&) = delete;

  [[nodiscard]] std::FILE* get() const { return file_; }
  /// Bytes handed to the reader so far.
  [[nodiscard]] std::size_t bytes_read() const { return pos_; }

 private:
  static ssize_t read(void* cookie, char* buf, std::size_t size) {
    auto* self = static_cast<GeneratedStream*>(cookie);
    const std::size_t n = std::min(size, self->total_ - self->pos_);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = self->pos_ + i;
      buf[i] = at < self->head_.size() ? self->head_[at] : self->fill_;
    }
    self->pos_ += n;
    return static_cast<ssize_t>(n);
  }

  std::string head_;
  char fill_;
  std::size_t total_;
  std::size_t pos_ = 0;
  std::FILE* file_ = nullptr;
};

}  // namespace tscaudit::test
