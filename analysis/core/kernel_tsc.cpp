#include "core/kernel_tsc.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace tscaudit {
namespace {

constexpr std::array<std::pair<KernelTscEventKind, std::string_view>, 13> kKernelTscKindNames = {{
    {KernelTscEventKind::warp, "warp"},
    {KernelTscEventKind::warp_random, "warp_random"},
    {KernelTscEventKind::unstable, "unstable"},
    {KernelTscEventKind::unstable_after_boot, "unstable_after_boot"},
    {KernelTscEventKind::watchdog_unstable, "watchdog_unstable"},
    {KernelTscEventKind::cpus_ahead, "cpus_ahead"},
    {KernelTscEventKind::cpus_behind, "cpus_behind"},
    {KernelTscEventKind::sync_skipped, "sync_skipped"},
    {KernelTscEventKind::adjust_differs, "adjust_differs"},
    {KernelTscEventKind::adjust_forced, "adjust_forced"},
    {KernelTscEventKind::adjust_not_forced, "adjust_not_forced"},
    {KernelTscEventKind::adjust_compensated, "adjust_compensated"},
    {KernelTscEventKind::adjust_restored, "adjust_restored"},
}};

}  // namespace

std::string_view kernel_tsc_kind_name(KernelTscEventKind kind) {
  for (const auto& [k, name] : kKernelTscKindNames) {
    if (k == kind) return name;
  }
  return "?";
}

std::optional<KernelTscEventKind> kernel_tsc_kind_from_name(std::string_view name) {
  for (const auto& [k, n] : kKernelTscKindNames) {
    if (n == name) return k;
  }
  return std::nullopt;
}

bool is_kernel_tsc_verdict(KernelTscEventKind kind) {
  switch (kind) {
    case KernelTscEventKind::warp:
    case KernelTscEventKind::warp_random:
    case KernelTscEventKind::unstable:
    case KernelTscEventKind::unstable_after_boot:
    case KernelTscEventKind::watchdog_unstable:
    case KernelTscEventKind::cpus_ahead:
    case KernelTscEventKind::cpus_behind: return true;
    case KernelTscEventKind::sync_skipped:
    case KernelTscEventKind::adjust_differs:
    case KernelTscEventKind::adjust_forced:
    case KernelTscEventKind::adjust_not_forced:
    case KernelTscEventKind::adjust_compensated:
    case KernelTscEventKind::adjust_restored: return false;
  }
  return false;
}

std::vector<int> sorted_cpus(std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

void KernelTscLog::add(KernelTscEvent e) {
  if (events.size() < kMaxEvents) {
    events.push_back(std::move(e));
    return;
  }
  ++left_out;
  if (!is_kernel_tsc_verdict(e.kind)) return;
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (!is_kernel_tsc_verdict(it->kind)) {
      events.erase(std::next(it).base());
      events.push_back(std::move(e));
      return;
    }
  }
}

}  // namespace tscaudit
