// The message of the error a call throws, for the tests that hold messages to the letter,
// and the check of a table of inputs against their messages.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

namespace tscaudit::test {

/// The what() of the E that `call()` throws, or "(no error)" when it returns.
template <class E, class Call>
std::string what_thrown(Call&& call) {
  try {
    std::forward<Call>(call)();
  } catch (const E& e) {
    return e.what();
  }
  return "(no error)";
}

/// An input, and the whole message reading it must give.
using InputMessage = std::pair<std::string, std::string>;

/// For each case of `cases`, `error_of(input)` is its message, to the letter.
template <class ErrorOf>
void check_messages(ErrorOf error_of, const std::vector<InputMessage>& cases) {
  for (const auto& [input, message] : cases) {
    INFO("input: " << input);
    CHECK(error_of(input) == message);
  }
}

}  // namespace tscaudit::test
