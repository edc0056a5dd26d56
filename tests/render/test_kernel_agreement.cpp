// The kernel log's TSC events in words, and compare_with_kernel on a fabricated matrix and
// diagnosis: every answer, exact sentences.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "render/kernel_agreement.hpp"
#include "render/kernel_tsc_text.hpp"
#include "kernel_agreement_fixture.hpp"

using namespace tscaudit;
using tscaudit::test::four_cpus;
using tscaudit::test::package_off;

namespace {

KernelTscEvent warp(int source, int target, std::optional<std::int64_t> cycles) {
  return test::kernel_event(KernelTscEventKind::warp, source, target, {}, cycles);
}

std::vector<std::string> sentences(const std::vector<KernelComparison>& c) {
  std::vector<std::string> out;
  for (const KernelComparison& k : c) {
    out.push_back(std::to_string(k.event) + " " + std::string(kernel_agreement_name(k.agreement)) + ": " + k.sentence);
  }
  return out;
}

KernelTscLog log_of(std::vector<KernelTscEvent> events) {
  KernelTscLog log;
  for (KernelTscEvent& e : events) log.add(std::move(e));
  return log;
}

}  // namespace

TEST_CASE("kernel TSC events in words") {
  using K = KernelTscEventKind;
  CHECK(kernel_tsc_event_text(warp(0, 5, 1482)) ==
        "the kernel measured 1482 cycles of TSC warp between CPU 0 and CPU 5 when it brought CPU 5 up, and turned "
        "the TSC clocksource off");
  CHECK(kernel_tsc_event_text(warp(-1, -1, 1)) ==
        "the kernel measured 1 cycle of TSC warp between two CPUs (the line naming them is not in the log), and "
        "turned the TSC clocksource off");
  CHECK(kernel_tsc_event_text(warp(0, 7, std::nullopt)) ==
        "the kernel measured an unknown number of cycles of TSC warp between CPU 0 and CPU 7 when it brought CPU 7 "
        "up, and turned the TSC clocksource off");
  CHECK(kernel_tsc_event_text(test::kernel_event(K::warp_random)) ==
        "the kernel saw the TSC warp randomly between the CPUs (each one went back behind the other)");
  KernelTscEvent unstable = test::kernel_event(K::unstable);
  unstable.reason = "clocksource watchdog";
  CHECK(kernel_tsc_event_text(unstable) == "the kernel marked the TSC unstable (clocksource watchdog)");
  CHECK(kernel_tsc_event_text(test::kernel_event(K::unstable_after_boot)) ==
        "the kernel found the TSC unstable after boot, and blamed the BIOS");
  CHECK(kernel_tsc_event_text(test::kernel_event(K::watchdog_unstable, 1)) ==
        "the clocksource watchdog on CPU 1 found the TSC out of step with its reference clock, and marked it "
        "unstable");
  CHECK(kernel_tsc_event_text(test::kernel_event(K::cpus_ahead, 1, -1, {2, 3})) ==
        "the kernel found the TSC of CPUs 2-3 ahead of CPU 1's (its per-CPU check after the TSC was marked "
        "unstable)");
  CHECK(kernel_tsc_event_text(test::kernel_event(K::cpus_behind, 1, -1, {0})) ==
        "the kernel found the TSC of CPU 0 behind CPU 1's (its per-CPU check after the TSC was marked unstable)");
  CHECK(kernel_tsc_event_text(test::kernel_event(K::sync_skipped)) ==
        "the kernel skipped its synchronization check of the TSCs at each CPU's bring-up, the TSC being marked "
        "reliable");
  CHECK(kernel_tsc_event_text(test::kernel_event(K::adjust_differs)) ==
        "the firmware left TSC_ADJUST different among the CPUs of a socket; the kernel made them equal");
  CHECK(kernel_tsc_event_text(test::kernel_event(K::adjust_forced, 0, -1, {}, -2011)) ==
        "the firmware left CPU 0's TSC_ADJUST at -2011; the kernel set it to 0");
  CHECK(kernel_tsc_event_text(test::kernel_event(K::adjust_not_forced, 0, -1, {}, 77)) ==
        "CPU 0's TSC_ADJUST was 77 at boot; the kernel left it (the sockets' TSCs are reset at different times "
        "here)");
  CHECK(kernel_tsc_event_text(test::kernel_event(K::adjust_compensated, 28, -1, {}, 1482, 1482)) ==
        "the kernel found CPU 28's TSC 1482 cycles behind the other CPU's when it brought it up, and wrote 1482 to "
        "its TSC_ADJUST to compensate");
  CHECK(kernel_tsc_event_text(test::kernel_event(K::adjust_compensated, 28, -1, {}, -12, 1470)) ==
        "the kernel found CPU 28's TSC 12 cycles ahead of the other CPU's when it brought it up, and wrote 1470 to "
        "its TSC_ADJUST to compensate");
  CHECK(kernel_tsc_event_text(test::kernel_event(K::adjust_restored, 3, -1, {}, 0, 4096)) ==
        "CPU 3's TSC_ADJUST changed from 0 to 4096 while the system ran (firmware wrote it); the kernel restored 0");
  KernelTscEvent two = warp(0, 5, 1482);
  two.lines = {"[0.5] TSC synchronization [CPU#0 -> CPU#5]:", "[0.5] Measured 1482 cycles TSC warp between CPUs, "
                                                               "turning off TSC clock."};
  CHECK(kernel_tsc_event_quote(two) ==
        "\"[0.5] TSC synchronization [CPU#0 -> CPU#5]:\" \"[0.5] Measured 1482 cycles TSC warp between CPUs, "
        "turning off TSC clock.\"");
}

