#include "render/monitor_output.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/format.hpp"
#include "estimate/offset_segments.hpp"
#include "pair/analyze.hpp"
#include "render/json_values.hpp"
#include "render/pair_output.hpp"
#include "render/text_wrap.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {
namespace {

using Json = nlohmann::ordered_json;

std::string seconds(double s) {
  std::string out = format_sig(s, 4);
  out += " s";
  return out;
}

/// "interval 12 (3.5 s)", or "interval 12" without the frequency.
std::string interval_at(const MonitorAnalysis& m, std::uint64_t interval, double at_s) {
  std::string out = "interval " + std::to_string(interval);
  if (m.tsc_hz > 0) out += " (" + seconds(at_s) + ")";
  return out;
}

std::string intervals(std::uint64_t first, std::uint64_t last) {
  return first == last ? "interval " + std::to_string(first)
                       : "intervals " + std::to_string(first) + "-" + std::to_string(last);
}

void ranking_line(std::string& out, const char* name, const std::vector<RankedInterval>& r, const char* unit) {
  out += "            ";
  out += name;
  out += ":";
  if (r.empty()) out += " none";
  for (std::size_t i = 0; i < r.size(); ++i) {
    out += (i == 0 ? " " : ", ");
    out += std::to_string(r[i].value) + unit + " (interval " + std::to_string(r[i].interval) + ")";
  }
  out += "\n";
}

Json ranking_json(const std::vector<RankedInterval>& r) {
  Json a = Json::array();
  for (const RankedInterval& e : r) a.push_back({{"interval", e.interval}, {"value", e.value}});
  return a;
}

Json ns_or_null(double ticks, double hz) { return hz > 0 ? Json(ticks_to_ns(ticks, hz)) : Json(nullptr); }

/// A CSV cell or .dat value: shortest exact-enough form; NaN as given.
std::string num(double v, int digits = 10) { return std::isfinite(v) ? format_sig(v, digits) : std::string(); }
std::string dat_num(double v, int digits = 10) { return std::isfinite(v) ? format_sig(v, digits) : std::string("NaN"); }

/// Fields with commas, quotes or line ends are quoted (file names may hold them).
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

/// For the .dat's title line: no line ends.
std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  return s;
}

}  // namespace

