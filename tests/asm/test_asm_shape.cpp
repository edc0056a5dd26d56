// The emitted code has the fences where the architecture's counter header says
// (platform/counter_x86_64.hpp, platform/counter_aarch64.hpp): objdump this test binary
// and read the ordering instructions of each wrapper in asm_shape_functions.cpp. The
// objdump is the toolchain's (TSCAUDIT_OBJDUMP: objdump, or aarch64-linux-gnu-objdump for a
// cross build run under an emulator). The Catch2 implementation is support/catch_impl.cpp.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "catch_run.hpp"
#include "measure/variant.hpp"

namespace {

/// The ordering-relevant instruction of a disassembled line, or "": x86-64's fences and
/// reads by mnemonic; aarch64's isb, the counter reads as "mrs REGISTER" (CNTVCTSS_EL0
/// by name, whether objdump prints its name or its encoding), and the dependent load of
/// isb_cntvct_dep as "ldr xzr".
std::string ordering_instruction(const std::string& mnemonic, const std::string& operands) {
#if defined(__x86_64__)
  static_cast<void>(operands);
  if (mnemonic == "rdtsc" || mnemonic == "rdtscp" || mnemonic == "lfence" || mnemonic == "mfence" ||
      mnemonic == "cpuid") {
    return mnemonic;
  }
#else
  if (mnemonic == "isb") return mnemonic;
  if (mnemonic == "mrs") {
    if (operands.find("cntvct_el0") != std::string::npos) return "mrs cntvct_el0";
    if (operands.find("cntvctss_el0") != std::string::npos || operands.find("s3_3_c14_c0_6") != std::string::npos) {
      return "mrs cntvctss_el0";
    }
  }
  if (mnemonic == "ldr" && operands.rfind("xzr,", 0) == 0) return "ldr xzr";
#endif
  return "";
}

/// The ordering-relevant instructions of `symbol` in this binary, in address order.
std::vector<std::string> ordering_instructions(const std::string& symbol) {
  // The path of this binary, resolved here: inside the shell, /proc/self is objdump.
  char self[4096] = {};
  REQUIRE(::readlink("/proc/self/exe", self, sizeof self - 1) > 0);
  const std::string command = std::string(TSCAUDIT_OBJDUMP) + " -d --no-show-raw-insn --disassemble=" + symbol + " '" +
                              self + "' 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::vector<std::string> out;
  char line[512];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    // "  401136:\tlfence" -> the mnemonic after the tab, then its operands
    const std::string text(line);
    const auto tab = text.find('\t');
    if (tab == std::string::npos) continue;
    std::istringstream rest(text.substr(tab + 1));
    std::string mnemonic, operands;
    rest >> mnemonic >> operands;
    std::string more;
    while (rest >> more) operands += more;  // "x0, cntvct_el0" -> "x0,cntvct_el0"
    if (const std::string instruction = ordering_instruction(mnemonic, operands); !instruction.empty()) {
      out.push_back(instruction);
    }
  }
  ::pclose(pipe);
  return out;
}

const std::map<std::string, std::vector<std::string>> kExpected = {
#if defined(__x86_64__)
    {"rdtsc", {"rdtsc"}},
    {"rdtsc_lfence", {"rdtsc", "lfence"}},
    {"lfence_rdtsc", {"lfence", "rdtsc"}},
    {"lfence_rdtsc_lfence", {"lfence", "rdtsc", "lfence"}},
    {"rdtscp", {"rdtscp"}},
    {"rdtscp_lfence", {"rdtscp", "lfence"}},
    {"mfence_rdtsc", {"mfence", "rdtsc"}},
    {"cpuid_rdtsc", {"cpuid", "rdtsc"}},
#else
    {"cntvct", {"mrs cntvct_el0"}},
    {"isb_cntvct", {"isb", "mrs cntvct_el0"}},
    {"cntvct_isb", {"mrs cntvct_el0", "isb"}},
    {"isb_cntvct_isb", {"isb", "mrs cntvct_el0", "isb"}},
    {"isb_cntvct_dep", {"isb", "mrs cntvct_el0", "ldr xzr"}},
    {"cntvctss", {"mrs cntvctss_el0"}},
#endif
};

}  // namespace

TEST_CASE("each variant's object code is its documented sequence") {
  REQUIRE(kExpected.size() == tscaudit::kHostVariants.size());
  for (tscaudit::Variant v : tscaudit::kHostVariants) {
    const std::string name(tscaudit::variant_name(v));
    INFO("variant " << name);
    CHECK(ordering_instructions("tscaudit_shape_read_" + name) == kExpected.at(name));
    // Inlined after a spin loop, the sequence stays whole: the fences sit between the
    // loop's exit and the read, and nothing else orders anything.
    CHECK(ordering_instructions("tscaudit_shape_recv_" + name) == kExpected.at(name));
  }
}

int main(int argc, char* argv[]) {
  if (std::system((std::string(TSCAUDIT_OBJDUMP) + " --version >/dev/null 2>&1").c_str()) != 0) {
    std::cout << "SKIPPED: " << TSCAUDIT_OBJDUMP << " (binutils) is not installed\n";
    return 4;
  }
  return tscaudit::test::run_catch(argc, argv);
}
