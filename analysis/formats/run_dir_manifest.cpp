// The manifest of a run directory: manifest.json as written (manifest_json) and as read
// back, with the file, line and column of what is wrong (read_manifest_file).
#include "formats/run_dir_internal.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <set>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "formats/json_bounds.hpp"
#include "core/schema_name.hpp"
#include "formats/text_fields.hpp"

namespace tscaudit {
namespace {

using Json = nlohmann::ordered_json;

/// Reads the manifest's JSON and names the file, the line and the column of what is wrong:
/// the position of a key is that of its first occurrence in the text.
class ManifestReader {
 public:
  ManifestReader(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {}

  RunDirManifest read() {
    Json j = json_input(text_, path_);
    if (!j.is_object()) fail("", "the manifest is not a JSON object");
    check_schema(j);
    RunDirManifest m;
    m.status = status_of(j);
    m.detail = printable_text(optional_string(j, "detail"));
    // What the manifest says is repeated in messages and outputs: printable, whatever it holds.
    m.started_utc = printable_text(optional_string(j, "started_utc"));
    m.ended_utc = printable_text(optional_string(j, "ended_utc"));
    m.cpus = cpus_of(j);
    m.send = printable_text(optional_string(j, "send"));
    m.recv = printable_text(optional_string(j, "recv"));
    if (j.contains("tsc_hz") && !j["tsc_hz"].is_null()) {
      if (!j["tsc_hz"].is_number() || j["tsc_hz"].get<double>() < 0) {
        fail("tsc_hz", "tsc_hz: expected a number of Hz >= 0 (0: unknown)");
      }
      m.tsc_hz = j["tsc_hz"].get<double>();
    }
    if (j.contains("pair_header")) {
      const Json& h = j["pair_header"];
      if (!h.is_object()) fail("pair_header", "pair_header: expected an object of \"key\": \"value\" strings");
      if (h.size() > kMaxPairHeaderKeys) {
        fail("pair_header", "pair_header: " + std::to_string(h.size()) + " keys, more than the " +
                                std::to_string(kMaxPairHeaderKeys) + " a manifest's pair_header may hold");
      }
      for (const auto& [key, value] : h.items()) {
        const bool key_ok = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        });
        if (!value.is_string() || !key_ok) {
          fail(key, "pair_header: \"" + printable(key) +
                        "\": expected a string value under a key of [a-z0-9_] (a '# key: value' line)");
        }
        m.pair_header.set(key, printable_text(value.get<std::string>()));
      }
    }
    for (auto [key, target] : {std::pair{"plan", &m.plan}, std::pair{"platform", &m.platform}}) {
      if (!j.contains(key) || j[key].is_null()) continue;
      if (!j[key].is_object()) fail(key, std::string(key) + ": expected an object");
      *target = j[key];
    }
    if (j.contains("topology") && !j["topology"].is_null()) {
      if (j["topology"] != std::string(kTopologyName)) {
        fail("topology", "topology: expected \"" + std::string(kTopologyName) + "\" or null");
      }
      m.has_topology = true;
    }
    return m;
  }

 private:
  [[noreturn]] void fail(std::string_view key, const std::string& what) const {
    std::string where;
    if (!key.empty()) {
      const std::string quoted = "\"" + std::string(key) + "\"";
      if (const std::size_t at = text_.find(quoted); at != std::string::npos) where = ":" + json_line_column(text_, at);
    }
    throw InputError(path_ + where + ": " + what);
  }

  void check_schema(const Json& j) const {
    static constexpr std::string_view prefix = "tscaudit-rundir/";
    if (!j.contains("schema") || !j["schema"].is_string()) {
      fail("schema", "no \"schema\" string: not the manifest of a tscaudit run directory (expected \"" +
                         std::string(kRunDirSchema) + "\")");
    }
    // Manifests written before the rename say "tscsync-rundir/...": the same format.
    const std::string schema = j["schema"].get<std::string>();
    const std::string version_text = current_schema_name(schema);
    if (!version_text.starts_with(prefix)) {
      fail("schema", "schema '" + printable(schema) + "' is not a tscaudit run directory's (expected '" +
                         std::string(kRunDirSchema) + "')");
    }
    const std::string_view version = std::string_view(version_text).substr(prefix.size());
    const std::string_view major_text = version.substr(0, version.find('.'));
    std::uint64_t major = 0;
    if (parse_u64_field(major_text, major) != FieldProblem::ok) {
      fail("schema", "schema '" + printable(schema) + "': the version is not a number");
    }
    if (major > static_cast<std::uint64_t>(kRunDirMajorVersion)) {
      fail("schema", "schema '" + printable(schema) + "' is newer than this version of tscaudit reads (" +
                         std::string(kRunDirSchema) + "): read it with a newer tscaudit");
    }
    if (major != static_cast<std::uint64_t>(kRunDirMajorVersion)) {
      fail("schema",
           "schema '" + printable(schema) + "' is not one this version reads (" + std::string(kRunDirSchema) + ")");
    }
  }

