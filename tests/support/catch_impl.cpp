// The Catch2 implementation (about 37 s of CPU at -O2 -g), compiled once into the object
// library tscaudit_catch_impl and linked into every test executable, each with its own
// main(): support/unit_main.cpp, support/hw_main.cpp, asm/test_asm_shape.cpp. They start the
// session through run_catch(), since Catch::Session is declared only here.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_run.hpp"

namespace tscaudit::test {

int run_catch(int argc, char* argv[]) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  // A test case that checks nothing fails, however the binary is run (by ctest or by hand):
  // the equivalent of --warn NoAssertions, which Catch2 2.13 takes only once on a command
  // line that already says --warn NoTests. A case that cannot run here says "SKIPPED: ..."
  // (support/skip.hpp) and ctest counts it as skipped.
  session.configData().warnings =
      static_cast<Catch::WarnAbout::What>(session.configData().warnings | Catch::WarnAbout::NoAssertions);
  return session.run();
}

}  // namespace tscaudit::test
