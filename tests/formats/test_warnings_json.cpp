// The platform warnings' JSON (formats/warnings_json.hpp): the writer's exact document, the
// round trip, and what the reader makes of a manifest that holds something else.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "formats/warnings_json.hpp"

using namespace tscaudit;

namespace {

bool same(const std::vector<Warning>& x, const std::vector<Warning>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].code != y[i].code || x[i].message != y[i].message || x[i].advice != y[i].advice) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("warnings_json: an array of {code, message, advice}, in order", "[warnings_json]") {
  const std::vector<Warning> w = {{"virtual_machine", "running under a hypervisor (KVMKVMKVM)", "the host moves vCPUs"},
                                  {"smt_on", "SMT is on", ""}};
  CHECK(warnings_json(w).dump() ==
        R"j([{"code":"virtual_machine","message":"running under a hypervisor (KVMKVMKVM)","advice":"the host moves vCPUs"},)j"
        R"j({"code":"smt_on","message":"SMT is on","advice":""}])j");
  CHECK(warnings_json({}).dump() == "[]");
  CHECK(same(warnings_from_json(warnings_json(w)), w));
  CHECK(same(warnings_from_json(nlohmann::ordered_json::parse(warnings_json(w).dump())), w));
}

TEST_CASE("warnings_from_json: what is not a warning reads as empty fields, and every field printable",
          "[warnings_json]") {
  CHECK(warnings_from_json(nlohmann::ordered_json::parse(R"({"code": "smt_on"})")).empty());
  CHECK(warnings_from_json(nullptr).empty());
  const std::vector<Warning> read = warnings_from_json(nlohmann::ordered_json::parse(
      R"([{"code": 7, "message": "tab\there", "advice": null}, "smt_on", {"code": "smt_on", "x": 1}])"));
  CHECK(same(read, {{"", "tab\\x09here", ""}, {"", "", ""}, {"smt_on", "", ""}}));
}
