// /proc/self status lines: the peak RSS of the monitor's memory evidence and the threads'
// context switches.
#include <catch2/catch.hpp>

#include <sys/syscall.h>
#include <unistd.h>

#include "platform/process_stats.hpp"

using namespace tscaudit;

TEST_CASE("status_number reads kB values and plain counts, and refuses the rest") {
  const char* status =
      "Name:\ttscaudit\n"
      "VmPeak:\t  123456 kB\n"
      "VmHWM:\t    8124 kB\n"
      "VmHWMish:\t 1 kB\n"
      "voluntary_ctxt_switches:\t17\n"
      "nonvoluntary_ctxt_switches:\t4\n"
      "Broken:\t12 MB\n"
      "Empty:\t\n";
  CHECK(status_number(status, "VmHWM") == 8124u);
  CHECK(status_number(status, "VmPeak") == 123456u);
  CHECK(status_number(status, "voluntary_ctxt_switches") == 17u);
  CHECK(status_number(status, "nonvoluntary_ctxt_switches") == 4u);
  CHECK_FALSE(status_number(status, "Broken").has_value());
  CHECK_FALSE(status_number(status, "Empty").has_value());
  CHECK_FALSE(status_number(status, "VmRSS").has_value());
  CHECK_FALSE(status_number(status, "Vm").has_value());
  CHECK_FALSE(status_number("", "VmHWM").has_value());
}

TEST_CASE("this process: a peak RSS and this thread's context switches can be read") {
  const auto rss = peak_rss_kib();
  REQUIRE(rss.has_value());
  CHECK(*rss > 0);
  const auto switches = thread_context_switches(static_cast<long>(::syscall(SYS_gettid)));
  CHECK(switches.has_value());
  CHECK_FALSE(thread_context_switches(-1).has_value());
}
