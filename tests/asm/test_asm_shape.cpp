// The emitted code has the fences where tsc.hpp says: objdump this test binary and read
// the ordering instructions of each wrapper in asm_shape_functions.cpp. The Catch2
// implementation is support/catch_impl.cpp.
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

/// The ordering-relevant mnemonics of `symbol` in this binary, in address order.
std::vector<std::string> ordering_instructions(const std::string& symbol) {
  // The path of this binary, resolved here: inside the shell, /proc/self is objdump.
  char self[4096] = {};
  REQUIRE(::readlink("/proc/self/exe", self, sizeof self - 1) > 0);
  const std::string command = "objdump -d --no-show-raw-insn --disassemble=" + symbol + " '" + self + "' 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::vector<std::string> out;
  char line[512];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    // "  401136:\tlfence" -> the mnemonic after the tab
    const std::string text(line);
    const auto tab = text.find('\t');
    if (tab == std::string::npos) continue;
    std::istringstream rest(text.substr(tab + 1));
    std::string mnemonic;
    rest >> mnemonic;
    if (mnemonic == "rdtsc" || mnemonic == "rdtscp" || mnemonic == "lfence" || mnemonic == "mfence" ||
        mnemonic == "cpuid") {
      out.push_back(mnemonic);
    }
  }
  ::pclose(pipe);
  return out;
}

const std::map<std::string, std::vector<std::string>> kExpected = {
    {"rdtsc", {"rdtsc"}},
    {"rdtsc_lfence", {"rdtsc", "lfence"}},
    {"lfence_rdtsc", {"lfence", "rdtsc"}},
    {"lfence_rdtsc_lfence", {"lfence", "rdtsc", "lfence"}},
    {"rdtscp", {"rdtscp"}},
    {"rdtscp_lfence", {"rdtscp", "lfence"}},
    {"mfence_rdtsc", {"mfence", "rdtsc"}},
    {"cpuid_rdtsc", {"cpuid", "rdtsc"}},
};

}  // namespace

TEST_CASE("each variant's object code is its documented sequence") {
  REQUIRE(kExpected.size() == tscsync::kAllVariants.size());
  for (tscsync::Variant v : tscsync::kAllVariants) {
    const std::string name(tscsync::variant_name(v));
    INFO("variant " << name);
    CHECK(ordering_instructions("tscsync_shape_read_" + name) == kExpected.at(name));
    // Inlined after a spin loop, the sequence stays whole: the fences sit between the
    // loop's exit and the read, and nothing else orders anything.
    CHECK(ordering_instructions("tscsync_shape_recv_" + name) == kExpected.at(name));
  }
}

int main(int argc, char* argv[]) {
  if (std::system("objdump --version >/dev/null 2>&1") != 0) {
    std::cout << "SKIPPED: objdump (binutils) is not installed\n";
    return 4;
  }
  return tscsync::test::run_catch(argc, argv);
}
