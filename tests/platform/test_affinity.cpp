#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.hpp"
#include "platform/affinity.hpp"
#include "temp_files.hpp"

using namespace tscaudit;

TEST_CASE("cpu_problem names what is wrong with a CPU") {
  const CpuAvailability cpus{{0, 1, 2, 3}, {0, 1, 3}, {0, 1}};
  CHECK_FALSE(cpu_problem(0, cpus).has_value());
  CHECK(*cpu_problem(7, cpus) == "CPU 7 does not exist (this machine has CPUs 0-3)");
  CHECK(*cpu_problem(2, cpus) == "CPU 2 is offline (online CPUs: 0-1,3)");
  CHECK(*cpu_problem(3, cpus) == "CPU 3 is outside this process's affinity mask (allowed: 0-1)");
}

TEST_CASE("availability is read from sysfs files") {
  const CpuAvailability cpus = read_cpu_availability(TSCAUDIT_TEST_DATA "/sysfs_cpu_offline");
  CHECK(cpus.present == std::vector<int>{0, 1, 2, 3});
  CHECK(cpus.online == std::vector<int>{0, 1, 3});
  CHECK_FALSE(cpus.allowed.empty());  // this process's real mask
  CHECK_THROWS_WITH(read_cpu_availability(TSCAUDIT_TEST_DATA "/no-such-dir"),
                    "cannot read " TSCAUDIT_TEST_DATA "/no-such-dir/present");
}

TEST_CASE("the CPUs' places are read from sysfs alone, renumbered and in topology order") {
  test::TempDir sys;
  // CPUs 0-3: package 1 (ids as the firmware gives them), L3 7 for CPUs 0 and 2, L3 9 for 1;
  // CPU 3 in package 0 without cache files; core 5 holds CPUs 0 and 2 (SMT siblings).
  const struct {
    int cpu;
    long package, l3, core;
  } given[] = {{0, 1, 7, 5}, {1, 1, 9, 6}, {2, 1, 7, 5}, {3, 0, -1, 5}};
  for (const auto& g : given) {
    const std::filesystem::path dir = sys.path / ("cpu" + std::to_string(g.cpu));
    std::filesystem::create_directories(dir / "topology");
    test::spit(dir / "topology/physical_package_id", std::to_string(g.package) + "\n");
    test::spit(dir / "topology/core_id", std::to_string(g.core) + "\n");
    if (g.l3 >= 0) {
      std::filesystem::create_directories(dir / "cache/index3");
      test::spit(dir / "cache/index3/level", "3\n");
      test::spit(dir / "cache/index3/id", std::to_string(g.l3) + "\n");
    }
  }
  const std::vector<CpuPlace> places = read_cpu_places({0, 1, 2, 3, 4}, sys.path.string());
  // Renumbered by first appearance among the CPUs asked for: package 1 -> 0, package 0 -> 1;
  // CPU 4 has no files at all. In order: package, L3, core, number.
  const std::vector<CpuPlace> want{{.cpu = 4, .package = -1, .l3 = -1, .core = -1},
                                   {.cpu = 0, .package = 0, .l3 = 0, .core = 0},
                                   {.cpu = 2, .package = 0, .l3 = 0, .core = 0},
                                   {.cpu = 1, .package = 0, .l3 = 1, .core = 1},
                                   {.cpu = 3, .package = 1, .l3 = -1, .core = 2}};
  CHECK(places == want);
}

TEST_CASE("a thread's affinity mask is read, set and restored") {
  const std::vector<int> allowed = read_cpu_availability().allowed;
  REQUIRE_FALSE(allowed.empty());
  // On a thread of its own, so the test runner's mask is never touched; results come
  // back to the main thread, where Catch2 may assert.
  std::vector<int> before, narrowed, inside_scope, after;
  std::string empty_error, negative_error;
  std::thread t([&] {
    before = this_thread_affinity();
    {
      const AffinityRestorer restore;
      set_this_thread_affinity({allowed.back()});
      inside_scope = this_thread_affinity();
    }
    after = this_thread_affinity();
    set_this_thread_affinity({allowed.front()});
    narrowed = this_thread_affinity();
    try {
      set_this_thread_affinity({});
    } catch (const RuntimeError& e) {
      empty_error = e.what();
    }
    try {
      set_this_thread_affinity({-1});
    } catch (const RuntimeError& e) {
      negative_error = e.what();
    }
  });
  t.join();
  CHECK(before == allowed);  // a new thread inherits the process's mask
  CHECK(inside_scope == std::vector<int>{allowed.back()});
  CHECK(after == before);
  CHECK(narrowed == std::vector<int>{allowed.front()});
  CHECK(empty_error == "cannot set an empty affinity mask");
  CHECK(negative_error == "cannot set an affinity mask with a negative CPU");
}
