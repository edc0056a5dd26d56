// main() of the portable tests. The Catch2 implementation is support/catch_impl.cpp,
// compiled once for every test executable.
#include "catch_run.hpp"

int main(int argc, char* argv[]) { return tscaudit::test::run_catch(argc, argv); }
