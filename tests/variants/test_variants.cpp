// The variants decision on simulated exchanges with known early reads, and its writers.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "core/format.hpp"
#include "render/variants_output.hpp"
#include "render/verdict_text.hpp"
#include "simulate/simulate.hpp"
#include "variants/variants.hpp"

using namespace tscaudit;

namespace {

ReadCost cost(const std::string& name, double p50, CostMethod believe = CostMethod::batch) {
  ReadCost c;
  c.name = name;
  CostStats s;
  s.min = p50 - 1;
  s.p50 = p50;
  s.mean = p50 + 0.5;
  s.p99_9 = p50 * 2;
  s.samples = 100;
  c.batch_ticks = s;
  CostStats d = s;
  d.p50 = p50 + 10;  // the other method says something else: only the believed one counts
  c.delta_ticks = d;
  c.believe = believe;
  c.believe_reason = "because";
  return c;
}

/// Makes the summaries of simulated exchanges (each holds its runs and analyses).
struct Bench {
  /// Both roles of one combination: early receive reads on both sides at `early_rate`.
  ExchangeSummary exchange(ReadVariant send, ReadVariant recv, double early_rate, std::uint64_t seed,
                           double extra_delay_ticks = 0) {
    std::vector<std::shared_ptr<const Run>> rs;
    std::vector<std::shared_ptr<const PairAnalysis>> as;
    for (int role = 0; role < 2; ++role) {
      SimulationSpec spec;
      spec.rounds = 20'000;
      spec.seed = seed * 2 + static_cast<std::uint64_t>(role);
      spec.quantum_ticks = 2;
      spec.fwd.base_ticks = 180 + extra_delay_ticks;
      spec.rev.base_ticks = 180 + extra_delay_ticks;
      for (SpeculationSpec* s : {&spec.spec_a, &spec.spec_b}) {
        s->rate = early_rate;
        s->early_min_ticks = 400;  // beyond the minimum delay: a sure violation
        s->early_max_ticks = 600;
      }
      SimulationTruth truth;
      Run run = simulate(spec, truth);
      run.header.set("a", role == 0 ? "0" : "1");
      run.header.set("b", role == 0 ? "1" : "0");
      run.header.set("send", std::string(variant_name(send)));
      run.header.set("recv", std::string(variant_name(recv)));
      rs.push_back(std::make_shared<const Run>(std::move(run)));
      as.push_back(std::make_shared<const PairAnalysis>(
          analyze_run(*rs.back(), std::string(variant_name(send)) + "/" + std::string(variant_name(recv)))));
    }
    return summarize_exchange({send, recv}, rs, as);
  }
};

}  // namespace

TEST_CASE("variants: the default combinations answer the usual questions", "[variants]") {
  const std::vector<Combination> d = default_combinations(kX86Variants);
  REQUIRE(d.size() == 11);
  for (std::size_t i = 0; i < kX86Variants.size(); ++i) CHECK(d[i] == Combination{ReadVariant::rdtsc, kX86Variants[i]});
  CHECK(d[8] == Combination{ReadVariant::rdtsc_lfence, ReadVariant::rdtscp});
  CHECK(d[9] == Combination{ReadVariant::rdtscp, ReadVariant::rdtscp});
  CHECK(d[10] == Combination{ReadVariant::lfence_rdtsc, ReadVariant::lfence_rdtsc});

  // Without RDTSCP the combinations that need it drop out.
  const std::vector<ReadVariant> no_rdtscp = {ReadVariant::rdtsc,        ReadVariant::rdtsc_lfence,
                                              ReadVariant::lfence_rdtsc, ReadVariant::lfence_rdtsc_lfence,
                                              ReadVariant::mfence_rdtsc, ReadVariant::cpuid_rdtsc};
  const std::vector<Combination> n = default_combinations(no_rdtscp);
  REQUIRE(n.size() == 7);
  CHECK(n.back() == Combination{ReadVariant::lfence_rdtsc, ReadVariant::lfence_rdtsc});
  CHECK(default_combinations({}).empty());
  const std::vector<ReadVariant> ordering_only = {ReadVariant::lfence_rdtsc};
  CHECK(default_combinations(ordering_only).empty());  // no plain read, no baseline

  const std::vector<Combination> all = all_combinations(kX86Variants);
  REQUIRE(all.size() == 64);
  CHECK(all[1] == Combination{ReadVariant::rdtsc, ReadVariant::rdtsc_lfence});
  CHECK(all[8] == Combination{ReadVariant::rdtsc_lfence, ReadVariant::rdtsc});
  CHECK(all[63] == Combination{ReadVariant::cpuid_rdtsc, ReadVariant::cpuid_rdtsc});
}

