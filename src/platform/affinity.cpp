#include "platform/affinity.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <new>
#include <optional>
#include <tuple>

#include <unistd.h>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"

namespace tscaudit {
namespace {

std::vector<int> read_list_file(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) throw IoError("cannot read " + path);
  while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
  try {
    return parse_cpu_list(line);
  } catch (const UsageError& e) {
    throw IoError(path + ": " + e.what());
  }
}

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

/// A CPU set sized for `count` CPUs (CPU_ALLOC: masks may be larger than cpu_set_t's 1024
/// bits on big machines), cleared, and freed with this object.
class CpuSet {
 public:
  explicit CpuSet(std::size_t count) : count_(count), bytes_(CPU_ALLOC_SIZE(count)), set_(CPU_ALLOC(count)) {
    if (set_ == nullptr) throw std::bad_alloc();
    CPU_ZERO_S(bytes_, set_);
  }
  ~CpuSet() { CPU_FREE(set_); }
  CpuSet(const CpuSet&) = delete;
  CpuSet& operator=(const CpuSet&) = delete;

  [[nodiscard]] cpu_set_t* get() { return set_; }
  [[nodiscard]] std::size_t bytes() const { return bytes_; }
  void add(int cpu) { CPU_SET_S(static_cast<std::size_t>(cpu), bytes_, set_); }
  /// The CPUs in the set, ascending.
  [[nodiscard]] std::vector<int> cpus() const {
    std::vector<int> out;
    for (std::size_t c = 0; c < count_; ++c) {
      if (CPU_ISSET_S(c, bytes_, set_)) out.push_back(static_cast<int>(c));
    }
    return out;
  }

 private:
  std::size_t count_;
  std::size_t bytes_;
  cpu_set_t* set_;
};

/// Enough bits for every CPU the kernel may name: the configured processors, at least
/// CPU_SETSIZE, and `highest_needed`.
std::size_t mask_cpu_count(int highest_needed) {
  const long configured = sysconf(_SC_NPROCESSORS_CONF);
  const long most = std::max<long>({configured, static_cast<long>(highest_needed) + 1, CPU_SETSIZE});
  return static_cast<std::size_t>(most);
}

/// The first integer in `path`, or nullopt when it cannot be read or is not one.
std::optional<long> read_long_file(const std::string& path) {
  std::ifstream in(path);
  long value = 0;
  if (!(in >> value)) return std::nullopt;
  return value;
}

/// `raw` renumbered 0, 1, ... in order of first appearance; -1 stays -1.
std::vector<int> renumbered(const std::vector<long>& raw) {
  std::vector<long> seen;
  std::vector<int> out;
  for (long v : raw) {
    if (v < 0) {
      out.push_back(-1);
      continue;
    }
    auto at = std::find(seen.begin(), seen.end(), v);
    if (at == seen.end()) at = seen.insert(seen.end(), v);
    out.push_back(static_cast<int>(at - seen.begin()));
  }
  return out;
}

}  // namespace

std::vector<CpuPlace> read_cpu_places(const std::vector<int>& cpus, const std::string& sysfs_cpu_dir) {
  std::vector<long> package, l3, core;
  for (int cpu : cpus) {
    const std::string dir = sysfs_cpu_dir + "/cpu" + std::to_string(cpu);
    const long p = read_long_file(dir + "/topology/physical_package_id").value_or(-1);
    package.push_back(p);
    // index3 is the L3 where the machine has one; its level file says so.
    const bool is_l3 = read_long_file(dir + "/cache/index3/level").value_or(0) == 3;
    const long cache = is_l3 ? read_long_file(dir + "/cache/index3/id").value_or(-1) : -1;
    l3.push_back(cache < 0 || p < 0 ? -1 : p * 65536 + cache);  // an id is per package
    const long c = read_long_file(dir + "/topology/core_id").value_or(-1);
    core.push_back(c < 0 || p < 0 ? -1 : p * 65536 + c);  // core_id is per package
  }
  const std::vector<int> packages = renumbered(package), l3s = renumbered(l3), cores = renumbered(core);
  std::vector<CpuPlace> places;
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    places.push_back(CpuPlace{.cpu = cpus[i], .package = packages[i], .l3 = l3s[i], .core = cores[i]});
  }
  std::stable_sort(places.begin(), places.end(), [](const CpuPlace& x, const CpuPlace& y) {
    return std::tie(x.package, x.l3, x.core, x.cpu) < std::tie(y.package, y.l3, y.core, y.cpu);
  });
  return places;
}

