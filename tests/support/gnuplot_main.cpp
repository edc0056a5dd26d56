// main() of the tests that run gnuplot: exits 4 (CTest SKIP_RETURN_CODE) with the reason
// where gnuplot is not installed, instead of failing them or passing without running.
// Listing the tests (catch_discover_tests does it at build time) works anywhere.
#include <iostream>
#include <string_view>

#include "app/plot.hpp"
#include "catch_run.hpp"

int main(int argc, char* argv[]) {
  bool listing = false;
  for (int i = 1; i < argc; ++i) listing = listing || std::string_view(argv[i]).rfind("--list", 0) == 0;
  if (!listing && !tscaudit::gnuplot_on_path()) {
    std::cout << "SKIPPED: gnuplot is not installed (not in PATH): apt-get install gnuplot-nox\n";
    return 4;
  }
  return tscaudit::test::run_catch(argc, argv);
}
