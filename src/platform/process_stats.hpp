// What the kernel says about this process and its threads while it runs (/proc/self):
// the peak resident set (how the monitor proves its memory stays flat) and each thread's
// context switches (interference per interval).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tscaudit {

/// The number of a "Key:   123 kB" or "key:\t123" line of a /proc status file, or nullopt
/// when the key is missing or its value is not a number. Pure.
std::optional<std::uint64_t> status_number(std::string_view status_text, std::string_view key);

/// VmHWM of /proc/self/status: the peak resident set so far, KiB; nullopt if unreadable.
std::optional<std::uint64_t> peak_rss_kib();

/// voluntary_ctxt_switches + nonvoluntary_ctxt_switches of /proc/self/task/TID/status;
/// nullopt when the thread is gone or the file is unreadable.
std::optional<std::uint64_t> thread_context_switches(long tid);

}  // namespace tscaudit
