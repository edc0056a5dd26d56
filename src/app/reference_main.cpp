// tscaudit_reference: the reference parts of the man page, docs/commands.md and the bash
// completion, made from the command line's tables (cli_reference.hpp). Not installed.
//   tscaudit_reference check SOURCE_DIR   exit 1, naming the file and the option, where a
//                                          committed part differs from what the tables make
//   tscaudit_reference write SOURCE_DIR   rewrite the parts (`make reference`)
//   tscaudit_reference print PATH         the part of PATH (man/tscaudit.1, ...) as made
#include <cstdint>
#include <exception>
#include <iostream>
#include <string>

#include "app/cli_reference.hpp"
#include "core/files.hpp"
#include "io/output_file.hpp"

namespace {

/// A committed file is small; this bounds what a wrong path would read.
constexpr std::uint64_t kMaxFileBytes = std::uint64_t{1} << 22;

int usage() {
  std::cerr << "usage: tscaudit_reference check|write SOURCE_DIR, or tscaudit_reference print PATH\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tscaudit;
  if (argc != 3) return usage();
  const std::string mode = argv[1], arg = argv[2];
  try {
    const std::vector<cli::CommandDoc> commands = cli::command_docs();
    if (mode == "print") {
      for (const cli::GeneratedPart& part : cli::generated_parts()) {
        if (part.path != arg) continue;
        for (const cli::Fragment& f : part.make(commands)) {
          for (const std::string& line : f.lines) std::cout << line << "\n";
        }
        return 0;
      }
      std::cerr << "tscaudit_reference: no generated part in " << arg << "\n";
      return 2;
    }
    if (mode != "check" && mode != "write") return usage();
    int rc = 0;
    for (const cli::GeneratedPart& part : cli::generated_parts()) {
      const std::string path = arg + "/" + part.path;
      const std::string text = read_regular_file(path, kMaxFileBytes);
      const std::vector<cli::Fragment> made = part.make(commands);
      if (mode == "write") {
        const std::string updated = cli::with_generated(text, part, made);
        if (updated == text) continue;
        OutputFile out(path);
        out.write(updated);
        out.commit();
        std::cout << "rewrote " << part.path << "\n";
        continue;
      }
      const std::string difference = cli::first_difference(cli::committed_lines(text, part), made);
      if (!difference.empty()) {
        std::cerr << part.path << ": " << difference << "\n";
        rc = 1;
      }
    }
    if (rc != 0) std::cerr << "run `make reference` to write the parts again from the tables\n";
    return rc;
  } catch (const std::exception& e) {
    std::cerr << "tscaudit_reference: " << e.what() << "\n";
    return 2;
  }
}
