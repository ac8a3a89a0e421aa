#include "config/name_patterns.hpp"

#include <fnmatch.h>

#include <algorithm>

#include "config/config_error.hpp"

namespace gnbench {

std::vector<std::string> split_list(const std::string& text, const std::string& option) {
  std::vector<std::string> out;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (out.back().empty()) throw ConfigError(option + " '" + text + "': empty name in the list");
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::vector<size_t> select_by_patterns(const std::vector<std::string>& names,
                                       const std::vector<std::string>& patterns,
                                       const std::string& option, const std::string& what) {
  std::vector<size_t> picked;
  for (const auto& pattern : patterns) {
    bool matched = false;
    for (size_t i = 0; i < names.size(); ++i) {
      if (fnmatch(pattern.c_str(), names[i].c_str(), 0) != 0) continue;
      matched = true;
      if (std::find(picked.begin(), picked.end(), i) == picked.end()) picked.push_back(i);
    }
    if (!matched) {
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
      throw ConfigError(option + " '" + pattern + "': matches none of the " + what + " (" + known +
                        ")");
    }
  }
  return picked;
}

}  // namespace gnbench
