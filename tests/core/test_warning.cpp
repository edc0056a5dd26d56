// The one filter of platform warnings (core/warning.hpp): which codes weaken an answer
// (docs/machine.md §10.3), exactly, and the lines every command prints of them.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/warning.hpp"

using namespace tscaudit;

TEST_CASE("weakens_answer: the seven codes that make an answer less certain, and no other", "[warning]") {
  for (const char* code : {"emulated", "virtual_machine", "clocksource_not_tsc", "tsc_not_invariant", "tsc_unstable",
                           "counter_erratum", "clocksource_not_arch_sys_counter"}) {
    INFO(code);
    CHECK(weakens_answer(code));
  }
  // What spoils a measurement's precision, not what it proves: printed by info, not weighed.
  for (const char* code : {"powersave_governor", "deep_cstates", "no_isolated_cpus", "smt_on", "no_rdtscp",
                           "counter_trapped", "cntfrq_mismatch", "", "virtual_machine ", "Virtual_machine"}) {
    INFO(code);
    CHECK_FALSE(weakens_answer(code));
  }
}

TEST_CASE("weakening: the weakening warnings in order, and warning_line: code: message", "[warning]") {
  const std::vector<Warning> warnings = {
      {"smt_on", "SMT is on", "pin to one sibling"},
      {"virtual_machine", "running under a hypervisor (KVMKVMKVM)", "the host may move the vCPUs"},
      {"deep_cstates", "C6 exits in 133 us", "disable it"},
      {"clocksource_not_tsc", "the clocksource is hpet", "the kernel distrusts the TSC"},
  };
  const std::vector<Warning> kept = weakening(warnings);
  REQUIRE(kept.size() == 2);
  CHECK(kept[0].code == "virtual_machine");
  CHECK(kept[0].advice == "the host may move the vCPUs");
  CHECK(kept[1].code == "clocksource_not_tsc");
  CHECK(warning_lines(kept) == std::vector<std::string>{"virtual_machine: running under a hypervisor (KVMKVMKVM)",
                                                        "clocksource_not_tsc: the clocksource is hpet"});
  CHECK(warning_line({"smt_on", "SMT is on", "ignored"}) == "smt_on: SMT is on");
  CHECK(weakening({}).empty());
  CHECK(weakening({{"smt_on", "SMT is on", ""}}).empty());
  CHECK(warning_lines({}).empty());
}
