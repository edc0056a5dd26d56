#include "platform/affinity.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include <unistd.h>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"

namespace tscsync {
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

std::string errno_text(int err) { return std::strerror(err); }

}  // namespace

CpuAvailability read_cpu_availability(const std::string& sysfs_cpu_dir) {
  CpuAvailability cpus;
  cpus.present = read_list_file(sysfs_cpu_dir + "/present");
  cpus.online = read_list_file(sysfs_cpu_dir + "/online");

  // The mask may be larger than cpu_set_t's 1024 bits on big machines: size it from
  // the highest present CPU.
  const int highest = cpus.present.empty() ? 0 : *std::max_element(cpus.present.begin(), cpus.present.end());
  const auto count = static_cast<std::size_t>(std::max(highest + 1, CPU_SETSIZE));
  cpu_set_t* set = CPU_ALLOC(count);
  const std::size_t size = CPU_ALLOC_SIZE(count);
  CPU_ZERO_S(size, set);
  if (sched_getaffinity(0, size, set) != 0) {
    const int err = errno;
    CPU_FREE(set);
    throw IoError("sched_getaffinity: " + errno_text(err));
  }
  for (std::size_t c = 0; c < count; ++c) {
    if (CPU_ISSET_S(c, size, set)) cpus.allowed.push_back(static_cast<int>(c));
  }
  CPU_FREE(set);
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
  const auto count = static_cast<std::size_t>(std::max(cpu + 1, CPU_SETSIZE));
  const std::size_t size = CPU_ALLOC_SIZE(count);
  cpu_set_t* set = CPU_ALLOC(count);
  CPU_ZERO_S(size, set);
  CPU_SET_S(static_cast<std::size_t>(cpu), size, set);
  const std::string name = "CPU " + std::to_string(cpu);
  int err = pthread_setaffinity_np(pthread_self(), size, set);
  if (err != 0) {
    CPU_FREE(set);
    throw RuntimeError("cannot pin a thread to " + name + ": pthread_setaffinity_np: " + errno_text(err));
  }
  CPU_ZERO_S(size, set);
  err = pthread_getaffinity_np(pthread_self(), size, set);
  const bool only_cpu =
      err == 0 && CPU_COUNT_S(size, set) == 1 && CPU_ISSET_S(static_cast<std::size_t>(cpu), size, set);
  CPU_FREE(set);
  if (!only_cpu) {
    throw RuntimeError("pinning to " + name + " did not hold: the thread's affinity mask is not {" +
                       std::to_string(cpu) + "}");
  }
  // sched_setaffinity migrates the calling thread before it returns.
  const int running_on = sched_getcpu();
  if (running_on != cpu) {
    throw RuntimeError("pinned to " + name + " but running on CPU " + std::to_string(running_on));
  }
}

namespace {

/// Enough bits for every CPU the kernel may name: the configured processors, at least
/// CPU_SETSIZE.
std::size_t mask_cpu_count(int highest_needed) {
  const long configured = sysconf(_SC_NPROCESSORS_CONF);
  const long most = std::max<long>({configured, static_cast<long>(highest_needed) + 1, CPU_SETSIZE});
  return static_cast<std::size_t>(most);
}

}  // namespace

std::vector<int> this_thread_affinity() {
  const std::size_t count = mask_cpu_count(0);
  const std::size_t size = CPU_ALLOC_SIZE(count);
  cpu_set_t* set = CPU_ALLOC(count);
  CPU_ZERO_S(size, set);
  const int err = pthread_getaffinity_np(pthread_self(), size, set);
  std::vector<int> cpus;
  if (err == 0) {
    for (std::size_t c = 0; c < count; ++c) {
      if (CPU_ISSET_S(c, size, set)) cpus.push_back(static_cast<int>(c));
    }
  }
  CPU_FREE(set);
  if (err != 0) {
    throw RuntimeError("cannot read the thread's affinity mask: pthread_getaffinity_np: " + errno_text(err));
  }
  return cpus;
}

std::vector<int> thread_affinity(long tid) {
  const std::size_t count = mask_cpu_count(0);
  const std::size_t size = CPU_ALLOC_SIZE(count);
  cpu_set_t* set = CPU_ALLOC(count);
  CPU_ZERO_S(size, set);
  const int rc = sched_getaffinity(static_cast<pid_t>(tid), size, set);
  const int err = errno;
  std::vector<int> cpus;
  if (rc == 0) {
    for (std::size_t c = 0; c < count; ++c) {
      if (CPU_ISSET_S(c, size, set)) cpus.push_back(static_cast<int>(c));
    }
  }
  CPU_FREE(set);
  if (rc != 0) {
    throw RuntimeError("cannot read the affinity mask of thread " + std::to_string(tid) +
                       ": sched_getaffinity: " + errno_text(err));
  }
  return cpus;
}

void set_this_thread_affinity(const std::vector<int>& cpus) {
  if (cpus.empty()) throw RuntimeError("cannot set an empty affinity mask");
  const int highest = *std::max_element(cpus.begin(), cpus.end());
  if (*std::min_element(cpus.begin(), cpus.end()) < 0) {
    throw RuntimeError("cannot set an affinity mask with a negative CPU");
  }
  const std::size_t count = mask_cpu_count(highest);
  const std::size_t size = CPU_ALLOC_SIZE(count);
  cpu_set_t* set = CPU_ALLOC(count);
  CPU_ZERO_S(size, set);
  for (int c : cpus) CPU_SET_S(static_cast<std::size_t>(c), size, set);
  const int err = pthread_setaffinity_np(pthread_self(), size, set);
  CPU_FREE(set);
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

}  // namespace tscsync