CpuAvailability read_cpu_availability(const std::string& sysfs_cpu_dir) {
  CpuAvailability cpus;
  cpus.present = read_list_file(sysfs_cpu_dir + "/present");
  cpus.online = read_list_file(sysfs_cpu_dir + "/online");

  // Sized from the highest present CPU.
  const int highest = cpus.present.empty() ? 0 : *std::max_element(cpus.present.begin(), cpus.present.end());
  CpuSet set(mask_cpu_count(highest));
  if (sched_getaffinity(0, set.bytes(), set.get()) != 0) throw IoError("sched_getaffinity: " + errno_text(errno));
  cpus.allowed = set.cpus();
  return cpus;
}

std::optional<std::string> cpu_problem(int cpu, const CpuAvailability& cpus) {
  const std::string name = "CPU " + std::to_string(cpu);
  if (!contains(cpus.present, cpu)) {
    return name + " does not exist (this machine has CPUs " + format_cpu_list(cpus.present) + ")";
  }
  if (!contains(cpus.online, cpu)) {
    return name + " is offline (online CPUs: " + format_cpu_list(cpus.online) + ")";
  }
  if (!contains(cpus.allowed, cpu)) {
    return name + " is outside this process's affinity mask (allowed: " + format_cpu_list(cpus.allowed) + ")";
  }
  return std::nullopt;
}

void pin_this_thread(int cpu) {
  const std::string name = "CPU " + std::to_string(cpu);
  CpuSet set(mask_cpu_count(cpu));
  set.add(cpu);
  const int err = pthread_setaffinity_np(pthread_self(), set.bytes(), set.get());
  if (err != 0) {
    throw RuntimeError("cannot pin a thread to " + name + ": pthread_setaffinity_np: " + errno_text(err));
  }
  if (this_thread_affinity() != std::vector<int>{cpu}) {
    throw RuntimeError("pinning to " + name + " did not hold: the thread's affinity mask is not {" +
                       std::to_string(cpu) + "}");
  }
  // sched_setaffinity migrates the calling thread before it returns.
  const int running_on = sched_getcpu();
  if (running_on != cpu) {
    throw RuntimeError("pinned to " + name + " but running on CPU " + std::to_string(running_on));
  }
}

bool use_normal_scheduling() noexcept {
  int policy = 0;
  sched_param param{};
  if (pthread_getschedparam(pthread_self(), &policy, &param) != 0) return false;
  if (policy != SCHED_FIFO && policy != SCHED_RR) return true;  // only real-time policies are left
  param.sched_priority = 0;
  return pthread_setschedparam(pthread_self(), SCHED_OTHER, &param) == 0;
}

std::vector<int> this_thread_affinity() {
  CpuSet set(mask_cpu_count(0));
  const int err = pthread_getaffinity_np(pthread_self(), set.bytes(), set.get());
  if (err != 0) {
    throw RuntimeError("cannot read the thread's affinity mask: pthread_getaffinity_np: " + errno_text(err));
  }
  return set.cpus();
}

std::vector<int> thread_affinity(long tid) {
  CpuSet set(mask_cpu_count(0));
  if (sched_getaffinity(static_cast<pid_t>(tid), set.bytes(), set.get()) != 0) {
    throw RuntimeError("cannot read the affinity mask of thread " + std::to_string(tid) +
                       ": sched_getaffinity: " + errno_text(errno));
  }
  return set.cpus();
}

void set_this_thread_affinity(const std::vector<int>& cpus) {
  if (cpus.empty()) throw RuntimeError("cannot set an empty affinity mask");
  const int highest = *std::max_element(cpus.begin(), cpus.end());
  if (*std::min_element(cpus.begin(), cpus.end()) < 0) {
    throw RuntimeError("cannot set an affinity mask with a negative CPU");
  }
  CpuSet set(mask_cpu_count(highest));
  for (int c : cpus) set.add(c);
  const int err = pthread_setaffinity_np(pthread_self(), set.bytes(), set.get());
  if (err != 0) {
    throw RuntimeError("cannot set the thread's affinity mask to " + format_cpu_list(cpus) +
                       ": pthread_setaffinity_np: " + errno_text(err));
  }
}

AffinityRestorer::~AffinityRestorer() {
  try {
    set_this_thread_affinity(saved_);
  } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): nothing to do in a destructor
  }
}

ThreadSnapshot take_snapshot() noexcept {
  ThreadSnapshot snap;
  rusage usage{};
  if (getrusage(RUSAGE_THREAD, &usage) == 0) {
    snap.context_switches = static_cast<std::uint64_t>(usage.ru_nvcsw) + static_cast<std::uint64_t>(usage.ru_nivcsw);
  }
  snap.cpu = sched_getcpu();
  return snap;
}

}  // namespace tscaudit