TEST_CASE("variants: aarch64's default combinations, with and without FEAT_ECV", "[variants]") {
  const std::vector<Combination> d = default_combinations(kAarch64Variants);
  REQUIRE(d.size() == 8);
  for (std::size_t i = 0; i < kAarch64Variants.size(); ++i) {
    CHECK(d[i] == Combination{ReadVariant::cntvct, kAarch64Variants[i]});
  }
  CHECK(d[6] == Combination{ReadVariant::isb_cntvct, ReadVariant::isb_cntvct});
  CHECK(d[7] == Combination{ReadVariant::isb_cntvct_dep, ReadVariant::isb_cntvct_dep});
  // Without FEAT_ECV cntvctss drops out, and nothing else.
  const std::vector<ReadVariant> no_ecv(kAarch64Variants.begin(), kAarch64Variants.end() - 1);
  const std::vector<Combination> n = default_combinations(no_ecv);
  REQUIRE(n.size() == 7);
  CHECK(std::none_of(n.begin(), n.end(), [](const Combination& c) { return c.recv == ReadVariant::cntvctss; }));
  CHECK(is_plain_combination(plain_combination(CounterArch::aarch64)));
  CHECK(plain_combination(CounterArch::aarch64) == Combination{ReadVariant::cntvct, ReadVariant::cntvct});
  CHECK_FALSE(is_plain_combination({ReadVariant::cntvct, ReadVariant::isb_cntvct}));
}

