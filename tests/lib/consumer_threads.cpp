// A C++17 program that uses libtscaudit as its users do: the installed tscaudit.h, linked with
// what `pkg-config --libs tscaudit` says. lib_test.sh builds it with
// -std=c++17 -Wall -Wextra -pedantic -Werror. It makes the C program's call once (through the
// same checks, consumer_checks.h), then from four threads released at the same moment: the
// header says every function is safe to call from several threads at once, so each must get an
// answer of its own, and keep its own errno and affinity.
// Exit 0: every check held; 1: one failed (each printed on stderr); 2: the test could not run.
#include <array>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "consumer_checks.h"

namespace {

constexpr int kThreads = 4;

struct ThreadCall {
  tscaudit_result result{};
  consumer_call call{};
};

}  // namespace

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  consumer_check_version();
  consumer_mask allowed = consumer_affinity();

  tscaudit_options options;
  tscaudit_options_init(&options);
  tscaudit_result once{};
  once.size = sizeof once;
  const consumer_call call = consumer_quick_check(&options, &once);
  consumer_print("one call", call.rc, &once);
  consumer_check_call(call, "one call");
  consumer_check_answer(call.rc, &once, allowed, "one call");

  // The threads wait at a gate so that their calls overlap: four checks that each pin threads
  // of their own on the same CPUs.
  std::array<ThreadCall, kThreads> calls{};
  std::mutex mutex;
  std::condition_variable opened;
  bool open = false;
  std::array<std::thread, kThreads> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads[static_cast<std::size_t>(i)] = std::thread([&, i] {
      ThreadCall& mine = calls[static_cast<std::size_t>(i)];
      mine.result.size = sizeof mine.result;
      {
        std::unique_lock<std::mutex> lock(mutex);
        opened.wait(lock, [&] { return open; });
      }
      mine.call = consumer_quick_check(&options, &mine.result);
    });
  }
  {
    const std::lock_guard<std::mutex> lock(mutex);
    open = true;
  }
  opened.notify_all();
  for (std::thread& t : threads) t.join();

  // Concurrent checks contend for the same CPUs: each must answer (rc 0, one of the verdicts,
  // a reason of its own), though a partner crowded out may make an answer inconclusive.
  for (int i = 0; i < kThreads; ++i) {
    const ThreadCall& c = calls[static_cast<std::size_t>(i)];
    const std::string what = "thread " + std::to_string(i);
    consumer_print(what.c_str(), c.call.rc, &c.result);
    consumer_check_call(c.call, what.c_str());
    CHECK(c.call.rc == TSCAUDIT_OK, "%s: rc %d (%s): %.*s", what.c_str(), c.call.rc, tscaudit_error_name(c.call.rc),
          REASON(&c.result));
    CHECK(c.result.verdict == TSCAUDIT_SYNCHRONIZED || c.result.verdict == TSCAUDIT_NOT_SYNCHRONIZED ||
              c.result.verdict == TSCAUDIT_INCONCLUSIVE,
          "%s: verdict %d", what.c_str(), c.result.verdict);
    CHECK(consumer_reason_ok(&c.result), "%s: the reason is empty, more than one line or not terminated",
          what.c_str());
    CHECK(c.result.size == sizeof c.result, "%s: result.size %zu", what.c_str(), c.result.size);
    if (c.result.verdict != TSCAUDIT_INCONCLUSIVE) consumer_check_answer(c.call.rc, &c.result, allowed, what.c_str());
  }
  CPU_FREE(allowed.set);
  return consumer_failures == 0 ? 0 : 1;
}
