#include "app/temp_dir.hpp"

#include <cerrno>
#include <cstdlib>
#include <system_error>

#include "core/format.hpp"

namespace tscaudit {

TempDir make_temp_dir(std::string_view prefix, std::string_view what) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string parent = tmp != nullptr && *tmp != '\0' ? std::string(tmp) : std::string("/tmp");
  std::string name = parent + "/" + std::string(prefix) + "-XXXXXX";
  if (::mkdtemp(name.data()) == nullptr) {
    return {"", "cannot make a directory for " + std::string(what) + " in " + printable_text(parent) + ": " +
                    std::generic_category().message(errno)};
  }
  return {name, ""};
}

}  // namespace tscaudit