std::string monitor_text(const MonitorAnalysis& m) {
  const double hz = m.tsc_hz;
  // The answer first: the log and its verdict; then what it holds.
  std::string out = printable_text(m.source) + ": " + verdict_text(m.verdict) + "\n";
  out += "  log       monitor, CPU " + m.a + " -> CPU " + m.b + ", send " + m.send.name + ", recv " + m.recv.name +
         ", " + std::to_string(m.intervals) + (m.intervals == 1 ? " interval, " : " intervals, ") +
         std::to_string(m.totals.rounds) + (m.totals.rounds == 1 ? " round" : " rounds") +
         (hz > 0 ? " over " + seconds(m.span_s) : " over " + format_sig(m.span_ticks, 4) + " ticks") + "\n";
  if (m.status == MonitorStatus::complete) {
    out += "  status    complete\n";
  } else {
    std::string upper = monitor_status_name(m.status);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); });
    out += "  status    " + upper + ": " + m.incomplete.value_or("no reason given") +
           "; the intervals it holds are analyzed\n";
  }
  if (m.pieces.size() > 1) {
    out += "  (the offset changed: the whole-run line below is the wrong model; see the pieces)\n";
  }
  out += fit_lines_text(m.fit, m.free_fit, m.zero_drift, m.span_ticks, m.k, m.quantum_ticks, m.quantum_source, hz,
                        "the k-th smallest latencies of each interval");
  out += "  k-sweep  ";
  for (const IntervalSweepStep& s : m.sweep) {
    out += " k=" + std::to_string(s.k) + ": " + (s.feasible ? format_sig(s.offset_ticks, 4) : std::string("crossed")) +
           " (" + (s.resolved ? std::to_string(s.pieces) : "> " + std::to_string(kMaxPieces)) +
           (s.pieces == 1 ? " piece" : " pieces") +
           (s.set_aside > 0 ? ", " + std::to_string(s.set_aside) + " bounds aside" : std::string()) + ");";
  }
  out += m.sweep_settled ? " stable from k = " + std::to_string(m.k) + "\n"
                         : " not shown stable: k = " + std::to_string(m.k) +
                               ", the largest usable (early reads in many intervals may still hold the offset)\n";
  if (!m.pieces_resolved) {
    out += "  pieces    none: at k = " + std::to_string(m.k) + " the bounds break into more than " +
           std::to_string(kMaxPieces) + " pieces, too small all over the run (early reads), not a few steps\n";
  }
  if (m.pieces.size() > 1) {
    for (std::size_t i = 0; i < m.pieces.size(); ++i) {
      const MonitorPiece& p = m.pieces[i];
      out += "  piece " + std::to_string(i + 1) + "   " + intervals(p.first_interval, p.last_interval) + ": offset " +
             ticks_with_ns(p.offset_ticks, hz) + ", band " + format_range(p.offset_lo_ticks, p.offset_hi_ticks) +
             " ticks at its middle, " +
             (p.zero_drift ? "no detectable drift"
                           : "drift " + format_sig(p.drift_ppb, 4) + " ppb, band " +
                                 format_range(p.drift_lo_ppb, p.drift_hi_ppb, 3) + " ppb") +
             "\n";
    }
  }
  for (std::size_t i = 0; i < m.steps.size(); ++i) {
    const MonitorStep& s = m.steps[i];
    out += std::string(s.proven ? "  step " : "  bend ") + std::to_string(i + 1) + "    " +
           (s.proven ? "by " : "the line moved by ") + ticks_with_ns(s.size_ticks, hz) + " (" +
           format_range(s.size_lo_ticks, s.size_hi_ticks) + " ticks) at " + interval_at(m, s.interval, s.at_s) +
           ", within " + intervals(s.window_first_interval, s.window_last_interval) +
           (s.proven ? ": the bands before and after are disjoint there"
                     : ": no single line fits both sides, but their bands meet: a drift change or a step smaller "
                       "than the bands") +
           "\n";
  }
  for (const MonitorMove& mv : m.moves) {
    if (mv.offset_like) {
      out += "  moved     the estimate moved by " + format_sig(mv.size_ticks, 3) + " ticks from " +
             interval_at(m, mv.interval, mv.at_s) + " on" +
             ", but the bands before and after overlap: an offset step or an equal and opposite change of the "
             "two delays, which two-way timing cannot tell apart\n";
    } else {
      out += "  delays    changed from " + interval_at(m, mv.interval, mv.at_s) + " on: the estimate moved by " +
             format_sig(mv.size_ticks, 3) + " ticks, but the margin moved by " + format_sig(mv.margin_change_ticks, 3) +
             " ticks with it, so it is not an offset step\n";
    }
  }
  for (const MonitorTransient& t : m.transients) {
    out += "  aside     " + std::to_string(t.bounds) + " bounds in " + intervals(t.first_interval, t.last_interval) +
           ": they contradict the line on both sides (early reads at k = " + std::to_string(m.k) +
           ", or an excursion too short to fit)\n";
  }
  std::uint64_t excluded = 0;
  for (const auto& [first, last] : m.runs_excluding_line) excluded += last - first + 1;
  out += "  against   " + std::to_string(excluded) + " intervals contradict the whole-run line";
  if (!m.runs_excluding_line.empty()) {
    out += ", in " + std::to_string(m.runs_excluding_line.size()) + " runs:";
    const std::size_t shown = std::min<std::size_t>(m.runs_excluding_line.size(), 8);
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& [first, last] = m.runs_excluding_line[i];
      out += (i == 0 ? " " : ", ") +
             (first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last));
    }
    if (shown < m.runs_excluding_line.size()) out += ", ...";
  }
  out += "\n";
  out += "  early     at least " + std::to_string(m.fwd_violations_at_least) + " fwd and " +
         std::to_string(m.rev_violations_at_least) +
         " rev one-way latencies below every offset the band allows (from the k-th statistics kept)\n";
  const MonitorTotals& t = m.totals;
  out += "  totals    " + std::to_string(t.rounds) + " rounds, " + std::to_string(t.lost) + " lost (queue full), " +
         std::to_string(t.late) + " late, " + std::to_string(t.fwd_negative) + " fwd and " +
         std::to_string(t.rev_negative) + " rev negative, " + std::to_string(t.self_inconsistent) +
         " with rtt < -2q, " + std::to_string(t.switches_a) + "/" + std::to_string(t.switches_b) +
         " context switches a/b, longest pause " + std::to_string(t.stall_ms_max) + " ms (nothing ran), " +
         std::to_string(t.empty_intervals) + " empty intervals\n";
  out += "  rtt       " + std::to_string(t.rtt_min) + " to " + std::to_string(t.rtt_max) + " ticks over the run\n";
  out += "  worst\n";
  ranking_line(out, "rtt max", m.worst.rtt_max, " ticks");
  ranking_line(out, "rtt p99.9", m.worst.rtt_p999, " ticks");
  ranking_line(out, "negatives", m.worst.negatives, "");
  ranking_line(out, "rtt < -2q", m.worst.self_inconsistent, "");
  ranking_line(out, "lost", m.worst.lost, "");
  ranking_line(out, "pause", m.worst.stall_ms, " ms");
  out += "  memory    peak RSS";
  for (std::size_t i = 0; i < m.rss.size(); ++i) {
    const RssSample& r = m.rss[i];
    out += (i == 0 ? " " : ", ") + r.label + " " + std::to_string(r.peak_rss_kib) + " KiB (interval " +
           std::to_string(r.interval) + (hz > 0 ? ", " + seconds(r.at_s) : std::string()) + ")";
  }
  out += "; max " + std::to_string(m.peak_rss_max_kib) + " KiB\n";
  return wrap_lines(out);
}

