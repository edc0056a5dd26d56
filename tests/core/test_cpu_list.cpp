#include <catch2/catch.hpp>

#include "core/cpu_list.hpp"
#include "core/errors.hpp"

using namespace tscaudit;

TEST_CASE("CPU lists parse in taskset syntax, keeping order and repeats") {
  CHECK(parse_cpu_list("0") == std::vector<int>{0});
  CHECK(parse_cpu_list("0,1") == std::vector<int>{0, 1});
  CHECK(parse_cpu_list("1,0") == std::vector<int>{1, 0});
  CHECK(parse_cpu_list("0,0") == std::vector<int>{0, 0});
  CHECK(parse_cpu_list("0-3,8") == std::vector<int>{0, 1, 2, 3, 8});
  CHECK(parse_cpu_list("5-5") == std::vector<int>{5});
  CHECK(parse_cpu_list("8191") == std::vector<int>{8191});
}

TEST_CASE("bad CPU lists name the list and the position") {
  CHECK_THROWS_WITH(parse_cpu_list(""), "empty CPU list");
  CHECK_THROWS_WITH(parse_cpu_list("a,b"), "bad CPU list 'a,b' at character 1: expected a CPU number");
  CHECK_THROWS_WITH(parse_cpu_list("0,"), "bad CPU list '0,' at character 3: expected a CPU number");
  CHECK_THROWS_WITH(parse_cpu_list("0-"), "bad CPU list '0-' at character 3: expected a CPU number");
  CHECK_THROWS_WITH(parse_cpu_list("3-1"), "bad CPU list '3-1' at character 3: range end below its start");
  CHECK_THROWS_WITH(parse_cpu_list("0;1"), "bad CPU list '0;1' at character 2: expected ',' or '-'");
  CHECK_THROWS_WITH(parse_cpu_list("-1"), "bad CPU list '-1' at character 1: expected a CPU number");
  CHECK_THROWS_WITH(parse_cpu_list("8192"), "bad CPU list '8192' at character 1: CPU number above 8191");
  CHECK_THROWS_WITH(parse_cpu_list("99999999999999999999"),
                    "bad CPU list '99999999999999999999' at character 1: CPU number above 8191");
  CHECK_THROWS_AS(parse_cpu_list(" 1"), UsageError);
}

TEST_CASE("CPU lists format sorted with ranges compressed") {
  CHECK(format_cpu_list({}) == "");
  CHECK(format_cpu_list({0}) == "0");
  CHECK(format_cpu_list({3, 0, 1, 2, 8}) == "0-3,8");
  CHECK(format_cpu_list({1, 1, 0}) == "0-1");
  CHECK(format_cpu_list({0, 2, 4}) == "0,2,4");
  for (const char* text : {"0-3,8", "0,2,4-7,100-101", "5"}) {
    CHECK(format_cpu_list(parse_cpu_list(text)) == text);
  }
}
