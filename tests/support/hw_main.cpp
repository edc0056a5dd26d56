// main() for hardware tests: exits 4 (CTest SKIP_RETURN_CODE) with the reason when this
// machine lacks what the binary's tests need, instead of failing them. Listing the tests
// (catch_discover_tests does it at build time) works on any machine. The Catch2
// implementation is support/catch_impl.cpp.
#include <iostream>
#include <string_view>

#include "catch_run.hpp"
#include "hw_requirements.hpp"

int main(int argc, char* argv[]) {
  bool listing = false;
  for (int i = 1; i < argc; ++i) listing = listing || std::string_view(argv[i]).rfind("--list", 0) == 0;
  if (!listing) {
    if (const auto reason = tscaudit::test::missing_requirement()) {
      std::cout << "SKIPPED: " << *reason << "\n";
      return 4;
    }
  }
  return tscaudit::test::run_catch(argc, argv);
}