Json monitor_json(const MonitorAnalysis& m) {
  const double hz = m.tsc_hz;
  const HardBand& band = m.fit.band;
  Json e;
  e["schema"] = kMonitorAnalysisSchema;
  e["source"] = m.source;
  e["a"] = m.a;
  e["b"] = m.b;
  e["send"] = m.send.name;
  e["recv"] = m.recv.name;
  e["status"] = monitor_status_name(m.status);
  e["complete"] = m.status == MonitorStatus::complete;
  e["incomplete_reason"] = m.incomplete ? Json(*m.incomplete) : Json(nullptr);
  e["intervals"] = m.intervals;
  e["rounds"] = m.totals.rounds;
  e["first_tick"] = m.first_tick;
  e["last_tick"] = m.last_tick;
  e["t_ref_tick"] = m.t_ref_tick;
  e["span_ticks"] = m.span_ticks;
  e["span_s"] = number_or_null(m.span_s);
  e["quantum_ticks"] = m.quantum_ticks;
  e["quantum_source"] = m.quantum_source;
  e["tsc_hz"] = hz > 0 ? Json(hz) : Json(nullptr);
  e["k"] = m.k;
  e["sweep_settled"] = m.sweep_settled;
  Json& sweep = e["k_sweep"] = Json::array();
  for (const IntervalSweepStep& s : m.sweep) {
    sweep.push_back({{"k", s.k},
                     {"intervals", s.intervals},
                     {"feasible", s.feasible},
                     {"offset_ticks", s.offset_ticks},
                     {"margin_ticks", s.margin_ticks},
                     {"pieces", s.pieces},
                     {"resolved", s.resolved},
                     {"set_aside", s.set_aside}});
  }
  e["pieces_resolved"] = m.pieces_resolved;
  e["band_feasible"] = band.feasible;
  auto or_null = [&](double v) { return band.feasible ? Json(v) : Json(nullptr); };
  e["offset_ticks"] = {{"estimate", m.fit.line.offset_ticks},
                       {"lo", or_null(band.offset_lo_ticks)},
                       {"hi", or_null(band.offset_hi_ticks)}};
  if (hz > 0) {
    e["offset_ns"] = {{"estimate", ticks_to_ns(m.fit.line.offset_ticks, hz)},
                      {"lo", band.feasible ? ns_or_null(band.offset_lo_ticks, hz) : Json(nullptr)},
                      {"hi", band.feasible ? ns_or_null(band.offset_hi_ticks, hz) : Json(nullptr)}};
  }
  const HardBand& drift_band = m.free_fit.band;
  e["drift_ppb"] = {{"estimate", m.fit.line.drift * 1e9},
                    {"lo", drift_band.feasible ? Json(drift_band.drift_lo * 1e9) : Json(nullptr)},
                    {"hi", drift_band.feasible ? Json(drift_band.drift_hi * 1e9) : Json(nullptr)},
                    {"detectable", !m.zero_drift},
                    {"identifiable", !m.free_fit.line.drift_at_prior_bound}};
  e["margin_ticks"] = m.fit.line.margin_ticks;
  Json& pieces = e["pieces"] = Json::array();
  for (const MonitorPiece& p : m.pieces) {
    pieces.push_back(
        {{"first_interval", p.first_interval},
         {"last_interval", p.last_interval},
         {"t_ref_tick", p.t_ref_tick},
         {"offset_ticks", {{"estimate", p.offset_ticks}, {"lo", p.offset_lo_ticks}, {"hi", p.offset_hi_ticks}}},
         {"offset_ns",
          {{"estimate", ns_or_null(p.offset_ticks, hz)},
           {"lo", ns_or_null(p.offset_lo_ticks, hz)},
           {"hi", ns_or_null(p.offset_hi_ticks, hz)}}},
         {"drift_ppb",
          {{"estimate", p.drift_ppb},
           {"lo", p.drift_lo_ppb},
           {"hi", p.drift_hi_ppb},
           {"detectable", !p.zero_drift},
           {"identifiable", p.drift_identifiable}}},
         {"margin_ticks", p.margin_ticks}});
  }
  Json& steps = e["steps"] = Json::array();
  for (const MonitorStep& s : m.steps) {
    steps.push_back({{"proven", s.proven},
                     {"interval", s.interval},
                     {"at_tick", s.at_tick},
                     {"at_s", number_or_null(s.at_s)},
                     {"window",
                      {{"first_interval", s.window_first_interval},
                       {"last_interval", s.window_last_interval},
                       {"lo_tick", s.window_lo_tick},
                       {"hi_tick", s.window_hi_tick}}},
                     {"size_ticks", {{"estimate", s.size_ticks}, {"lo", s.size_lo_ticks}, {"hi", s.size_hi_ticks}}},
                     {"size_ns",
                      {{"estimate", ns_or_null(s.size_ticks, hz)},
                       {"lo", ns_or_null(s.size_lo_ticks, hz)},
                       {"hi", ns_or_null(s.size_hi_ticks, hz)}}}});
  }
  Json& transients = e["transients"] = Json::array();
  for (const MonitorTransient& t : m.transients) {
    transients.push_back(
        {{"first_interval", t.first_interval}, {"last_interval", t.last_interval}, {"bounds", t.bounds}});
  }
  Json& moves = e["moves"] = Json::array();
  for (const MonitorMove& mv : m.moves) {
    moves.push_back({{"piece", mv.piece + 1},
                     {"interval", mv.interval},
                     {"at_tick", mv.at_tick},
                     {"at_s", number_or_null(mv.at_s)},
                     {"size_ticks", mv.size_ticks},
                     {"residual_sd_ticks", mv.residual_sd_ticks},
                     {"margin_change_ticks", mv.margin_change_ticks},
                     {"offset_like", mv.offset_like}});
  }
  std::uint64_t excluded = 0;
  Json runs = Json::array();
  for (const auto& [first, last] : m.runs_excluding_line) {
    excluded += last - first + 1;
    runs.push_back({first, last});
  }
  e["intervals_against_line"] = {{"count", excluded}, {"runs", runs}};
  e["causality_violations_at_least"] = {{"fwd", m.fwd_violations_at_least}, {"rev", m.rev_violations_at_least}};
  const MonitorTotals& t = m.totals;
  e["totals"] = {{"rounds", t.rounds},
                 {"lost", t.lost},
                 {"late", t.late},
                 {"fwd_negative", t.fwd_negative},
                 {"rev_negative", t.rev_negative},
                 {"self_inconsistent", t.self_inconsistent},
                 {"switches_a", t.switches_a},
                 {"switches_b", t.switches_b},
                 {"stall_ms_max", t.stall_ms_max},
                 {"empty_intervals", t.empty_intervals},
                 {"rtt_min_ticks", t.rtt_min},
                 {"rtt_max_ticks", t.rtt_max}};
  e["worst"] = {{"rtt_max_ticks", ranking_json(m.worst.rtt_max)},
                {"rtt_p99.9_ticks", ranking_json(m.worst.rtt_p999)},
                {"negatives", ranking_json(m.worst.negatives)},
                {"self_inconsistent", ranking_json(m.worst.self_inconsistent)},
                {"lost", ranking_json(m.worst.lost)},
                {"stall_ms", ranking_json(m.worst.stall_ms)}};
  Json samples = Json::array();
  for (const RssSample& r : m.rss) {
    samples.push_back(
        {{"at", r.label}, {"interval", r.interval}, {"at_s", number_or_null(r.at_s)}, {"kib", r.peak_rss_kib}});
  }
  e["peak_rss_kib"] = {{"samples", samples}, {"max", m.peak_rss_max_kib}};
  e["verdict"] = verdict_text(m.verdict);
  e["verdict_kind"] = verdict_kind_name(m.verdict.kind);
  return e;
}

