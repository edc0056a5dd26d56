#include "platform/kernel_facts.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "core/lines.hpp"

namespace tscaudit {
namespace {

/// /proc/cpuinfo grows about 1.5 KiB per CPU: 32 MiB is far beyond 8192 CPUs.
constexpr std::size_t kMaxCpuinfoBytes = 32u << 20;

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

std::vector<std::string_view> split_blanks(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (true) {
    pos = s.find_first_not_of(kBlanks, pos);
    if (pos == std::string_view::npos) break;
    std::size_t end = s.find_first_of(kBlanks, pos);
    if (end == std::string_view::npos) end = s.size();
    out.push_back(s.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

template <class T>
Fact<T> malformed(const std::string& path, const std::string& what) {
  return Fact<T>::fail(FactState::malformed, path + ": " + what);
}

/// A file's fact, parsed when it was read; otherwise its absence or error carried over.
template <class T, class Parser>
Fact<T> read_parsed(const std::string& path, Parser parse, std::size_t max_bytes = 1u << 20) {
  Fact<std::string> file = read_text_file(path, max_bytes);
  if (!file.ok()) return Fact<T>::fail(file.state, file.reason);
  return parse(file.value, path);
}

}  // namespace

std::string quote_for_message(std::string_view s) { return "'" + printable(s) + "'"; }

std::string root_path(const std::string& root, std::string_view rel) {
  if (root.empty()) return std::string("/").append(rel);
  return root.back() == '/' ? root + std::string(rel) : root + "/" + std::string(rel);
}

std::optional<std::vector<int>> numbered_entries(const std::string& dir, std::string_view prefix) {
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) return std::nullopt;
  std::vector<int> out;
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (ec) return std::nullopt;
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    int n = 0;
    const char* first = name.data() + prefix.size();
    const char* last = name.data() + name.size();
    const auto [ptr, err] = std::from_chars(first, last, n);
    if (err == std::errc{} && ptr == last && n >= 0) out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::pair<std::string_view, bool>> tsc_flag_list(const CpuinfoTscFlags& f) {
  return {{"constant_tsc", f.constant_tsc},
          {"nonstop_tsc", f.nonstop_tsc},
          {"tsc_known_freq", f.tsc_known_freq},
          {"tsc_reliable", f.tsc_reliable},
          {"tsc_adjust", f.tsc_adjust},
          {"tsc_deadline_timer", f.tsc_deadline_timer},
          {"rdtscp", f.rdtscp}};
}

Fact<CpuinfoTscFlags> parse_cpuinfo_tsc_flags(std::string_view text, const std::string& path) {
  struct Entry {
    std::string processor;
    std::optional<std::vector<std::string_view>> flags;
  };
  std::vector<Entry> entries;
  bool flags_before_processor = false;
  for_each_line(text, [&](std::string_view line) {
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return;
    const std::string_view key = trim(line.substr(0, colon), kBlanks);
    const std::string_view value = trim(line.substr(colon + 1), kBlanks);
    if (key == "processor") {
      entries.push_back({std::string(value), std::nullopt});
    } else if (key == "flags") {
      if (entries.empty()) {
        flags_before_processor = true;
      } else {
        entries.back().flags = split_blanks(value);
      }
    }
  });
  if (flags_before_processor) return malformed<CpuinfoTscFlags>(path, "a 'flags' line before any 'processor' line");
  if (entries.empty()) return malformed<CpuinfoTscFlags>(path, "no 'processor' line");
  for (const Entry& e : entries) {
    if (!e.flags) {
      return malformed<CpuinfoTscFlags>(path, "processor " + e.processor + " has no 'flags' line (cut short?)");
    }
  }
  auto flags_of = [](const std::vector<std::string_view>& words) {
    auto has = [&](std::string_view name) { return std::find(words.begin(), words.end(), name) != words.end(); };
    CpuinfoTscFlags f;
    f.constant_tsc = has("constant_tsc");
    f.nonstop_tsc = has("nonstop_tsc");
    f.tsc_known_freq = has("tsc_known_freq");
    f.tsc_reliable = has("tsc_reliable");
    f.tsc_adjust = has("tsc_adjust");
    f.tsc_deadline_timer = has("tsc_deadline_timer");
    f.rdtscp = has("rdtscp");
    return f;
  };
  CpuinfoTscFlags first = flags_of(*entries.front().flags);
  first.processors = static_cast<int>(entries.size());
  const auto first_list = tsc_flag_list(first);
  std::vector<bool> differs(first_list.size(), false);
  for (std::size_t i = 1; i < entries.size(); ++i) {
    const auto list = tsc_flag_list(flags_of(*entries[i].flags));
    for (std::size_t k = 0; k < list.size(); ++k) {
      if (list[k].second != first_list[k].second) differs[k] = true;
    }
  }
  for (std::size_t k = 0; k < first_list.size(); ++k) {
    if (differs[k]) first.disagreeing.emplace_back(first_list[k].first);
  }
  return Fact<CpuinfoTscFlags>::good(std::move(first));
}

namespace {

/// Each boot parameter BootParams keeps: its name as the kernel's docs write it (a '-' read
/// as '_', as the kernel does) and its field, in the order of the struct.
constexpr std::pair<std::string_view, std::optional<std::string> BootParams::*> kBootParams[] = {
    {"isolcpus", &BootParams::isolcpus},
    {"nohz_full", &BootParams::nohz_full},
    {"rcu_nocbs", &BootParams::rcu_nocbs},
    {"tsc", &BootParams::tsc},
    {"clocksource", &BootParams::clocksource},
    {"idle", &BootParams::idle},
    {"processor.max_cstate", &BootParams::processor_max_cstate},
    {"intel_idle.max_cstate", &BootParams::intel_idle_max_cstate},
};

}  // namespace

std::vector<std::pair<std::string, std::string>> boot_param_list(const BootParams& p) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, field] : kBootParams) {
    if (p.*field) out.emplace_back(name, *(p.*field));
  }
  return out;
}

Fact<BootParams> parse_cmdline(std::string_view text, const std::string& path) {
  // Words split at blanks outside double quotes; the quotes themselves are dropped, as
  // the kernel's next_arg() does.
  std::vector<std::string> words;
  std::string word;
  bool in_quotes = false, in_word = false;
  for (char c : text) {
    if (c == '"') {
      in_quotes = !in_quotes;
      in_word = true;
    } else if (!in_quotes && kBlanks.find(c) != std::string_view::npos) {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_quotes) return malformed<BootParams>(path, "unbalanced double quote");
  if (in_word) words.push_back(word);

  BootParams p;
  for (const std::string& w : words) {
    if (w == "--") break;  // the rest is init's
    const std::size_t eq = w.find('=');
    std::string name = w.substr(0, eq);
    std::replace(name.begin(), name.end(), '-', '_');
    const std::string value = eq == std::string::npos ? std::string() : w.substr(eq + 1);
    for (const auto& [known, field] : kBootParams) {
      if (name == known) p.*field = value;
    }
  }
  return Fact<BootParams>::good(std::move(p));
}

Fact<std::vector<int>> parse_cpu_list_file(std::string_view text, const std::string& path) {
  const std::string_view t = trim(text, kBlanks);
  if (t.empty() || t == "(null)") return Fact<std::vector<int>>::good({});
  try {
    return Fact<std::vector<int>>::good(parse_cpu_list(t));
  } catch (const UsageError& e) {
    return malformed<std::vector<int>>(path, e.what());
  }
}

Fact<std::string> parse_word(std::string_view text, const std::string& path) {
  const std::string_view t = trim(text, kBlanks);
  if (t.empty()) return malformed<std::string>(path, "empty");
  if (!std::all_of(t.begin(), t.end(), is_word_char)) {
    return malformed<std::string>(path, quote_for_message(t) + " is not one word of letters, digits, '_', '.' and '-'");
  }
  return Fact<std::string>::good(std::string(t));
}

Fact<std::vector<std::string>> parse_words(std::string_view text, const std::string& path) {
  std::vector<std::string> out;
  for (std::string_view w : split_blanks(text)) {
    if (!std::all_of(w.begin(), w.end(), is_word_char)) {
      return malformed<std::vector<std::string>>(path,
                                                 quote_for_message(w) + " is not a word of letters, digits, '_', '.' and '-'");
    }
    out.emplace_back(w);
  }
  if (out.empty()) return malformed<std::vector<std::string>>(path, "empty");
  return Fact<std::vector<std::string>>::good(std::move(out));
}

Fact<std::string> parse_line(std::string_view text, const std::string& path) {
  const std::string_view t = trim(text.substr(0, text.find('\n')), kBlanks);
  if (t.empty()) return malformed<std::string>(path, "empty");
  if (!all_printable(t)) return malformed<std::string>(path, quote_for_message(t) + " is not printable text");
  return Fact<std::string>::good(std::string(t));
}

Fact<std::uint64_t> parse_unsigned(std::string_view text, const std::string& path) {
  const std::string_view t = trim(text, kBlanks);
  std::uint64_t v = 0;
  const char* last = t.data() + t.size();
  const auto [ptr, ec] = std::from_chars(t.data(), last, v);
  if (t.empty() || ec != std::errc{} || ptr != last) {
    return malformed<std::uint64_t>(path, quote_for_message(t) + " is not an unsigned decimal number");
  }
  return Fact<std::uint64_t>::good(v);
}

Fact<bool> parse_bool01(std::string_view text, const std::string& path) {
  const std::string_view t = trim(text, kBlanks);
  if (t == "0") return Fact<bool>::good(false);
  if (t == "1") return Fact<bool>::good(true);
  return malformed<bool>(path, quote_for_message(t) + " is not 0 or 1");
}

Fact<std::uint64_t> parse_mem_available(std::string_view meminfo, const std::string& path) {
  constexpr std::string_view kKey = "MemAvailable:";
  auto bytes_of = [&](std::string_view rest) {
    rest = trim(rest, kBlanks);
    if (rest.size() < 3 || rest.substr(rest.size() - 3) != " kB") {
      return malformed<std::uint64_t>(path, "MemAvailable " + quote_for_message(rest) + " is not a number of kB");
    }
    rest = trim(rest.substr(0, rest.size() - 3), kBlanks);
    std::uint64_t kib = 0;
    const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), kib);
    if (rest.empty() || ec != std::errc{} || ptr != rest.data() + rest.size() || kib > (UINT64_MAX >> 10)) {
      return malformed<std::uint64_t>(path, "MemAvailable " + quote_for_message(rest) + " is not a number of kB");
    }
    return Fact<std::uint64_t>::good(kib << 10);
  };
  std::optional<Fact<std::uint64_t>> found;
  for_each_line(meminfo, [&](std::string_view line) {
    if (line.substr(0, kKey.size()) != kKey) return LineFlow::next;
    found = bytes_of(line.substr(kKey.size()));
    return LineFlow::stop;
  });
  if (found) return *found;
  return malformed<std::uint64_t>(path, "no MemAvailable line (kernels before 3.14 lack it)");
}

