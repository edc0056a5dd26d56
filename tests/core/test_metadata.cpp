// Metadata: `# key: value` lines in the order written, found through an index.
#include <catch2/catch.hpp>

#include <string>

#include "core/run.hpp"

using namespace tscaudit;

TEST_CASE("Metadata: 100,000 keys keep the order they were set in, each is found, one set again keeps its place",
          "[metadata]") {
  Metadata m;
  for (int i = 0; i < 100000; ++i) m.set("k" + std::to_string(i), "v" + std::to_string(i));
  m.set("k5", "again");
  m.set("k99999", "last");
  REQUIRE(m.entries().size() == 100000);
  CHECK(m.entries()[0] == std::pair<std::string, std::string>("k0", "v0"));
  CHECK(m.entries()[5] == std::pair<std::string, std::string>("k5", "again"));
  CHECK(m.entries()[77777] == std::pair<std::string, std::string>("k77777", "v77777"));
  CHECK(m.entries()[99999] == std::pair<std::string, std::string>("k99999", "last"));
  bool in_order = true;
  for (int i = 0; i < 100000; ++i) in_order = in_order && m.entries()[static_cast<std::size_t>(i)].first == "k" + std::to_string(i);
  CHECK(in_order);
  CHECK(m.get("k5") == std::optional<std::string_view>("again"));
  CHECK(m.get("k77777") == std::optional<std::string_view>("v77777"));
  CHECK_FALSE(m.get("k100000").has_value());
  CHECK_FALSE(m.get("").has_value());
  CHECK_FALSE(m.get("k").has_value());
}

TEST_CASE("Metadata: a copy has its own index, and an empty key and value are kept", "[metadata]") {
  Metadata m;
  m.set("b", "1");
  m.set("a", "2");
  m.set("", "");
  Metadata copy = m;
  copy.set("a", "changed");
  copy.set("c", "3");
  CHECK(m.get("a") == std::optional<std::string_view>("2"));
  CHECK_FALSE(m.get("c").has_value());
  CHECK(copy.get("a") == std::optional<std::string_view>("changed"));
  CHECK(copy.entries() == std::vector<std::pair<std::string, std::string>>{{"b", "1"}, {"a", "changed"}, {"", ""}, {"c", "3"}});
  CHECK(m.entries() == std::vector<std::pair<std::string, std::string>>{{"b", "1"}, {"a", "2"}, {"", ""}});
  CHECK(m.get("") == std::optional<std::string_view>(""));
  Metadata moved = std::move(copy);
  moved.set("b", "x");
  CHECK(moved.entries().front() == std::pair<std::string, std::string>("b", "x"));
  CHECK(moved.get("c") == std::optional<std::string_view>("3"));
}