std::string monitor_csv_header() {
  return "source,interval,start_tick,end_tick,start_s,rounds,k,band_present,band_lo_ticks,band_hi_ticks,estimate_ticks,"
         "line_ticks,piece,against_line,set_aside,fwd_violations_at_least,rev_violations_at_least,rtt_min_ticks,"
         "rtt_p50_ticks,rtt_p99_ticks,rtt_p99.9_ticks,rtt_max_ticks,fwd_negative,rev_negative,self_inconsistent,lost,"
         "late,switches_a,switches_b,stall_ms,peak_rss_kib\n";
}

std::string monitor_csv_rows(const MonitorAnalysis& m, const IntervalLog& log) {
  std::string out;
  const std::string source = csv_field(m.source);
  for (std::size_t i = 0; i < log.intervals.size() && i < m.bands.size(); ++i) {
    const IntervalSummary& s = log.intervals[i];
    const IntervalBand& b = m.bands[i];
    auto u = [](std::uint64_t v) { return std::to_string(v); };
    auto d = [](std::int64_t v) { return std::to_string(v); };
    out += source + "," + u(s.index) + "," + u(s.start_tick) + "," + u(s.end_tick) + "," +
           num(monitor_seconds(m, s.start_tick), 9) + "," + u(s.rounds) + "," + u(m.k) + "," + (b.present ? "1" : "0") +
           "," + (b.present ? num(b.lo_ticks) : "") + "," + (b.present ? num(b.hi_ticks) : "") + "," +
           (b.present ? num(b.estimate_ticks) : "") + "," + (b.line_ticks ? num(*b.line_ticks) : "") + "," +
           (b.piece ? u(*b.piece + 1) : "") + "," + (b.excludes_whole_run_line ? "1" : "0") + "," +
           (b.set_aside ? "1" : "0") + "," + u(b.fwd_violations_at_least) + "," + u(b.rev_violations_at_least) + "," +
           d(s.rtt_min) + "," + d(s.rtt_p50) + "," + d(s.rtt_p99) + "," + d(s.rtt_p999) + "," + d(s.rtt_max) + "," +
           u(s.fwd_negative) + "," + u(s.rev_negative) + "," + u(s.self_inconsistent) + "," + u(s.lost) + "," +
           u(s.late) + "," + u(s.switches_a) + "," + u(s.switches_b) + "," + u(s.stall_ms) + "," + u(s.peak_rss_kib) +
           "\n";
  }
  return out;
}

