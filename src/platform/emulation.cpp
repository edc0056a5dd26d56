#include "platform/emulation.hpp"

#include "core/lines.hpp"
#include "platform/kernel_facts.hpp"

namespace tscaudit {

std::optional<std::string> emulation_evidence(CounterArch binary, std::string_view cpuinfo_text) {
  bool x86_kernel = false;
  bool arm64_kernel = false;
  for_each_line(cpuinfo_text, [&](std::string_view line) {
    const std::string_view key = trim(line.substr(0, line.find(':')), kBlanks);
    x86_kernel = x86_kernel || key == "vendor_id";
    arm64_kernel = arm64_kernel || key == "CPU implementer";
  });
  const auto evidence = [&](std::string_view kernel, std::string_view lines) {
    return "this " + std::string(arch_name(binary)) + " binary runs on an " + std::string(kernel) +
           " kernel (/proc/cpuinfo has its " + std::string(lines) +
           " lines): a user-mode emulator such as qemu-user translates every instruction, so every time measured "
           "here is the emulator's, not the hardware's";
  };
  if (binary == CounterArch::aarch64 && x86_kernel && !arm64_kernel) return evidence("x86-64", "vendor_id");
  if (binary == CounterArch::x86_64 && arm64_kernel && !x86_kernel) return evidence("arm64", "CPU implementer");
  return std::nullopt;
}

}  // namespace tscaudit
