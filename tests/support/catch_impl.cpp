// The Catch2 implementation (about 37 s of CPU at -O2 -g), compiled once into the object
// library tscaudit_catch_impl and linked into every test executable, each with its own
// main(): support/unit_main.cpp, support/hw_main.cpp, asm/test_asm_shape.cpp. They start the
// session through run_catch(), since Catch::Session is declared only here.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_run.hpp"

namespace tscaudit::test {

int run_catch(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }

}  // namespace tscaudit::test
