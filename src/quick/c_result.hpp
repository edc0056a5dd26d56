// The quick check's answer as libtscaudit's C result (include/tscaudit.h): the one place
// where the decision's outcome becomes a verdict code and its figures ns.
#pragma once

#include <cerrno>
#include <cstddef>
#include <string>

#include "quick/quick_check.hpp"
#include "tscaudit.h"

namespace tscaudit {

/// Restores errno when a library call returns, whatever its system calls left in it: every
/// entry point of include/tscaudit.h leaves the caller's errno as it was.
class ErrnoKeeper {
 public:
  ErrnoKeeper() : saved_(errno) {}
  ~ErrnoKeeper() { errno = saved_; }
  ErrnoKeeper(const ErrnoKeeper&) = delete;
  ErrnoKeeper& operator=(const ErrnoKeeper&) = delete;

 private:
  int saved_;
};

/// Fills the fields of `result` this version knows from `answer` (size untouched): the
/// verdict (synchronized, not synchronized, else inconclusive: the library has no
/// "incomplete", it is never cut short), the bound and proven offset in ticks and ns, the
/// worst pair, the counts, the frequency and the reason as one printable line.
void fill_result(tscaudit_result& result, const QuickAnswer& answer);

/// `raw` into `out` (`bytes` of it, with the terminating 0) as one printable line: control
/// characters and bytes that are not UTF-8 as \xNN, cut at a UTF-8 character's start. Every
/// reason the library writes goes through it. \pre bytes >= 1.
void copy_reason(char* out, std::size_t bytes, const std::string& raw);

}  // namespace tscaudit
