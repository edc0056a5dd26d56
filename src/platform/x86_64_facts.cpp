#include "platform/x86_64_facts.hpp"

#include <string>

namespace tscaudit {
namespace {

/// A leaf number as the manuals write it: "15H", "40000001H".
std::string leaf_name(unsigned leaf) {
  constexpr char kHex[] = "0123456789ABCDEF";
  std::string s;
  do {
    s.insert(s.begin(), kHex[leaf & 0xf]);
    leaf >>= 4;
  } while (leaf != 0);
  if (s.size() < 2) s.insert(s.begin(), '0');
  return s + "H";
}

}  // namespace

std::string describe_leaf_15h(const CpuidFacts& c) {
  if (c.max_basic_leaf < 0x15) {
    return "not offered (the highest basic leaf is " + leaf_name(c.max_basic_leaf) + ")";
  }
  if (c.leaf15_denominator == 0 || c.leaf15_numerator == 0) {
    return c.leaf15_crystal_hz == 0 ? "not offered (reads all zero)" : "not offered (no TSC/crystal ratio)";
  }
  const std::string ratio = std::to_string(c.leaf15_numerator) + "/" + std::to_string(c.leaf15_denominator);
  if (c.leaf15_crystal_hz == 0) return "TSC/crystal ratio " + ratio + ", but the crystal frequency is not enumerated";
  return std::to_string(c.leaf15_crystal_hz) + " Hz crystal x " + ratio + " = " + std::to_string(c.crystal_tsc_hz) +
         " Hz";
}

std::string describe_leaf_16h(const CpuidFacts& c) {
  if (c.max_basic_leaf < 0x16) {
    return "not offered (the highest basic leaf is " + leaf_name(c.max_basic_leaf) + ")";
  }
  if (c.base_mhz == 0) return "not offered (reads zero)";
  return "base " + std::to_string(c.base_mhz) + " MHz, max " + std::to_string(c.max_mhz) + " MHz, bus " +
         std::to_string(c.bus_mhz) + " MHz";
}

std::string describe_leaf_40000010h(const CpuidFacts& c) {
  if (!c.hypervisor) return "not offered (no hypervisor)";
  if (c.max_hypervisor_leaf < 0x40000010) {
    return "not offered (the hypervisor's highest leaf is " + leaf_name(c.max_hypervisor_leaf) + ")";
  }
  if (c.hypervisor_tsc_hz == 0) return "not offered (reads zero)";
  return std::to_string(c.hypervisor_tsc_hz / 1000) + " kHz";
}

TscFrequency choose_tsc_frequency(const CpuidFacts& c, const std::optional<Calibration>& calibration) {
  TscFrequency f;
  f.calibration = calibration;
  if (c.crystal_tsc_hz != 0) {
    f.hz = static_cast<double>(c.crystal_tsc_hz);
    f.source = "cpuid_15h";
    f.why = "CPUID 15H enumerates it (" + describe_leaf_15h(c) + "): the hardware's own figure";
    return f;
  }
  const std::string no_15h = "CPUID 15H " + describe_leaf_15h(c);
  if (c.hypervisor_tsc_hz != 0) {
    f.hz = static_cast<double>(c.hypervisor_tsc_hz);
    f.source = "cpuid_40000010h";
    f.uncertainty_ppm = 1e3 / f.hz * 1e6;  // kHz resolution: up to 1 kHz of rounding
    f.why = no_15h + "; the hypervisor's leaf 40000010H gives it, to 1 kHz";
    return f;
  }
  const std::string neither = no_15h + "; hypervisor leaf 40000010H " + describe_leaf_40000010h(c);
  if (calibration && calibration->fit.valid) {
    f.hz = calibration->hz();
    f.source = "calibrated_monotonic_raw";
    f.uncertainty_ppm = calibration->fit.bracket_ppm;
    f.why = neither + ": calibrated against " + clock_name(calibration->clock);
    return f;
  }
  f.source = "unknown";
  f.why = neither + (calibration ? "; the calibration failed: " + calibration->fit.reason : "; not calibrated");
  return f;
}

}  // namespace tscaudit
