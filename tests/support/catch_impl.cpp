// The Catch2 implementation (about 37 s of CPU at -O2 -g), compiled once into the object
// library tscsync_catch_impl and linked into every test executable, each with its own
// main(): test_main.cpp, support/hw_main.cpp, hw/test_asm_shape.cpp.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
