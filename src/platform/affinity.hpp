// Which CPUs exist and may be used, pinning a thread to one, and where a thread runs.
// All sched_*affinity, getrusage and /sys/devices/system/cpu access lives here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/cpu_place.hpp"

namespace tscaudit {

/// The CPUs this process could measure on, from sysfs and the affinity mask.
struct CpuAvailability {
  std::vector<int> present;  // /sys/devices/system/cpu/present
  std::vector<int> online;   // /sys/devices/system/cpu/online
  std::vector<int> allowed;  // sched_getaffinity of this process
};

/// Reads the three sets. `sysfs_cpu_dir` is a parameter so tests can use fixtures.
/// \throws IoError when a sysfs file cannot be read or parsed.
CpuAvailability read_cpu_availability(const std::string& sysfs_cpu_dir = "/sys/devices/system/cpu");

/// Where each of `cpus` sits, from sysfs alone (no hwloc: what the library can afford): its
/// package (topology/physical_package_id), L3 (cache/index3/id) and core (topology/core_id
/// within the package), each renumbered 0, 1, ... in order of first appearance among `cpus`;
/// -1 where sysfs does not say. Returned in topology order: by package, L3, core, number.
std::vector<CpuPlace> read_cpu_places(const std::vector<int>& cpus,
                                      const std::string& sysfs_cpu_dir = "/sys/devices/system/cpu");

/// Why `cpu` cannot be measured on, or nullopt when it can. Pure.
std::optional<std::string> cpu_problem(int cpu, const CpuAvailability& cpus);

/// Pins the calling thread to `cpu` and verifies it: the thread's mask is exactly {cpu}
/// and the thread is running there.
/// \throws RuntimeError naming the CPU and the failing call (with errno text).
void pin_this_thread(int cpu);

/// Puts the calling thread under the normal time-sharing policy (SCHED_OTHER) when it
/// inherited a real-time one (SCHED_FIFO or SCHED_RR) from a caller of the library: a spinning
/// measuring thread must not take a CPU from the caller's real-time threads. Lowering a
/// thread's policy needs no privilege. \returns false when the policy could not be read or set.
bool use_normal_scheduling() noexcept;

/// The calling thread's affinity mask (pthread_getaffinity_np), ascending.
/// \throws RuntimeError with the errno text when it cannot be read.
std::vector<int> this_thread_affinity();

/// The affinity mask of thread `tid` of this process (sched_getaffinity), ascending: how
/// another thread sees that a measuring thread's CPU was taken away.
/// \throws RuntimeError with the errno text when it cannot be read (e.g. the thread ended).
std::vector<int> thread_affinity(long tid);

/// Sets the calling thread's affinity mask to `cpus` (pthread_setaffinity_np).
/// \throws RuntimeError when `cpus` is empty, names a negative CPU, or the call fails.
void set_this_thread_affinity(const std::vector<int>& cpus);

/// Saves the calling thread's affinity mask and puts it back when it goes out of scope
/// (best effort there: a destructor cannot throw). Construct it on the thread it guards.
class AffinityRestorer {
 public:
  AffinityRestorer() : saved_(this_thread_affinity()) {}
  ~AffinityRestorer();
  AffinityRestorer(const AffinityRestorer&) = delete;
  AffinityRestorer& operator=(const AffinityRestorer&) = delete;
  [[nodiscard]] const std::vector<int>& saved() const { return saved_; }

 private:
  std::vector<int> saved_;
};

/// What a thread looks like at a chunk edge: context switches so far (voluntary plus
/// involuntary, getrusage RUSAGE_THREAD) and the CPU it runs on (sched_getcpu, which
/// glibc serves from rseq or the vDSO without a system call where the kernel allows).
struct ThreadSnapshot {
  std::uint64_t context_switches = 0;
  std::int32_t cpu = -1;
};

/// Takes a snapshot of the calling thread. One getrusage system call.
ThreadSnapshot take_snapshot() noexcept;

}  // namespace tscaudit
