// Running a piece of a hardware test on a thread of its own, set up first (pinned, or
// given an affinity mask), so the test's own thread keeps its affinity.
#pragma once

#include <catch2/catch.hpp>

#include <exception>
#include <string>
#include <thread>

namespace tscaudit::test {

/// Runs `setup()` then `f()` on a new thread and returns what f returns. An exception
/// from either fails the test with its message.
template <class Setup, class F>
auto on_new_thread(Setup setup, F f) {
  decltype(f()) result{};
  std::string error;
  std::thread t([&] {
    try {
      setup();
      result = f();
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  t.join();
  if (!error.empty()) FAIL(error);
  return result;
}

}  // namespace tscaudit::test