TEST_CASE("variants: an exchange summary sums the roles and pools their latencies", "[variants]") {
  Bench bench;
  const ExchangeSummary s = bench.exchange(ReadVariant::rdtsc, ReadVariant::rdtsc, 0.01, 7);
  REQUIRE(s.roles.size() == 2);
  const PairAnalysis& r0 = *s.roles[0];
  const PairAnalysis& r1 = *s.roles[1];
  CHECK(s.rounds == 40'000);
  CHECK(s.one_way == 80'000);
  CHECK(s.one_way_ticks.total() == 80'000);
  CHECK(s.rtt_ticks.total() == 40'000);
  CHECK(s.fwd.causality_violation == r0.fwd_classes.causality_violation + r1.fwd_classes.causality_violation);
  CHECK(s.rev.marginal == r0.rev_classes.marginal + r1.rev_classes.marginal);
  CHECK(s.causality_violations == s.fwd.causality_violation + s.rev.causality_violation);
  CHECK(s.negative == s.offset_explained + s.marginal + s.causality_violations);
  // Early reads 400-600 ticks with a 180-tick floor: every early read is a negative latency.
  CHECK(s.negative == s.one_way_ticks.negative_count());
  CHECK(s.causality_violations > 0);
  CHECK(s.self_inconsistent == r0.self_inconsistent + r1.self_inconsistent);
  CHECK(s.quantum_ticks == 2);
  CHECK(s.violations_per_million() == Approx(1e6 * static_cast<double>(s.causality_violations) / 80'000.0));
  CHECK_FALSE(s.clean());
  CHECK(s.rtt_ticks.min() == std::min(r0.rtt_ticks.min(), r1.rtt_ticks.min()));
}

TEST_CASE("variants: the cheapest clean receive read is recommended", "[variants]") {
  Bench bench;
  const std::vector<ExchangeSummary> ex = {
      bench.exchange(ReadVariant::rdtsc, ReadVariant::rdtsc, 0.01, 1),
      bench.exchange(ReadVariant::rdtsc, ReadVariant::rdtsc_lfence, 0.01, 2),  // the fence after the read does not help
      // Ordering reads: no early read, and each costs its read a little more on the wire.
      bench.exchange(ReadVariant::rdtsc, ReadVariant::lfence_rdtsc, 0, 3, 40),
      bench.exchange(ReadVariant::rdtsc, ReadVariant::rdtscp, 0, 4, 50)};
  const std::vector<ReadCost> costs = {cost("rdtsc", 20), cost("rdtsc_lfence", 24), cost("lfence_rdtsc", 41),
                                       cost("rdtscp", 38, CostMethod::deltas)};
  const VariantsVerdict v = decide_variants(costs, ex, std::nullopt, 2.3e9);

  REQUIRE(v.recommended);
  // rdtscp's believed figure (deltas, 48) is dearer than lfence_rdtsc's (batch, 41).
  CHECK(v.recommended->recv == ReadVariant::lfence_rdtsc);
  CHECK(v.recommended->orders_earlier_loads);
  CHECK(v.recommended->cost_ticks == Approx(41));
  CHECK(v.recommended_cost_over_plain_ticks == Approx(21));
  REQUIRE(v.cheapest_clean);
  CHECK(v.cheapest_clean->recv == ReadVariant::lfence_rdtsc);  // the same: no cheaper read was clean
  REQUIRE(v.standings.size() == 4);
  CHECK(v.standings[0].recv == ReadVariant::rdtsc);
  CHECK(v.standings[1].recv == ReadVariant::rdtsc_lfence);
  CHECK(v.standings[2].recv == ReadVariant::lfence_rdtsc);
  CHECK(v.standings[3].recv == ReadVariant::rdtscp);
  CHECK_FALSE(v.standings[0].clean);
  CHECK_FALSE(v.standings[1].clean);
  CHECK(v.standings[2].clean);
  CHECK(v.standings[2].one_way == 80'000);

  REQUIRE(v.plain == std::size_t{0});
  REQUIRE(v.inflation.size() == 4);
  CHECK(v.inflation[0].rtt_min_over_plain_ticks == 0);
  CHECK(v.inflation[2].rtt_min_ticks == ex[2].rtt_ticks.min());  // no early read: no rtt < 0
  CHECK(v.inflation[2].rtt_negative == 0);
  // Plain reads early by 400-600 ticks give impossible round trips: left out of the minimum.
  CHECK(v.inflation[0].rtt_negative == ex[0].rtt_ticks.negative_count());
  CHECK(v.inflation[0].rtt_negative > 0);
  CHECK(v.inflation[0].rtt_min_ticks >= 0);
  CHECK(v.inflation[2].rtt_min_over_plain_ticks == ex[2].rtt_ticks.min() - min_non_negative(ex[0].rtt_ticks));
  // Early receive reads shorten the round trip: plain looks faster than it is.
  CHECK(v.inflation[2].rtt_min_over_plain_ticks > 0);

  REQUIRE(variants_findings(v).size() == 5);
  const ExchangeSummary& p = ex[0];
  REQUIRE(p.causality_violations > 0);
  CHECK(variants_findings(v)[0] ==
        "plain rdtsc on both sides: " + std::to_string(p.negative) + " of 80000 one-way latencies negative (" +
            format_sig(100.0 * static_cast<double>(p.negative) / 80000.0, 2) + " %), " +
            std::to_string(p.causality_violations) +
            " beyond what any offset in the run's own band and the quantum (2 ticks) explain: "
            "causality violations, receive stamps read early" +
            (p.self_inconsistent > 0
                 ? "; " + std::to_string(p.self_inconsistent) + " rounds with rtt < -2q, impossible for any offset"
                 : std::string()));
  CHECK(variants_findings(v)[1] == "plain send, no negative one-way latency with receive lfence_rdtsc, rdtscp");
  CHECK(variants_findings(v)[2].rfind("plain send, negative one-way latencies remain with receive rdtsc_lfence (", 0) ==
        0);
  CHECK(variants_findings(v)[3].rfind("minimum rtt ", 0) == 0);
  CHECK(variants_findings(v)[3].find("plain reads make the pair look ") != std::string::npos);
  CHECK(variants_findings(v)[3].find("the read itself costs 21 ticks more than rdtsc") != std::string::npos);
  CHECK(variants_findings(v)[4] ==
        "recommended receive read: lfence_rdtsc, the cheapest read that waits for earlier loads with "
        "no causality violation here (0 in 80000 one-way latencies); 41 ticks (17.8 ns) per read, "
        "+21 ticks over plain rdtsc");
}

TEST_CASE("variants: a clean plain read is named but an ordering read is recommended", "[variants]") {
  Bench bench;
  const std::vector<ExchangeSummary> ex = {bench.exchange(ReadVariant::rdtsc, ReadVariant::rdtsc, 0, 11),
                                           bench.exchange(ReadVariant::rdtsc, ReadVariant::lfence_rdtsc, 0, 12),
                                           bench.exchange(ReadVariant::rdtsc, ReadVariant::rdtscp, 0, 13)};
  const std::vector<ReadCost> costs = {cost("rdtsc", 20), cost("lfence_rdtsc", 41), cost("rdtscp", 35)};
  const VariantsVerdict v = decide_variants(costs, ex, std::nullopt, 0);
  REQUIRE(v.recommended);
  CHECK(v.recommended->recv == ReadVariant::rdtscp);
  CHECK(v.recommended_cost_over_plain_ticks == Approx(15));
  REQUIRE(v.cheapest_clean);
  CHECK(v.cheapest_clean->recv == ReadVariant::rdtsc);
  REQUIRE(variants_findings(v).size() == 5);
  CHECK(variants_findings(v)[0] ==
        "plain rdtsc on both sides: 0 of 80000 one-way latencies negative (0 %); none here, which "
        "shows the reads were not early enough this time, not that they cannot be");
  CHECK(variants_findings(v)[1] == "plain send, no negative one-way latency with receive lfence_rdtsc, rdtscp");
  // No frequency: ticks only.
  CHECK(variants_findings(v)[2].rfind("minimum rtt " + std::to_string(ex[0].rtt_ticks.min()) +
                                          " ticks with plain reads against " + std::to_string(ex[2].rtt_ticks.min()) +
                                          " ticks with receive rdtscp: ",
                                      0) == 0);
  CHECK(variants_findings(v)[3] ==
        "recommended receive read: rdtscp, the cheapest read that waits for earlier loads with no "
        "causality violation here (0 in 80000 one-way latencies); 35 ticks per read, +15 ticks over "
        "plain rdtsc");
  CHECK(variants_findings(v)[4] ==
        "rdtsc is cheaper (20 ticks per read) and showed no causality violation here (no negative "
        "one-way latency), but it does not wait for earlier loads: nothing stops a read from running "
        "early, so its clean record is this run's luck, not a guarantee");
}

TEST_CASE("variants: no recommendation when every receive read violates causality", "[variants]") {
  Bench bench;
  const std::vector<ExchangeSummary> ex = {
      bench.exchange(ReadVariant::rdtsc, ReadVariant::rdtsc, 0.01, 21),
      bench.exchange(ReadVariant::rdtsc, ReadVariant::lfence_rdtsc, 0.01, 22)};  // as if the counters moved
  const VariantsVerdict v = decide_variants({cost("rdtsc", 20), cost("lfence_rdtsc", 41)}, ex, std::nullopt, 2.3e9);
  CHECK_FALSE(v.recommended);
  CHECK_FALSE(v.cheapest_clean);
  CHECK(variants_findings(v).back().rfind(
            "no receive read that waits for earlier loads was free of causality violations", 0) == 0);
}

TEST_CASE("variants: a read without a cost figure is never recommended", "[variants]") {
  Bench bench;
  const std::vector<ExchangeSummary> ex = {bench.exchange(ReadVariant::rdtsc, ReadVariant::rdtsc, 0.01, 31),
                                           bench.exchange(ReadVariant::rdtsc, ReadVariant::cpuid_rdtsc, 0, 32),
                                           bench.exchange(ReadVariant::rdtsc, ReadVariant::mfence_rdtsc, 0, 33)};
  ReadCost failed = cost("cpuid_rdtsc", 5);
  failed.error = "not measured";
  const VariantsVerdict v =
      decide_variants({cost("rdtsc", 20), failed, cost("mfence_rdtsc", 60)}, ex, std::nullopt, 2.3e9);
  REQUIRE(v.recommended);
  CHECK(v.recommended->recv == ReadVariant::mfence_rdtsc);
  CHECK(v.standings.back().recv == ReadVariant::cpuid_rdtsc);
  CHECK_FALSE(v.standings.back().measured_cost);
  CHECK_FALSE(believed_cost_ticks({failed}, "cpuid_rdtsc"));
  CHECK(*believed_cost_ticks({cost("rdtscp", 35, CostMethod::deltas)}, "rdtscp") == Approx(45));
}

TEST_CASE("variants: the same-CPU control counts what one counter cannot give", "[variants]") {
  Run run;
  // t1 t2 t3 t4 on one counter: fwd 10, rev 5 | fwd -1 (within q = 2), rev 3 | fwd -7, rev -3.
  run.rounds = {Round(0, 100, 110, 120, 125), Round(1, 200, 199, 210, 213), Round(2, 300, 293, 320, 317)};
  const ControlSummary c = summarize_control(3, 3, plain_combination(CounterArch::x86_64), run, 2, nullptr);
  CHECK(c.same_cpu);
  CHECK(c.rounds == 3);
  CHECK(c.negative == 3);
  CHECK(c.below_quantum == 2);
  CHECK(c.min_one_way_ticks == -7);
  CHECK(c.rtt_min_ticks == -10);  // (317 - 300) - (320 - 293)
  CHECK(c.rtt_p50_ticks == 2);    // (213 - 200) - (210 - 199)
  CHECK(c.problem.empty());
  run.trailer.set("error", "CPU 3 stopped answering");
  CHECK(summarize_control(3, 3, plain_combination(CounterArch::x86_64), run, 2, nullptr).problem == "CPU 3 stopped answering");

  const VariantsVerdict v = decide_variants({}, {}, c, 0);
  REQUIRE(variants_findings(v).size() == 1);
  CHECK(variants_findings(v)[0] ==
        "same-CPU control (CPU 3 with itself, one counter, rdtsc/rdtsc): 3 negative one-way "
        "latencies in 3 rounds, 2 below -q: on one counter only an early read gives these");
}

TEST_CASE("variants: curve percentiles stop where the samples do", "[variants]") {
  const std::vector<double> head = {0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 95};
  CHECK(curve_percentiles(10) == head);
  std::vector<double> thousand = head;
  for (double p : {99.0, 99.5, 99.9}) thousand.push_back(p);
  const std::vector<double> got = curve_percentiles(1000);
  REQUIRE(got.size() == thousand.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(thousand[i]).margin(1e-9));
  CHECK(curve_percentiles(2'000'000).size() == head.size() + 10);  // 99 ... 99.9995
}

TEST_CASE("variants: the plot inputs, exactly", "[variants]") {
  std::vector<ReadCost> costs = {cost("rdtsc", 20), cost("lfence_rdtsc", 41.5)};
  ReadCost failed = cost("cpuid_rdtsc", 5);
  failed.error = "not measured";
  costs.push_back(failed);
  CHECK(cost_dat(costs, 0, 2.3e9) ==
        "# title: read cost per call on CPU 0\n"
        "# tsc_hz: 2300000000\n"
        "# columns: name p50_ticks min_ticks mean_ticks p99_9_ticks method\n"
        "rdtsc 20 19 20.5 40 batch\n"
        "lfence_rdtsc 41.5 40.5 42 83 batch\n");

  ExchangeSummary plain;
  plain.combination = {ReadVariant::rdtsc, ReadVariant::rdtsc};
  plain.one_way = 4;
  plain.violations = 1;
  plain.rtt_ticks.record(88);
  plain.rtt_ticks.record(100);
  for (std::int64_t v : {-5, 10, 20, 30}) plain.one_way_ticks.record(v);
  ExchangeSummary fenced;
  fenced.combination = {ReadVariant::rdtsc, ReadVariant::lfence_rdtsc};
  fenced.recv_orders_earlier_loads = true;
  fenced.one_way = 2;
  fenced.rtt_ticks.record(424);
  fenced.one_way_ticks.record(200);
  fenced.one_way_ticks.record(220);
  ExchangeSummary other;  // not a plain send: not on the trade-off plot
  other.combination = {ReadVariant::rdtscp, ReadVariant::rdtscp};
  other.one_way = 2;
  CHECK(tradeoff_dat(costs, {plain, fenced, other}) ==
        "# title: cost against causality violations, send rdtsc\n"
        "# columns: recv cost_p50_ticks violations_per_million violations one_way_latencies min_rtt_ticks "
        "orders_earlier_loads\n"
        "rdtsc 20 250000 1 4 88 0\n"
        "lfence_rdtsc 41.5 0 0 2 424 1\n");
  CHECK(percentiles_dat({plain, fenced, other}, 0, 1) ==
        "# title: one-way latency percentiles, CPUs 0 and 1\n"
        "# blocks: 2\n"
        "rdtsc/rdtsc inverse_tail ticks\n"
        "0 1 -5\n10 1.1111111 -5\n20 1.25 -5\n30 1.4285714 10\n40 1.6666667 10\n50 2 10\n60 2.5 20\n"
        "70 3.3333333 20\n75 4 20\n80 5 30\n85 6.6666667 30\n90 10 30\n95 20 30\n"
        "\n\n"
        "rdtsc/lfence_rdtsc inverse_tail ticks\n"
        "0 1 200\n10 1.1111111 200\n20 1.25 200\n30 1.4285714 200\n40 1.6666667 200\n50 2 200\n60 2.5 220\n"
        "70 3.3333333 220\n75 4 220\n80 5 220\n85 6.6666667 220\n90 10 220\n95 20 220\n");
}

TEST_CASE("variants: the switching run's time series, exactly", "[variants]") {
  SwitchRun s;
  s.first = plain_combination(CounterArch::x86_64);
  s.second = {ReadVariant::rdtsc, ReadVariant::lfence_rdtsc};
  // 1 GHz: one tick is 1 ns, 1e6 ticks a millisecond.
  s.first_run.rounds = {Round(0, 0, 100, 110, 150), Round(1, 1'000'000, 999'990, 1'000'010, 1'000'100),
                        Round(2, 2'000'000, 2'000'050, 2'000'060, 2'000'120)};
  s.second_run.rounds = {Round(0, 4'000'000, 4'000'300, 4'000'310, 4'000'600)};
  CHECK(switch_dat(s, 0, 1, 1e9, 2) ==
        "# title: CPUs 0 -> 1: receive read rdtsc, then lfence_rdtsc\n"
        "# switch_ms: 4.0000\n"
        "# first: rdtsc/rdtsc\n"
        "# second: rdtsc/lfence_rdtsc\n"
        "# columns: time_ms fwd_min_ticks fwd_p50_ticks rev_min_ticks rev_p50_ticks rtt_min_ticks\n"
        "0.0000 100 100 40 40 140\n"
        "1.0000 -10 -10 60 60 80\n"
        "4.0000 300 300 290 290 590\n");
  CHECK_THROWS_AS(switch_dat(s, 0, 1, 0, 2), std::invalid_argument);
  s.second_run.rounds.clear();
  CHECK_THROWS_AS(switch_dat(s, 0, 1, 1e9, 2), std::invalid_argument);
}

TEST_CASE("variants: early reads are found against the band of the ordering reads", "[variants]") {
  // One pair, offset 60 ticks, in both roles: plain receive reads early on both sides at
  // 2 %, 400-600 ticks early; an ordering receive read never early.
  std::vector<SimulationTruth> truths;
  auto role = [&](int a, int b, double early_rate, std::uint64_t seed) {
    SimulationSpec spec;
    spec.rounds = 20'000;
    spec.seed = seed;
    spec.quantum_ticks = 2;
    spec.offset_ticks = a == 0 ? 60 : -60;
    for (SpeculationSpec* s : {&spec.spec_a, &spec.spec_b}) {
      s->rate = early_rate;
      s->early_min_ticks = 400;
      s->early_max_ticks = 600;
    }
    SimulationTruth truth;
    Run run = simulate(spec, truth);
    run.header.set("a", std::to_string(a));
    run.header.set("b", std::to_string(b));
    truths.push_back(truth);
    auto shared_run = std::make_shared<const Run>(std::move(run));
    auto analysis = std::make_shared<const PairAnalysis>(analyze_run(*shared_run, "sim"));
    return std::pair{std::move(shared_run), std::move(analysis)};
  };
  std::vector<ExchangeSummary> ex;
  for (const auto& [recv, rate, seed] :
       {std::tuple{ReadVariant::rdtsc, 0.02, 41}, std::tuple{ReadVariant::lfence_rdtsc, 0.0, 43},
        std::tuple{ReadVariant::rdtscp, 0.0, 45}}) {
    const auto [r0, a0] = role(0, 1, rate, static_cast<std::uint64_t>(seed));
    const auto [r1, a1] = role(1, 0, rate, static_cast<std::uint64_t>(seed) + 1);
    ex.push_back(summarize_exchange({ReadVariant::rdtsc, recv}, {r0, r1}, {a0, a1}));
  }
  const std::vector<ReferenceBand> bands = reference_bands(ex);
  REQUIRE(bands.size() == 2);
  CHECK(bands[0].a == "0");
  CHECK(bands[0].b == "1");
  REQUIRE(bands[0].ok);
  CHECK(bands[0].from == 2);
  // The intersection of the two ordering runs' bands, and the truth inside it.
  const HardBand& l0 = ex[1].roles[0]->fit.band;
  const HardBand& p0 = ex[2].roles[0]->fit.band;
  CHECK(bands[0].lo_ticks == Approx(std::max(l0.offset_lo_ticks, p0.offset_lo_ticks)));
  CHECK(bands[0].hi_ticks == Approx(std::min(l0.offset_hi_ticks, p0.offset_hi_ticks)));
  CHECK(bands[0].lo_ticks <= 60);
  CHECK(bands[0].hi_ticks >= 60);
  CHECK(bands[1].lo_ticks <= -60);
  CHECK(bands[1].hi_ticks >= -60);

  check_against_reference(ex, bands);
  const ExchangeSummary& plain = ex[0];
  CHECK(plain.reference_checked);
  // Every latency below the band is an injected early read, and nearly every early read
  // lands below it (the delay's own tail can lift a few back into the band).
  std::uint64_t below = 0, below_and_early = 0, early = 0;
  for (std::size_t i = 0; i < 2; ++i) {
    const ReferenceBand& band = bands[i];
    const SimulationTruth& truth = truths[i];
    early += truth.early_t2_count + truth.early_t4_count;
    for (const Round& r : plain.runs[i]->rounds) {
      const bool f = static_cast<double>(fwd_ticks(r)) < band.lo_ticks - 2;
      const bool v = static_cast<double>(rev_ticks(r)) < -band.hi_ticks - 2;
      below += (f ? 1u : 0u) + (v ? 1u : 0u);
      below_and_early += (f && truth.early_t2[r.seq] != 0 ? 1u : 0u) + (v && truth.early_t4[r.seq] != 0 ? 1u : 0u);
    }
  }
  CHECK(plain.below_reference == below);
  CHECK(below_and_early == below);
  CHECK(static_cast<double>(below) >= 0.95 * static_cast<double>(early));
  CHECK(plain.violations >= plain.below_reference);
  CHECK(plain.violations >= plain.causality_violations);
  CHECK_FALSE(plain.clean());
  // The ordering reads have nothing below their own intersection.
  CHECK(ex[1].below_reference == 0);
  CHECK(ex[2].below_reference == 0);
  CHECK(ex[1].clean());

  // No ordering read for a role: no band, nothing checked.
  std::vector<ExchangeSummary> only_plain = {ex[0]};
  const std::vector<ReferenceBand> none = reference_bands(only_plain);
  REQUIRE(none.size() == 2);
  CHECK_FALSE(none[0].ok);
  CHECK(none[0].problem == ReferenceBand::Problem::not_measured);
  CHECK(reference_problem_text(none[0]) == "no receive read that waits for earlier loads was measured");
  check_against_reference(only_plain, none);
  CHECK_FALSE(only_plain[0].reference_checked);
  CHECK(only_plain[0].violations == only_plain[0].causality_violations);
}

TEST_CASE("variants: the smallest round trip >= 0", "[variants]") {
  SignedHistogram h;
  CHECK(min_non_negative(h) == 0);
  for (std::int64_t v : {-306, -5, 0, 172, 400}) h.record(v);
  CHECK(min_non_negative(h) == 0);
  SignedHistogram g;
  for (std::int64_t v : {-306, 172, 400, 5000}) g.record(v);
  CHECK(min_non_negative(g) == 172);
  SignedHistogram n;
  n.record(-1);
  CHECK(min_non_negative(n) == 0);
}