TEST_CASE("the kernel's word against the diagnosis: agrees, smaller, disagrees, opposite, not compared, mixed") {
  using K = KernelTscEventKind;
  const KernelTscLog log =
      log_of({warp(0, 3, 1482), warp(0, 3, 4000), warp(0, 1, 700), warp(0, 9, 50), warp(2, 3, 1482), warp(3, 2, 1482),
              test::kernel_event(K::unstable), test::kernel_event(K::cpus_ahead, 0, -1, {3}), test::kernel_event(K::cpus_behind, 0, -1, {3}),
              test::kernel_event(K::cpus_ahead, 0, -1, {1, 3, 9}), warp(-1, -1, 99)});
  CHECK(sentences(compare_with_kernel(log, four_cpus(), package_off(), 0)) ==
        std::vector<std::string>{
            "0 agrees: The kernel measured 1482 cycles of TSC warp between CPU 0 and CPU 3 when it brought CPU 3 up; "
            "the tool agrees: CPU 3's counter minus CPU 0's is [+1490, +1520] ticks now (package 1 against "
            "package 0, [+1480, +1530] ticks).",
            "1 agrees_smaller: The kernel measured 4000 cycles of TSC warp between CPU 0 and CPU 3 when it brought "
            "CPU 3 up; the tool agrees that their counters differ, but by less: CPU 3's counter minus CPU 0's is "
            "[+1490, +1520] ticks now (package 1 against package 0, [+1480, +1530] ticks), under the kernel's 4000 "
            "cycles: they were moved closer since (through TSC_ADJUST, by the firmware, or by the hypervisor of a "
            "virtual machine).",
            "2 disagrees: The kernel measured 700 cycles of TSC warp between CPU 0 and CPU 1 when it brought CPU 1 "
            "up, but the tool measured their counters agreeing now (CPU 1 minus CPU 0 within [-30, +28] ticks): the "
            "counters were corrected since (through TSC_ADJUST, by the firmware, or by the hypervisor of a "
            "virtual machine).",
            "3 not_compared: The kernel measured 50 cycles of TSC warp between CPU 0 and CPU 9 when it brought CPU 9 "
            "up; not compared: CPU 9 was not measured.",
            // No band of the pair 2-3: the finding's.
            "4 agrees: The kernel measured 1482 cycles of TSC warp between CPU 2 and CPU 3 when it brought CPU 3 up; "
            "the tool agrees: CPU 3's counter minus CPU 2's is [+1480, +1530] ticks now (package 1 against "
            "package 0).",
            "5 agrees: The kernel measured 1482 cycles of TSC warp between CPU 3 and CPU 2 when it brought CPU 2 up; "
            "the tool agrees: CPU 2's counter minus CPU 3's is [-1530, -1480] ticks now (package 1 against "
            "package 0).",
            "7 agrees: The kernel found the TSC of CPU 3 ahead of CPU 0's; the tool agrees: CPU 3's counter minus "
            "CPU 0's is [+1490, +1520] ticks now (package 1 against package 0, [+1480, +1530] ticks).",
            "8 opposite: The kernel found the TSC of CPU 3 behind CPU 0's; the tool finds them the other way round: "
            "CPU 3's counter minus CPU 0's is [+1490, +1520] ticks now (package 1 against package 0, [+1480, +1530] "
            "ticks).",
            "9 mixed: The kernel found the TSC of CPUs 1,3,9 ahead of CPU 0's; the tool agrees on CPU 3, measured "
            "CPU 1 agreeing with CPU 0's counter now and did not compare CPU 9 (CPU 9 was not measured).",
            "10 not_compared: The kernel measured 99 cycles of TSC warp between two CPUs (the line naming them is "
            "not in the log); not compared: the kernel's line does not name the CPUs."});
}

