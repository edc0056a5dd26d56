// Runs the Catch2 session: what every test executable's main() calls. Catch::Session is
// declared only beside the implementation, which support/catch_impl.cpp compiles once.
#pragma once

namespace tscaudit::test {

/// Catch::Session().run(argc, argv), where a test case without an assertion fails: the exit
/// code of the test run.
int run_catch(int argc, char* argv[]);

}  // namespace tscaudit::test
