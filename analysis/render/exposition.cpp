#include "render/exposition.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string_view>

#include "core/format.hpp"

namespace tscaudit {
namespace {

bool valid_name(std::string_view name) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

std::string_view type_name(MetricType type) {
  switch (type) {
    case MetricType::gauge: return "gauge";
    case MetricType::counter: return "counter";
    case MetricType::histogram: return "histogram";
  }
  return "unknown";
}

/// Shortest round-trip decimal, or NaN, +Inf, -Inf as both formats spell them.
void append_value(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "NaN";
  } else if (std::isinf(v)) {
    out += v > 0 ? "+Inf" : "-Inf";
  } else {
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v + 0.0);  // -0 + 0 is +0: no "-0"
    out.append(buf, end);
  }
}

void append_label_value(std::string& out, std::string_view value) {
  for (const char ch : value) {
    if (ch == '\\') {
      out += "\\\\";
    } else if (ch == '"') {
      out += "\\\"";
    } else if (ch == '\n') {
      out += "\\n";
    } else if (!is_printable_byte(ch)) {
      out += '?';
    } else {
      out += ch;
    }
  }
}

void check_family(const MetricFamily& f) {
  if (!valid_name(f.name)) throw std::invalid_argument("metric name '" + f.name + "' is not [a-zA-Z_][a-zA-Z0-9_]*");
  if (!f.unit.empty() && !f.name.ends_with("_" + f.unit)) {
    throw std::invalid_argument("metric " + f.name + ": its unit " + f.unit + " does not end its name");
  }
  if (f.help.find_first_of("\"\\\n") != std::string::npos) {
    throw std::invalid_argument("metric " + f.name + ": its help has a quote, a backslash or a newline");
  }
  for (const MetricSample& s : f.samples) {
    for (const MetricLabel& l : s.labels) {
      if (!valid_name(l.name))
        throw std::invalid_argument("label name '" + l.name + "' of " + f.name + " is not valid");
    }
  }
}

}  // namespace

std::string exposition_text(const std::vector<MetricFamily>& families, ExpositionDialect dialect) {
  std::string out;
  for (const MetricFamily& f : families) {
    check_family(f);
    if (f.samples.empty()) continue;
    // Prometheus text names a counter's metadata after its series (x_total); OpenMetrics
    // after the family (x), its series x_total.
    const std::string meta_name =
        dialect == ExpositionDialect::prometheus_text && f.type == MetricType::counter ? f.name + "_total" : f.name;
    out += "# HELP " + meta_name + " " + f.help + "\n";
    out += "# TYPE " + meta_name + " ";
    out += type_name(f.type);
    out += "\n";
    if (dialect == ExpositionDialect::openmetrics && !f.unit.empty()) out += "# UNIT " + f.name + " " + f.unit + "\n";
    for (const MetricSample& s : f.samples) {
      out += f.name;
      out += s.suffix;
      if (!s.labels.empty()) {
        out += '{';
        for (std::size_t i = 0; i < s.labels.size(); ++i) {
          if (i > 0) out += ',';
          out += s.labels[i].name;
          out += "=\"";
          append_label_value(out, s.labels[i].value);
          out += '"';
        }
        out += '}';
      }
      out += ' ';
      append_value(out, s.value);
      out += '\n';
    }
  }
  if (dialect == ExpositionDialect::openmetrics) out += "# EOF\n";
  return out;
}

std::string metric_value_text(double value) {
  std::string out;
  append_value(out, value);
  return out;
}

std::size_t exposition_series(const std::vector<MetricFamily>& families) {
  std::size_t n = 0;
  for (const MetricFamily& f : families) n += f.samples.size();
  return n;
}

}  // namespace tscaudit
