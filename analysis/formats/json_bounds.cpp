#include "formats/json_bounds.hpp"

#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/format.hpp"

namespace tscaudit {
namespace {

using Json = nlohmann::ordered_json;

/// A SAX handler that builds what nlohmann's own DOM parser builds for ordered_json, but
/// finds a key given twice through a map of the open object's keys instead of a search of
/// the object (nlohmann's ordered_map is a vector).
class OrderedBuilder {
 public:
  bool null() { return put(Json(nullptr)); }
  bool boolean(bool value) { return put(Json(value)); }
  bool number_integer(Json::number_integer_t value) { return put(Json(value)); }
  bool number_unsigned(Json::number_unsigned_t value) { return put(Json(value)); }
  bool number_float(Json::number_float_t value, const Json::string_t& /*text*/) { return put(Json(value)); }
  bool string(Json::string_t& value) { return put(Json(std::move(value))); }
  bool binary(Json::binary_t& value) { return put(Json(value)); }
  bool start_object(std::size_t /*elements*/) { return open(Json::object()); }
  bool key(Json::string_t& key) {
    open_.back().key = std::move(key);
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t /*elements*/) { return open(Json::array()); }
  bool end_array() { return close(); }
  template <class Exception>
  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/, const Exception& e) {
    throw e;
  }

  Json take() { return std::move(root_); }

 private:
  struct Open {
    Json* value = nullptr;
    std::map<std::string, std::size_t, std::less<>> keys;  // an object's keys -> their places
    std::string key;                                       // the key of the value that comes next
  };

  /// Puts `value` where the parse is: the root, the next element of an array, or the value
  /// of the pending key of an object. \returns where it lies now.
  Json* place(Json&& value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Open& top = open_.back();
    if (top.value->is_array()) {
      Json::array_t& array = *top.value->get_ptr<Json::array_t*>();
      array.push_back(std::move(value));
      return &array.back();
    }
    // The vector under ordered_map: its own emplace would search it first.
    Json::object_t::Container& object = *top.value->get_ptr<Json::object_t*>();
    const auto [at, added] = top.keys.try_emplace(top.key, object.size());
    if (!added) {
      object[at->second].second = std::move(value);
      return &object[at->second].second;
    }
    object.emplace_back(std::move(top.key), std::move(value));
    return &object.back().second;
  }

  bool put(Json&& value) {
    place(std::move(value));
    return true;
  }

  /// A container's place stays valid while it is open: its parent grows only after it closes.
  bool open(Json&& container) {
    Json* const at = place(std::move(container));
    open_.push_back(Open{at, {}, {}});
    return true;
  }

  bool close() {
    open_.pop_back();
    return true;
  }

  Json root_;
  std::vector<Open> open_;
};

}  // namespace

std::string json_line_column(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

void check_json_depth(std::string_view text, const std::string& path, std::size_t max_depth) {
  std::size_t depth = 0, line = 1, column = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (c == '\n') {
      ++line;
      column = 0;
      escaped = false;  // a string does not go on past a line end: the parser refuses it
      continue;
    }
    ++column;
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth > max_depth) {
          throw InputError(path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": nested deeper than " +
                           std::to_string(max_depth));
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default: break;
    }
  }
}

Json parse_ordered_json(std::string_view text) {
  OrderedBuilder builder;
  Json::sax_parse(text.begin(), text.end(), &builder);
  return builder.take();
}

nlohmann::ordered_json json_input(std::string_view text, const std::string& path) {
  // Before the parser: a value nested this deep would be copied (recursively) below.
  check_json_depth(text, path);
  nlohmann::ordered_json j;
  try {
    j = parse_ordered_json(text);
  } catch (const nlohmann::ordered_json::parse_error& e) {
    // e.byte is the 1-based position just past the character that failed.
    const std::size_t at = e.byte == 0 ? 0 : e.byte - 1;
    std::string what = e.what();
    if (const std::size_t c = what.find(": ", what.find("column")); c != std::string::npos) what = what.substr(c + 2);
    throw InputError(path + ":" + json_line_column(text, at) + ": not JSON: " + printable_text(what));
  } catch (const nlohmann::ordered_json::exception& e) {
    // The parser's other refusal: a number beyond a double ("number overflow parsing
    // '1e999'", out_of_range), which names the number and not where it is: its first place
    // in the text.
    std::string what = e.what();
    if (const std::size_t c = what.find("] "); c != std::string::npos) what = what.substr(c + 2);
    std::string where;
    if (const std::size_t q = what.find('\''), q2 = what.rfind('\''); q != std::string::npos && q2 > q + 1) {
      if (const std::size_t at = text.find(what.substr(q + 1, q2 - q - 1)); at != std::string::npos) {
        where = ":" + json_line_column(text, at);
      }
    }
    throw InputError(path + where + ": not JSON: " + printable_text(what));
  }
  return j;
}

}  // namespace tscaudit
