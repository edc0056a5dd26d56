// The building blocks of `info`'s text: the label column, CPUs grouped by what they say,
// the signed ppm.
#include <catch2/catch.hpp>

#include "render/labelled_lines.hpp"

using namespace tscaudit;

TEST_CASE("labelled lines: labels padded to one column, one space after a longer one") {
  LabelledLines lines;
  lines.add("host", "metal");
  lines.add("  vs kernel", "+0 ppm");
  lines.add("exactly twenty chars", "x");
  lines.add("a label longer than twenty", "y");
  lines.add("empty", "");
  CHECK(lines.str() ==
        "host                metal\n"
        "  vs kernel         +0 ppm\n"
        "exactly twenty chars x\n"
        "a label longer than twenty y\n"
        "empty               \n");
  CHECK(LabelledLines().str().empty());
}

TEST_CASE("generic CPU paths: a CPU's own number in a path becomes N") {
  CHECK(generic_cpu_paths("no /dev/cpu/12/msr: msr module not loaded") == "no /dev/cpu/N/msr: msr module not loaded");
  CHECK(generic_cpu_paths("/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor: Permission denied") ==
        "/sys/devices/system/cpu/cpuN/cpufreq/scaling_governor: Permission denied");
  // Only a number that a slash ends: not a name, not the end of the text, not a bare "/cpu/".
  CHECK(generic_cpu_paths("/cpu/12") == "/cpu/12");
  CHECK(generic_cpu_paths("/cpu3x/") == "/cpu3x/");
  CHECK(generic_cpu_paths("/cpu//") == "/cpu//");
  CHECK(generic_cpu_paths("/cpufreq/") == "/cpufreq/");
  CHECK(generic_cpu_paths("") == "");
}

TEST_CASE("CPUs grouped by their text, in order of first CPU") {
  const auto groups = group_cpus_by_text({{0, "powersave"},
                                          {1, "performance"},
                                          {2, "powersave"},
                                          {3, "powersave"},
                                          {4, "no /dev/cpu/4/msr"},
                                          {5, "no /dev/cpu/5/msr"}});
  REQUIRE(groups.size() == 3);
  CHECK(groups[0] == std::pair<std::string, std::string>{"0,2-3", "powersave"});
  CHECK(groups[1] == std::pair<std::string, std::string>{"1", "performance"});
  CHECK(groups[2] == std::pair<std::string, std::string>{"4-5", "no /dev/cpu/N/msr"});
  CHECK(group_cpus_by_text({}).empty());
}

TEST_CASE("signed ppm: the sign always, three significant digits") {
  CHECK(signed_ppm(0) == "+0 ppm");
  CHECK(signed_ppm(0.0344827) == "+0.0345 ppm");
  CHECK(signed_ppm(-12.345) == "-12.3 ppm");
  CHECK(signed_ppm(2604.17) == "+2600 ppm");
}
