// check_json_depth and parse_ordered_json (formats/json_bounds.hpp): the depth counted
// outside strings, refused at its line and column; the parse nlohmann's, keys in order.
#include <catch2/catch.hpp>

#include <string>

#include "core/errors.hpp"
#include "error_messages.hpp"
#include "formats/json_bounds.hpp"
#include "hostile_dir_fixture.hpp"

using namespace tscaudit;
using test::what_thrown;

namespace {

std::string depth_error(const std::string& text) {
  return what_thrown<InputError>([&] { check_json_depth(text, "f.json"); });
}

}  // namespace

TEST_CASE("check_json_depth: 64 levels pass, the 65th is refused at its bracket", "[json]") {
  CHECK(depth_error(test::nested_arrays(64)) == "(no error)");
  CHECK(depth_error(test::nested_arrays(65)) == "f.json:1:65: nested deeper than 64");
  CHECK(depth_error(test::nested_arrays(100000)) == "f.json:1:65: nested deeper than 64");
  // Objects and arrays alike; lines and columns as JSON counts them (bytes; a CR is a column).
  std::string text = "{\"a\":\n";
  for (int i = 0; i < 62; ++i) text += "{\"b\":";
  text += "\r\n [[1]]";
  CHECK(depth_error(text) == "f.json:3:3: nested deeper than 64");
  // Closed levels are counted off: many shallow values in a row are no deeper than one.
  std::string wide = "[";
  for (int i = 0; i < 1000; ++i) wide += test::nested_arrays(63) + ",";
  CHECK(depth_error(wide + "0]") == "(no error)");
  CHECK(depth_error("") == "(no error)");
  CHECK(depth_error("]]]][") == "(no error)");  // not JSON: the parser says so
}

TEST_CASE("check_json_depth: brackets inside strings are text, an escaped quote does not end one", "[json]") {
  const std::string brackets(200, '[');
  CHECK(depth_error("[\"" + brackets + "\"]") == "(no error)");
  CHECK(depth_error("{\"" + brackets + "\": \"" + brackets + "\"}") == "(no error)");
  CHECK(depth_error("[\"\\\"" + brackets + "\"]") == "(no error)");      // \" inside the string
  CHECK(depth_error("[\"\\\\\"" + brackets + "]") == "f.json:1:69: nested deeper than 64");  // \\ then the end
  CHECK(depth_error("[\"a\"," + test::nested_arrays(64) + "]") == "f.json:1:69: nested deeper than 64");
}

TEST_CASE("parse_ordered_json: what ordered_json::parse gives, keys in order, a key twice in its first place",
          "[json]") {
  using Json = nlohmann::ordered_json;
  for (const std::string text :
       {"{\"b\": 1, \"a\": [1, 2.5, -3, 18446744073709551615, true, null, \"x\\u00e9\"], \"c\": {\"z\": {}, \"y\": []}}",
        "{\"a\": 1, \"b\": 2, \"a\": [3, {\"a\": 4, \"a\": 5}]}", "[]", "\"text\"", "-0.0", "{\"\": {\"\": \"\"}}",
        " \n\t[1 ,{ }]\r\n"}) {
    INFO(text);
    const Json mine = parse_ordered_json(text);
    const Json theirs = Json::parse(text);
    CHECK(mine == theirs);
    CHECK(mine.dump() == theirs.dump());
  }
  CHECK(parse_ordered_json("{\"a\": 1, \"b\": 2, \"a\": 3}").dump() == "{\"a\":3,\"b\":2}");
}

TEST_CASE("parse_ordered_json: 100,000 keys of one object, in order, and errors as nlohmann's", "[json]") {
  std::string text = "{";
  for (int i = 0; i < 100000; ++i) text += (i == 0 ? "\"k" : ",\"k") + std::to_string(i) + "\":" + std::to_string(i);
  text += ",\"k5\":\"again\"}";
  const nlohmann::ordered_json j = parse_ordered_json(text);
  REQUIRE(j.size() == 100000);
  CHECK(j.begin().key() == "k0");
  CHECK((--j.end()).key() == "k99999");
  CHECK(j["k5"] == "again");
  CHECK(j["k77777"] == 77777);
  for (const std::string bad : {"{\"a\": }", "[1, 2", "{\"a\" 1}", "[1] x", ""}) {
    INFO(bad);
    std::size_t mine = 0, theirs = 0;
    try {
      parse_ordered_json(bad);
    } catch (const nlohmann::ordered_json::parse_error& e) {
      mine = e.byte;
    }
    try {
      const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(bad);
      static_cast<void>(parsed);
    } catch (const nlohmann::ordered_json::parse_error& e) {
      theirs = e.byte;
    }
    CHECK(mine > 0);
    CHECK(mine == theirs);
  }
  CHECK_THROWS_AS(parse_ordered_json("[1e999]"), nlohmann::ordered_json::out_of_range);
}