  RunDirStatus status_of(const Json& j) const {
    if (!j.contains("status") || !j["status"].is_string()) fail("status", "no \"status\" string");
    const std::string s = j["status"].get<std::string>();
    for (RunDirStatus st :
         {RunDirStatus::running, RunDirStatus::complete, RunDirStatus::interrupted, RunDirStatus::aborted}) {
      if (s == run_dir_status_name(st)) return st;
    }
    fail("status", "status '" + printable(s) + "' is none of running, complete, interrupted, aborted");
  }

  std::string optional_string(const Json& j, const char* key) const {
    if (!j.contains(key) || j[key].is_null()) return "";
    if (!j[key].is_string()) fail(key, std::string(key) + ": expected a string or null");
    return j[key].get<std::string>();
  }

  std::vector<int> cpus_of(const Json& j) const {
    if (!j.contains("cpus") || !j["cpus"].is_array()) fail("cpus", "no \"cpus\" array of CPU numbers");
    // Before anything grows with them: a matrix's cells grow with the square of the CPUs.
    if (j["cpus"].size() > static_cast<std::size_t>(kMaxMatrixCpus)) {
      fail("cpus", "cpus: " + std::to_string(j["cpus"].size()) + " CPUs, more than the " +
                       std::to_string(kMaxMatrixCpus) + " a run directory may hold");
    }
    std::vector<int> cpus;
    cpus.reserve(j["cpus"].size());
    std::set<int> seen;
    for (const Json& c : j["cpus"]) {
      if (!c.is_number_integer() || c.get<std::int64_t>() < 0 || c.get<std::int64_t>() > INT_MAX) {
        fail("cpus", "cpus: " + printable(c.dump()) + " is not a CPU number");
      }
      if (c.get<std::int64_t>() > kMaxCpu) {
        fail("cpus", "cpus: CPU " + std::to_string(c.get<std::int64_t>()) + " is beyond the largest CPU number, " +
                         std::to_string(kMaxCpu));
      }
      const int cpu = c.get<int>();
      if (!seen.insert(cpu).second) fail("cpus", "cpus: CPU " + std::to_string(cpu) + " appears twice");
      cpus.push_back(cpu);
    }
    return cpus;
  }

  std::string path_;
  std::string text_;
};

}  // namespace

RunDirManifest read_manifest_file(const std::string& path) {
  return ManifestReader(path, read_regular_file(path, kMaxManifestBytes, "a manifest")).read();
}

std::string_view run_dir_status_name(RunDirStatus status) {
  switch (status) {
    case RunDirStatus::running: return "running";
    case RunDirStatus::complete: return "complete";
    case RunDirStatus::interrupted: return "interrupted";
    case RunDirStatus::aborted: return "aborted";
  }
  return "running";
}

Json manifest_json(const RunDirManifest& m) {
  Json j;
  j["schema"] = std::string(kRunDirSchema);
  j["status"] = std::string(run_dir_status_name(m.status));
  j["detail"] = m.detail.empty() ? Json(nullptr) : Json(m.detail);
  j["started_utc"] = m.started_utc;
  j["ended_utc"] = m.ended_utc.empty() ? Json(nullptr) : Json(m.ended_utc);
  j["cpus"] = m.cpus;
  j["send"] = m.send;
  j["recv"] = m.recv;
  j["tsc_hz"] = m.tsc_hz;
  j["topology"] = m.has_topology ? Json(std::string(kTopologyName)) : Json(nullptr);
  j["rounds"] = std::string(kRoundsDirName) + "/cpu-<A>.zst";
  Json header = Json::object();
  for (const auto& [key, value] : m.pair_header.entries()) header[key] = value;
  j["pair_header"] = std::move(header);
  j["plan"] = m.plan;
  j["platform"] = m.platform;
  return j;
}

}  // namespace tscaudit