TEST_CASE("the kernel's word against a drift, and against the pairs' bands alone") {
  // CPU 2 drifts: out of the offset groups, named by a drift finding.
  Diagnosis d = package_off();
  d.offset_group = {0, 0, -1, 1};
  Finding drift;
  drift.kind = FindingKind::drift;
  drift.cpus = {2};
  drift.against = {0, 1, 3};
  drift.lo = 300;
  drift.hi = 500;
  d.findings.push_back(drift);
  const KernelTscLog log = log_of({warp(0, 2, 80), warp(0, 3, 1482), warp(2, 3, 10), warp(0, 1, 700)});
  CHECK(sentences(compare_with_kernel(log, four_cpus(), d, 0))[0] ==
        "0 agrees: The kernel measured 80 cycles of TSC warp between CPU 0 and CPU 2 when it brought CPU 2 up; the "
        "tool agrees: CPU 2's counter differs from CPU 0's now (CPU 2 drifts against CPUs 0-1,3).");
  // No diagnosis (a matrix not diagnosed): each pair's own band, at the tolerance.
  CHECK(sentences(compare_with_kernel(log, four_cpus(), Diagnosis{}, 0)) ==
        std::vector<std::string>{
            "0 not_compared: The kernel measured 80 cycles of TSC warp between CPU 0 and CPU 2 when it brought CPU 2 "
            "up; not compared: no hard band links CPU 0 and CPU 2.",
            "1 agrees: The kernel measured 1482 cycles of TSC warp between CPU 0 and CPU 3 when it brought CPU 3 up; "
            "the tool agrees: CPU 3's counter minus CPU 0's is [+1490, +1520] ticks now.",
            "2 not_compared: The kernel measured 10 cycles of TSC warp between CPU 2 and CPU 3 when it brought CPU 3 "
            "up; not compared: no hard band links CPU 2 and CPU 3.",
            "3 disagrees: The kernel measured 700 cycles of TSC warp between CPU 0 and CPU 1 when it brought CPU 1 "
            "up, but the tool measured their counters agreeing now (CPU 1 minus CPU 0 within [-30, +28] ticks): the "
            "counters were corrected since (through TSC_ADJUST, by the firmware, or by the hypervisor of a "
            "virtual machine)."});
  // A tolerance wider than the band of 0->3: their counters agree within it.
  CHECK(compare_with_kernel(log, four_cpus(), Diagnosis{}, 1600)[1].agreement == KernelAgreement::disagrees);
  CHECK(compare_with_kernel(KernelTscLog{}, four_cpus(), d, 0).empty());
}
