#include "base/json_document.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

#include "base/errors.hpp"
#include "base/read_file.hpp"

namespace gnbench {
namespace {

using nlohmann::json;

// Printing or copying a value recurses along its nesting; a config needs 5 levels, and
// 100000 nested arrays overflowed the stack in an error message (found by fuzzing).
constexpr int kMaxDepth = 64;

std::string first_line(const std::string& s) {
  std::string out = s;
  for (char& ch : out)
    if (ch == '\n' || ch == '\r') ch = ' ';
  return out;
}

// "3:14" (or "line 3, column 14") of a byte offset; columns count bytes.
std::string line_col(const std::string& text, size_t offset, bool words = false) {
  offset = std::min(offset, text.size());
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  size_t column = offset - line_start + 1;
  if (words) return "line " + std::to_string(line) + ", column " + std::to_string(column);
  return std::to_string(line) + ":" + std::to_string(column);
}

// The lower-cased run of letters around `offset`.
std::string word_at(const std::string& text, size_t offset) {
  auto alpha = [&](size_t i) {
    return i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]));
  };
  size_t b = std::min(offset, text.size());
  size_t f = b;
  while (b > 0 && alpha(b - 1)) --b;
  while (alpha(f)) ++f;
  std::string word = text.substr(b, f - b);
  for (char& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return word;
}

// First occurrence of a number token standing alone (not part of a longer number).
size_t find_number_token(const std::string& text, const std::string& token) {
  auto numeric = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '+' || ch == '-';
  };
  for (size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + 1)) {
    bool starts = at == 0 || !numeric(text[at - 1]);
    bool ends = at + token.size() >= text.size() || !numeric(text[at + token.size()]);
    if (starts && ends) return at;
  }
  return std::string::npos;
}

// The key of `"key": <value at offset>`, or "" when the value is not directly after one.
std::string key_before(const std::string& text, size_t offset) {
  size_t i = offset;
  while (i > 0 && std::isspace(static_cast<unsigned char>(text[i - 1]))) --i;
  if (i == 0 || text[i - 1] != ':') return "";
  --i;
  while (i > 0 && std::isspace(static_cast<unsigned char>(text[i - 1]))) --i;
  if (i == 0 || text[i - 1] != '"') return "";
  size_t end = i - 1;
  size_t begin = text.rfind('"', end - 1);
  if (begin == std::string::npos || end == 0) return "";
  return text.substr(begin + 1, end - begin - 1);
}

[[noreturn]] void malformed(const std::string& text, const std::string& source, size_t offset,
                            const std::string& detail) {
  throw ConfigError(source + ":" + line_col(text, offset) + ": malformed JSON at " +
                    line_col(text, offset, true) + ": " + printable(first_line(detail), 300));
}

}  // namespace

json parse_json_document(const std::string& text, const std::string& source) {
  if (size_t nul = text.find('\0'); nul != std::string::npos)
    malformed(text, source, nul, "NUL byte (JSON text never contains one)");

  std::vector<std::set<std::string>> open_objects;
  auto callback = [&](int depth, json::parse_event_t event, json& parsed) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= kMaxDepth)
      throw ConfigError(source + ": JSON nested deeper than " + std::to_string(kMaxDepth) +
                        " levels");
    if (event == json::parse_event_t::object_start) {
      open_objects.emplace_back();
    } else if (event == json::parse_event_t::object_end) {
      if (!open_objects.empty()) open_objects.pop_back();
    } else if (event == json::parse_event_t::key && !open_objects.empty()) {
      std::string key = parsed.get<std::string>();
      if (!open_objects.back().insert(key).second)
        throw ConfigError(source + ": duplicate key \"" + printable(key, 80) +
                          "\" in a JSON object (the later value would silently win)");
    }
    return true;
  };

  try {
    return json::parse(text, callback, /*allow_exceptions=*/true, /*ignore_comments=*/false);
  } catch (const json::parse_error& e) {
    // e.byte counts bytes read, including the offending one: offset = e.byte - 1.
    size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    std::string detail = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: ".
    size_t at = detail.find("parse error");
    if (at != std::string::npos) {
      size_t colon = detail.find(": ", at);
      if (colon != std::string::npos) detail = detail.substr(colon + 2);
    }
    // NaN/Infinity are common in hand-written or Python-dumped JSON and are not JSON.
    std::string word = word_at(text, offset);
    if (word == "nan" || word == "inf" || word == "infinity")
      detail += " (NaN and Infinity are not valid JSON numbers; every value must be finite)";
    malformed(text, source, offset, detail);
  } catch (const json::out_of_range& e) {
    // 1e400: nlohmann reports the token but no position, so find the token in the text.
    std::string what = e.what();
    size_t open = what.find('\'');
    size_t close = what.rfind('\'');
    if (open == std::string::npos || close <= open)
      throw ConfigError(source + ": " + printable(what));
    std::string token = what.substr(open + 1, close - open - 1);
    size_t offset = find_number_token(text, token);
    std::string where = offset == std::string::npos ? "" : line_col(text, offset) + ":";
    std::string key = offset == std::string::npos ? "" : key_before(text, offset);
    std::string field = key.empty() ? "" : " field '" + printable(key, 80) + "' =";
    throw ConfigError(source + ":" + where + field + " " + printable(token, 80) +
                      ": number too large for a double (every value must be finite)");
  }
}

json read_json_file(const std::string& path, const std::string& what) {
  return parse_json_document(read_input_file(path, what), path);
}

}  // namespace gnbench
