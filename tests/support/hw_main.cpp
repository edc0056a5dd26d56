// main() for hardware tests: exits 4 (CTest SKIP_RETURN_CODE) with the reason when this
// machine lacks what the binary's tests need, instead of failing them.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>

#include "hw_requirements.hpp"

int main(int argc, char* argv[]) {
  if (const auto reason = tscsync::test::missing_requirement()) {
    std::cout << "SKIPPED: " << *reason << "\n";
    return 4;
  }
  return Catch::Session().run(argc, argv);
}