Fact<std::uint64_t> read_mem_available(const std::string& root) {
  return read_parsed<std::uint64_t>(root_path(root, "proc/meminfo"), parse_mem_available);
}



Fact<std::string> read_text_file(const std::string& path, std::size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return Fact<std::string>::fail(FactState::absent, "no " + path);
    return Fact<std::string>::fail(FactState::unreadable, path + ": " + std::strerror(err));
  }
  // sysfs and procfs report sizes of 0 or 4096 whatever the content: read to EOF.
  std::string text;
  std::array<char, 16384> chunk{};
  while (true) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return Fact<std::string>::fail(FactState::unreadable, path + ": " + std::strerror(err));
    }
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
      ::close(fd);
      return Fact<std::string>::fail(FactState::malformed,
                                     path + ": larger than " + std::to_string(max_bytes) + " bytes");
    }
    text.append(chunk.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  return Fact<std::string>::good(std::move(text));
}

KernelFacts read_kernel_facts(const std::string& root) {
  KernelFacts k;
  k.cpuinfo = read_parsed<CpuinfoTscFlags>(root_path(root, "proc/cpuinfo"), parse_cpuinfo_tsc_flags, kMaxCpuinfoBytes);
  k.cmdline = read_parsed<BootParams>(root_path(root, "proc/cmdline"), parse_cmdline);
  const std::string cs = root_path(root, "sys/devices/system/clocksource/clocksource0/");
  k.clocksource = read_parsed<std::string>(cs + "current_clocksource", parse_word);
  k.clocksources_available = read_parsed<std::vector<std::string>>(cs + "available_clocksource", parse_words);
  const std::string sys_cpu = root_path(root, "sys/devices/system/cpu/");
  k.isolated = read_parsed<std::vector<int>>(sys_cpu + "isolated", parse_cpu_list_file);
  k.nohz_full = read_parsed<std::vector<int>>(sys_cpu + "nohz_full", parse_cpu_list_file);
  k.cpuidle_driver = read_parsed<std::string>(sys_cpu + "cpuidle/current_driver", parse_word);
  k.smt_control = read_parsed<std::string>(sys_cpu + "smt/control", parse_word);
  k.smt_active = read_parsed<bool>(sys_cpu + "smt/active", parse_bool01);

  const auto cpu_numbers = numbered_entries(sys_cpu, "cpu");
  if (!cpu_numbers) {
    k.cpus_reason = "cannot list " + sys_cpu;
    return k;
  }
  if (cpu_numbers->empty()) k.cpus_reason = "no cpuN directory in " + sys_cpu;
  for (int cpu : *cpu_numbers) {
    CpuKernelFacts c;
    c.cpu = cpu;
    const std::string dir = sys_cpu + "cpu" + std::to_string(cpu) + "/";
    c.governor = read_parsed<std::string>(dir + "cpufreq/scaling_governor", parse_word);
    c.thread_siblings = read_parsed<std::vector<int>>(dir + "topology/thread_siblings_list", parse_cpu_list_file);
    const std::string idle_dir = dir + "cpuidle";
    if (!exists(idle_dir)) {
      c.idle_states = Fact<std::vector<IdleState>>::fail(FactState::absent, "no " + idle_dir);
    } else if (const auto states = numbered_entries(idle_dir, "state")) {
      std::vector<IdleState> list;
      for (int s : *states) {
        const std::string sdir = idle_dir + "/state" + std::to_string(s) + "/";
        IdleState st;
        st.index = s;
        st.name = read_parsed<std::string>(sdir + "name", parse_line);
        st.latency_us = read_parsed<std::uint64_t>(sdir + "latency", parse_unsigned);
        st.disabled = read_parsed<bool>(sdir + "disable", parse_bool01);
        list.push_back(std::move(st));
      }
      c.idle_states = Fact<std::vector<IdleState>>::good(std::move(list));
    } else {
      c.idle_states = Fact<std::vector<IdleState>>::fail(FactState::unreadable, "cannot list " + idle_dir);
    }
    k.cpus.push_back(std::move(c));
  }
  return k;
}

}  // namespace tscaudit
