// The exposition writer, exact in both dialects: metadata lines, counters' names, units,
// label escaping, values, the terminator, and what it refuses.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "render/exposition.hpp"

using namespace tscaudit;

namespace {

std::vector<MetricFamily> sample_families() {
  MetricFamily g{"tscaudit_cpu_offset_seconds", MetricType::gauge, "seconds", "Offset of each CPU", {}};
  g.samples.push_back({"", {{"cpu", "0"}}, 0.0});
  g.samples.push_back({"", {{"cpu", "1"}}, -1.5e-08});
  g.samples.push_back({"", {{"cpu", "2"}}, std::nan("")});
  MetricFamily c{"tscaudit_monitor_rounds", MetricType::counter, "", "Rounds recorded", {}};
  c.samples.push_back({"_total", {{"a", "0"}, {"b", "1"}}, 2596141815.0});
  MetricFamily h{"tscaudit_monitor_rtt_seconds", MetricType::histogram, "seconds", "Round trips", {}};
  h.samples.push_back({"_bucket", {{"le", "5e-08"}}, 3});
  h.samples.push_back({"_bucket", {{"le", "+Inf"}}, 4});
  h.samples.push_back({"_sum", {}, 2.5e-07});
  h.samples.push_back({"_count", {}, 4});
  MetricFamily empty{"tscaudit_check_timestamp_seconds", MetricType::gauge, "seconds", "When", {}};
  return {g, c, empty, h};
}

}  // namespace

TEST_CASE("exposition: OpenMetrics 1.0 text, exact") {
  CHECK(exposition_text(sample_families(), ExpositionDialect::openmetrics) ==
        "# HELP tscaudit_cpu_offset_seconds Offset of each CPU\n"
        "# TYPE tscaudit_cpu_offset_seconds gauge\n"
        "# UNIT tscaudit_cpu_offset_seconds seconds\n"
        "tscaudit_cpu_offset_seconds{cpu=\"0\"} 0\n"
        "tscaudit_cpu_offset_seconds{cpu=\"1\"} -1.5e-08\n"
        "tscaudit_cpu_offset_seconds{cpu=\"2\"} NaN\n"
        "# HELP tscaudit_monitor_rounds Rounds recorded\n"
        "# TYPE tscaudit_monitor_rounds counter\n"
        "tscaudit_monitor_rounds_total{a=\"0\",b=\"1\"} 2596141815\n"
        "# HELP tscaudit_monitor_rtt_seconds Round trips\n"
        "# TYPE tscaudit_monitor_rtt_seconds histogram\n"
        "# UNIT tscaudit_monitor_rtt_seconds seconds\n"
        "tscaudit_monitor_rtt_seconds_bucket{le=\"5e-08\"} 3\n"
        "tscaudit_monitor_rtt_seconds_bucket{le=\"+Inf\"} 4\n"
        "tscaudit_monitor_rtt_seconds_sum 2.5e-07\n"
        "tscaudit_monitor_rtt_seconds_count 4\n"
        "# EOF\n");
}

TEST_CASE("exposition: the Prometheus text format names a counter after its _total series, no UNIT, no EOF") {
  CHECK(exposition_text(sample_families(), ExpositionDialect::prometheus_text) ==
        "# HELP tscaudit_cpu_offset_seconds Offset of each CPU\n"
        "# TYPE tscaudit_cpu_offset_seconds gauge\n"
        "tscaudit_cpu_offset_seconds{cpu=\"0\"} 0\n"
        "tscaudit_cpu_offset_seconds{cpu=\"1\"} -1.5e-08\n"
        "tscaudit_cpu_offset_seconds{cpu=\"2\"} NaN\n"
        "# HELP tscaudit_monitor_rounds_total Rounds recorded\n"
        "# TYPE tscaudit_monitor_rounds_total counter\n"
        "tscaudit_monitor_rounds_total{a=\"0\",b=\"1\"} 2596141815\n"
        "# HELP tscaudit_monitor_rtt_seconds Round trips\n"
        "# TYPE tscaudit_monitor_rtt_seconds histogram\n"
        "tscaudit_monitor_rtt_seconds_bucket{le=\"5e-08\"} 3\n"
        "tscaudit_monitor_rtt_seconds_bucket{le=\"+Inf\"} 4\n"
        "tscaudit_monitor_rtt_seconds_sum 2.5e-07\n"
        "tscaudit_monitor_rtt_seconds_count 4\n");
}

TEST_CASE("exposition: label values escaped, bytes outside printable ASCII replaced") {
  MetricFamily f{"tscaudit_info", MetricType::gauge, "", "Facts", {}};
  f.samples.push_back({"", {{"hypervisor", "a\\b\"c\nd\te\x80z"}}, 1});
  CHECK(exposition_text({f}, ExpositionDialect::openmetrics) ==
        "# HELP tscaudit_info Facts\n# TYPE tscaudit_info gauge\n"
        "tscaudit_info{hypervisor=\"a\\\\b\\\"c\\nd?e?z\"} 1\n# EOF\n");
}

TEST_CASE("exposition: values are shortest round trips, infinities and -0 spelled as the formats do") {
  CHECK(metric_value_text(0.1) == "0.1");
  CHECK(metric_value_text(-0.0) == "0");
  CHECK(metric_value_text(1e21) == "1e+21");
  CHECK(metric_value_text(INFINITY) == "+Inf");
  CHECK(metric_value_text(-INFINITY) == "-Inf");
  CHECK(metric_value_text(std::nan("")) == "NaN");
  CHECK(std::bit_cast<std::uint64_t>(std::stod(metric_value_text(1.0 / 3))) == std::bit_cast<std::uint64_t>(1.0 / 3));
}

TEST_CASE("exposition: nothing but the terminator for no samples, and the series counted") {
  CHECK(exposition_text({}, ExpositionDialect::openmetrics) == "# EOF\n");
  CHECK(exposition_text({}, ExpositionDialect::prometheus_text).empty());
  CHECK(exposition_series(sample_families()) == 8);
}

TEST_CASE("exposition: bad names, units and help texts are refused") {
  const auto text = [](MetricFamily f) {
    f.samples.push_back({"", {}, 1});
    return exposition_text({f}, ExpositionDialect::openmetrics);
  };
  CHECK_THROWS_AS(text({"1tscaudit", MetricType::gauge, "", "h", {}}), std::invalid_argument);
  CHECK_THROWS_AS(text({"tscaudit-x", MetricType::gauge, "", "h", {}}), std::invalid_argument);
  CHECK_THROWS_AS(text({"tscaudit_x_ticks", MetricType::gauge, "seconds", "h", {}}), std::invalid_argument);
  CHECK_THROWS_AS(text({"tscaudit_x", MetricType::gauge, "", "a \"quoted\" word", {}}), std::invalid_argument);
  CHECK_THROWS_AS(text({"tscaudit_x", MetricType::gauge, "", "a\\b", {}}), std::invalid_argument);
  MetricFamily bad_label{"tscaudit_x", MetricType::gauge, "", "h", {}};
  bad_label.samples.push_back({"", {{"cpu-id", "0"}}, 1});
  CHECK_THROWS_AS(exposition_text({bad_label}, ExpositionDialect::openmetrics), std::invalid_argument);
}
