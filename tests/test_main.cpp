// main() of the portable tests. The Catch2 implementation is support/catch_impl.cpp,
// compiled once for every test executable.
#include <catch2/catch.hpp>

int main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
