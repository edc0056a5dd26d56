// The standalone driver of the fuzz harnesses, for builds without libFuzzer (g++, the
// normal suite): runs every file named, and every file in every directory named, through
// LLVMFuzzerTestOneInput, in name order. A finding aborts (fuzz_support.hpp), so the
// process fails. Files whose names start with '.' (.gitkeep) are passed over.
//
//   tscaudit_fuzz_replay_TARGET PATH...     exit 0: every input ran, at least one
//                                           exit 2: no path, or nothing to run
//                                           exit 3: a path that cannot be read
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_support.hpp"

namespace {

bool read_file(const std::filesystem::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
    return 2;
  }
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const fs::path path(argv[i]);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> files;
      for (const fs::directory_entry& entry : fs::directory_iterator(path, ec)) {
        if (entry.is_regular_file() && entry.path().filename().string().front() != '.') files.push_back(entry.path());
      }
      if (ec) {
        std::fprintf(stderr, "%s: cannot list the directory: %s\n", argv[i], ec.message().c_str());
        return 3;
      }
      std::sort(files.begin(), files.end());
      inputs.insert(inputs.end(), files.begin(), files.end());
    } else if (fs::is_regular_file(path, ec)) {
      inputs.push_back(path);
    } else {
      std::fprintf(stderr, "%s: not a file or directory\n", argv[i]);
      return 3;
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "no inputs: a replay that runs nothing tests nothing\n");
    return 2;
  }
  std::string data;
  for (const fs::path& path : inputs) {
    if (!read_file(path, data)) {
      std::fprintf(stderr, "%s: cannot read\n", path.c_str());
      return 3;
    }
    // The name first: a finding aborts, and the last name printed is the input that did it.
    std::fprintf(stderr, "%s (%zu bytes)\n", path.c_str(), data.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  }
  std::printf("%zu inputs ran without a finding\n", inputs.size());
  return 0;
}
