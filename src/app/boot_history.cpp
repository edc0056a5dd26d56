#include "app/boot_history.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "formats/json_bounds.hpp"
#include "io/output_file.hpp"
#include "platform/machine_now.hpp"

namespace tscaudit {
namespace {

/// A record of 1024 CPUs is some 100 kB: this bounds what a stray file costs.
constexpr std::uint64_t kMaxRecordBytes = 16ull << 20;
constexpr std::string_view kPrefix = "boot-";
constexpr std::string_view kSuffix = ".json";

/// A readable record of DIR: its path, the boot it names, when it was kept, its JSON.
struct Record {
  std::string path, boot_id;
  double kept_unix_s = 0;
  nlohmann::ordered_json json;
};

/// The records of DIR, newest first; `skipped` counts the files named like one that are not.
std::vector<Record> records_of(const std::string& dir, std::size_t& skipped) {
  std::vector<Record> records;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(kPrefix) || !name.ends_with(kSuffix) || name.size() <= kPrefix.size() + kSuffix.size()) {
      continue;
    }
    Record r;
    r.path = it->path().string();
    r.boot_id = name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
    try {
      r.json = json_input(read_regular_file(r.path, kMaxRecordBytes, "a boot's record"), r.path);
      r.kept_unix_s = r.json.at("kept_unix_s").get<double>();
      records.push_back(std::move(r));
    } catch (const std::exception&) {
      ++skipped;  // damaged, foreign, or being written by hand: never the previous boot, never removed
    }
  }
  if (ec) throw IoError("cannot read the directory " + printable_text(dir) + ": " + ec.message());
  std::stable_sort(records.begin(), records.end(),
                   [](const Record& a, const Record& b) { return a.kept_unix_s > b.kept_unix_s; });
  return records;
}

}  // namespace

std::string BootHistoryDir::record_path() const {
  return dir + "/" + std::string(kPrefix) + boot_id + std::string(kSuffix);
}

BootHistoryDir open_boot_history(const std::string& dir) {
  BootHistoryDir h{dir, {}};
  try {
    h.boot_id = read_regular_file("/proc/sys/kernel/random/boot_id", 64, "the boot id");
  } catch (const std::exception& e) {
    throw UnsupportedError(std::string("--history needs this boot's id, which cannot be read: ") + e.what());
  }
  while (!h.boot_id.empty() && (h.boot_id.back() == '\n' || h.boot_id.back() == ' ')) h.boot_id.pop_back();
  std::array<std::uint8_t, 16> bytes{};
  if (!parse_boot_id(h.boot_id, bytes)) {
    throw UnsupportedError("--history: /proc/sys/kernel/random/boot_id holds no boot id");
  }
  make_directories(dir);
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw IoError("cannot write --history " + printable_text(dir) + ": " + std::strerror(errno));
  }
  return h;
}

BootComparison compare_with_previous_boot(const BootHistoryDir& history, const OffsetTable& now) {
  BootComparison out;
  for (const Record& r : records_of(history.dir, out.skipped)) {
    if (r.boot_id == history.boot_id) continue;
    try {
      out.comparison = compare_offsets(offset_table_from_json(r.json, r.path), now);
      out.previous = r.path;
      break;
    } catch (const InputError&) {
      ++out.skipped;  // a record without a per-CPU table: the next older one is the previous boot's
    }
  }
  return out;
}

std::string keep_boot_record(const BootHistoryDir& history, const nlohmann::ordered_json& record) {
  const std::string path = history.record_path();
  OutputFile out(path);
  out.write(record.dump(2) + "\n");
  out.commit();
  std::size_t skipped = 0;
  std::vector<Record> others = records_of(history.dir, skipped);
  std::erase_if(others, [&](const Record& r) { return r.boot_id == history.boot_id; });
  std::error_code ec;
  for (std::size_t i = kBootsKept - 1; i < others.size(); ++i) std::filesystem::remove(others[i].path, ec);
  return path;
}

}  // namespace tscaudit
