#include <catch2/catch.hpp>

#include "affinity.hpp"
#include "errors.hpp"

using namespace tscsync;

TEST_CASE("cpu_problem names what is wrong with a CPU") {
  const CpuAvailability cpus{{0, 1, 2, 3}, {0, 1, 3}, {0, 1}};
  CHECK_FALSE(cpu_problem(0, cpus).has_value());
  CHECK(*cpu_problem(7, cpus) == "CPU 7 does not exist (this machine has CPUs 0-3)");
  CHECK(*cpu_problem(2, cpus) == "CPU 2 is offline (online CPUs: 0-1,3)");
  CHECK(*cpu_problem(3, cpus) == "CPU 3 is outside this process's affinity mask (allowed: 0-1)");
}

TEST_CASE("availability is read from sysfs files") {
  const CpuAvailability cpus = read_cpu_availability(TSCSYNC_TEST_DATA "/sysfs_cpu_offline");
  CHECK(cpus.present == std::vector<int>{0, 1, 2, 3});
  CHECK(cpus.online == std::vector<int>{0, 1, 3});
  CHECK_FALSE(cpus.allowed.empty());  // this process's real mask
  CHECK_THROWS_WITH(read_cpu_availability(TSCSYNC_TEST_DATA "/no-such-dir"),
                    "cannot read " TSCSYNC_TEST_DATA "/no-such-dir/present");
}
