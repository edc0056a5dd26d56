// Text expositions for Prometheus: metric families written as OpenMetrics 1.0 text, or as
// the Prometheus text format (0.0.4) that node_exporter's textfile collector and promtool
// parse (docs/fleets.md, "Metrics for Prometheus"). The two differ only in how a counter is
// named (OpenMetrics: the family without `_total`; Prometheus text: with it), the `# UNIT`
// lines and the `# EOF` terminator. No sample carries a timestamp: the textfile collector
// refuses them. Pure.
#pragma once

#include <string>
#include <vector>

namespace tscaudit {

enum class ExpositionDialect {
  openmetrics,      // OpenMetrics 1.0: # UNIT lines, counters named without _total, # EOF
  prometheus_text,  // Prometheus text 0.0.4: what node_exporter's textfile collector parses
};

enum class MetricType { gauge, counter, histogram };

struct MetricLabel {
  std::string name;
  std::string value;  // any bytes: escaped, and made printable ASCII (see exposition_text)
};

struct MetricSample {
  /// Appended to the family's name: "" for a gauge, "_total" for a counter, "_bucket",
  /// "_sum" or "_count" for a histogram.
  std::string suffix;
  std::vector<MetricLabel> labels;
  double value = 0;
};

struct MetricFamily {
  /// The family's name: tscaudit_ and the base unit last (tscaudit_cpu_offset_seconds); a
  /// counter's without _total (tscaudit_monitor_rounds).
  std::string name;
  MetricType type = MetricType::gauge;
  /// "seconds", "hertz", "ratio", or "" for none. \pre the name ends with "_" + unit.
  std::string unit;
  /// One line of plain words. \pre no '"' and no '\\' (they would need an escape that one
  /// of the two parsers reads differently), no newline.
  std::string help;
  std::vector<MetricSample> samples;
};

/// The families in `dialect`, in their order; a family without samples is left out.
/// Label values have '\\', '"' and newline escaped, and every other byte outside printable
/// ASCII replaced by '?' (the formats want UTF-8; the values are machine names).
/// Values: shortest round-trip decimals ("1.5e-08", "2596141815"), "NaN", "+Inf", "-Inf".
/// \throws std::invalid_argument for a name or label name outside [a-zA-Z_][a-zA-Z0-9_]*,
///         a unit that does not end the name, or a help text that breaks its precondition.
std::string exposition_text(const std::vector<MetricFamily>& families, ExpositionDialect dialect);

/// A value as exposition_text writes it (also the text of a histogram's `le` label).
std::string metric_value_text(double value);

/// How many samples (series) the families hold.
std::size_t exposition_series(const std::vector<MetricFamily>& families);

}  // namespace tscaudit
