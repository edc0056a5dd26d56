// weigh_kernel_events (matrix/kernel_agreement.hpp), exact: which events are weighed, each
// pair's agreement, the band quoted, the finding it rests on and why a pair was not compared.
// The sentences are render/kernel_agreement.hpp's (tests/render/test_kernel_agreement.cpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <vector>

#include "matrix/kernel_agreement.hpp"
#include "kernel_agreement_fixture.hpp"

using namespace tscaudit;

TEST_CASE("weigh_kernel_events: the events weighed, and each pair's answer", "[kernel_agreement]") {
  using K = KernelTscEventKind;
  KernelTscLog log;
  log.add(test::kernel_event(K::warp, 0, 3, {}, 4000));       // 0: a band below the warp
  log.add(test::kernel_event(K::unstable, -1, -1));           // 1: names no pair: not weighed
  log.add(test::kernel_event(K::warp, 3, 2, {}, -1482));      // 2: no band of its own: the finding's, turned
  log.add(test::kernel_event(K::cpus_behind, 0, -1, {}));     // 3: names no CPU: not weighed
  log.add(test::kernel_event(K::cpus_ahead, 0, -1, {1, 3, 9}));  // 4: mixed
  log.add(test::kernel_event(K::cpus_behind, 9, -1, {8}));    // 5: neither measured
  const std::vector<KernelEventAnswer> answers = weigh_kernel_events(log, test::four_cpus(), test::package_off(), 0);
  REQUIRE(answers.size() == 4);

  const KernelEventAnswer& smaller = answers[0];
  CHECK(smaller.event == 0);
  CHECK(smaller.agreement == KernelAgreement::agrees_smaller);
  CHECK(smaller.at_least_ticks == Approx(4000).margin(0));
  REQUIRE(smaller.pairs.size() == 1);
  CHECK(smaller.pairs[0].x == 0);
  CHECK(smaller.pairs[0].y == 3);
  CHECK(smaller.pairs[0].lo == Approx(1490).margin(0));  // the narrower role's own band (0->3, width 30)
  CHECK(smaller.pairs[0].hi == Approx(1520).margin(0));
  CHECK(smaller.pairs[0].finding == 0);
  CHECK(smaller.pairs[0].finding_lo == Approx(1480).margin(0));
  CHECK(smaller.pairs[0].finding_hi == Approx(1530).margin(0));
  CHECK_FALSE(smaller.pairs[0].quotes_finding);

  const KernelEventAnswer& turned = answers[1];
  CHECK(turned.event == 2);
  CHECK(turned.agreement == KernelAgreement::agrees);
  CHECK(turned.at_least_ticks == Approx(1482).margin(0));  // |cycles|
  REQUIRE(turned.pairs.size() == 1);
  CHECK(turned.pairs[0].lo == Approx(-1530).margin(0));
  CHECK(turned.pairs[0].hi == Approx(-1480).margin(0));
  CHECK(turned.pairs[0].quotes_finding);
  CHECK(turned.pairs[0].why_not == KernelNotCompared::compared);

  const KernelEventAnswer& mixed = answers[2];
  CHECK(mixed.event == 4);
  CHECK(mixed.agreement == KernelAgreement::mixed);
  CHECK(mixed.at_least_ticks == Approx(0).margin(0));
  REQUIRE(mixed.pairs.size() == 3);
  CHECK(mixed.pairs[0].agreement == KernelAgreement::disagrees);  // one offset group
  CHECK(mixed.pairs[0].lo == Approx(-30).margin(0));
  CHECK(mixed.pairs[0].hi == Approx(28).margin(0));
  CHECK(mixed.pairs[1].agreement == KernelAgreement::agrees);
  CHECK(mixed.pairs[2].agreement == KernelAgreement::not_compared);
  CHECK(mixed.pairs[2].why_not == KernelNotCompared::y_not_measured);
  CHECK(std::isnan(mixed.pairs[2].lo));

  CHECK(answers[3].event == 5);
  CHECK(answers[3].agreement == KernelAgreement::not_compared);
  CHECK(answers[3].pairs[0].why_not == KernelNotCompared::neither_measured);
}

TEST_CASE("weigh_kernel_events: without a diagnosis, the pair's band at the tolerance, and the sign", "[kernel_agreement]") {
  using K = KernelTscEventKind;
  KernelTscLog log;
  log.add(test::kernel_event(K::cpus_behind, 0, -1, {3}));  // the tool finds 3 ahead
  log.add(test::kernel_event(K::warp, 0, 2, {}, 10));       // no band links 0 and 2
  log.add(test::kernel_event(K::warp, -1, 5, {}, 10));      // a CPU not named
  const std::vector<KernelEventAnswer> a = weigh_kernel_events(log, test::four_cpus(), Diagnosis{}, 0);
  REQUIRE(a.size() == 3);
  CHECK(a[0].agreement == KernelAgreement::opposite);
  CHECK(a[0].pairs[0].finding == -1);
  CHECK(a[1].pairs[0].why_not == KernelNotCompared::no_band);
  CHECK(a[2].pairs[0].why_not == KernelNotCompared::cpus_not_named);
  // A tolerance wider than the band: the counters agree within it.
  CHECK(weigh_kernel_events(log, test::four_cpus(), Diagnosis{}, 1600)[0].agreement == KernelAgreement::disagrees);
}
