#include "platform/msr.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tscaudit {

std::string msr_problem(int cpu, int err, bool at_open, bool kernel_loads_modules) {
  const std::string dev = "/dev/cpu/" + std::to_string(cpu) + "/msr";
  if (at_open && (err == ENOENT || err == ENOTDIR)) {
    if (kernel_loads_modules) return "no " + dev + ": msr module not loaded (modprobe msr)";
    return "no " + dev + ": no msr driver, and this kernel loads no modules (no /proc/modules)";
  }
  if (at_open && (err == ENXIO || err == ENODEV)) return dev + ": CPU " + std::to_string(cpu) + " is offline";
  if (err == EACCES || err == EPERM) return dev + ": needs root (CAP_SYS_RAWIO): " + std::strerror(err);
  if (!at_open && err == EIO) return "MSR not readable (EIO: the hypervisor refuses it, or the CPU lacks it)";
  return dev + (at_open ? ": open: " : ": pread: ") + std::strerror(err);
}

MsrRead read_msr(int cpu, std::uint32_t msr) {
  MsrRead r;
  const std::string dev = "/dev/cpu/" + std::to_string(cpu) + "/msr";
  const int fd = ::open(dev.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    r.problem = msr_problem(cpu, err, true, ::access("/proc/modules", F_OK) == 0);
    return r;
  }
  std::uint64_t raw = 0;
  const ssize_t n = ::pread(fd, &raw, sizeof raw, static_cast<off_t>(msr));
  const int err = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(sizeof raw)) {
    r.problem = msr_problem(cpu, n < 0 ? err : EIO, false, true);
    return r;
  }
  r.value = static_cast<std::int64_t>(raw);
  return r;
}

}  // namespace tscaudit