std::string monitor_timeseries_dat(const MonitorAnalysis& m, const IntervalLog& log) {
  const bool seconds_known = m.tsc_hz > 0;
  std::string out;
  out += "# title: " + one_line(m.source) + ": CPU " + one_line(m.a) + " -> CPU " + one_line(m.b) + ", " +
         monitor_status_name(m.status) + ", k = " + std::to_string(m.k) + "\n";
  out += std::string("# xlabel: ") + (seconds_known ? "time into the run (s)" : "interval") + "\n";
  // The offset axis: what most intervals' bands span and every piece's line, so that a
  // few intervals with wide bands (few rounds, a stall) do not flatten the picture.
  std::vector<double> los, his;
  for (const IntervalBand& b : m.bands) {
    if (!b.present) continue;
    los.push_back(b.lo_ticks);
    his.push_back(b.hi_ticks);
  }
  double lo = 0, hi = 0;
  if (!los.empty()) {
    const std::size_t at5 = los.size() / 20, at95 = his.size() - 1 - his.size() / 20;
    std::nth_element(los.begin(), los.begin() + static_cast<std::ptrdiff_t>(at5), los.end());
    std::nth_element(his.begin(), his.begin() + static_cast<std::ptrdiff_t>(at95), his.end());
    lo = los[at5];
    hi = his[at95];
  }
  for (const IntervalBand& b : m.bands) {
    if (b.line_ticks) {
      lo = std::min(lo, *b.line_ticks);
      hi = std::max(hi, *b.line_ticks);
    }
  }
  const double pad = std::max(0.15 * (hi - lo), static_cast<double>(m.quantum_ticks));
  out += "# offset_lo: " + format_sig(lo - pad, 8) + "\n";
  out += "# offset_hi: " + format_sig(hi + pad, 8) + "\n";
  // Markers at the change's tick, or at its interval's number without the frequency.
  auto marker_at = [&](std::uint64_t tick, std::uint64_t interval) {
    return seconds_known ? monitor_seconds(m, tick) : static_cast<double>(interval);
  };
  std::string steps, bends;
  for (const MonitorStep& s : m.steps) {
    std::string& to = s.proven ? steps : bends;
    to += (to.empty() ? "" : " ") + format_sig(marker_at(s.at_tick, s.interval), 8);
  }
  std::string moves;
  for (const MonitorMove& mv : m.moves) {
    if (!mv.offset_like) continue;
    moves += (moves.empty() ? "" : " ") + format_sig(marker_at(mv.at_tick, mv.interval), 8);
  }
  if (!steps.empty()) out += "# steps: " + steps + "\n";
  if (!moves.empty()) out += "# moves: " + moves + "\n";
  if (!bends.empty()) out += "# bends: " + bends + "\n";
  out +=
      "# columns: time band_lo_ticks band_hi_ticks estimate_ticks line_ticks rtt_min_ticks rtt_p50_ticks "
      "rtt_p99_ticks rtt_p999_ticks rtt_max_ticks negatives self_inconsistent lost\n";
  for (std::size_t i = 0; i < log.intervals.size() && i < m.bands.size(); ++i) {
    const IntervalSummary& s = log.intervals[i];
    const IntervalBand& b = m.bands[i];
    const double x = seconds_known ? monitor_seconds(m, s.start_tick + (s.end_tick - s.start_tick) / 2)
                                   : static_cast<double>(s.index);
    // rtt on a log axis: only values > 0 of intervals with rounds.
    auto rtt = [&](std::int64_t v) { return s.rounds > 0 && v > 0 ? format_sig(static_cast<double>(v), 12) : "NaN"; };
    const double nan = std::nan("");
    out += dat_num(x, 9) + " " + dat_num(b.present ? b.lo_ticks : nan) + " " + dat_num(b.present ? b.hi_ticks : nan) +
           " " + dat_num(b.present ? b.estimate_ticks : nan) + " " + dat_num(b.line_ticks.value_or(nan)) + " " +
           rtt(s.rtt_min) + " " + rtt(s.rtt_p50) + " " + rtt(s.rtt_p99) + " " + rtt(s.rtt_p999) + " " + rtt(s.rtt_max) +
           " " + std::to_string(s.fwd_negative + s.rev_negative) + " " + std::to_string(s.self_inconsistent) + " " +
           std::to_string(s.lost) + "\n";
  }
  return out;
}

}  // namespace tscaudit
