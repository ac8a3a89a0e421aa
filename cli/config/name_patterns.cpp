#include "cli/config/name_patterns.hpp"

#include <fnmatch.h>

#include <algorithm>

#include "base/errors.hpp"
#include "base/message_text.hpp"

namespace gnbench {

std::vector<std::string> split_list(const std::string& text, const std::string& option) {
  std::vector<std::string> out;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (out.back().empty())
      throw ConfigError(option + " '" + printable(text, 80) + "': empty name in the list");
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::vector<size_t> select_by_patterns(const std::vector<std::string>& names,
                                       const std::vector<std::string>& patterns,
                                       const std::string& option, const std::string& what) {
  std::vector<size_t> picked;
  std::vector<bool> taken(names.size(), false);  // linear, also for 100,000 names
  for (const auto& pattern : patterns) {
    bool matched = false;
    for (size_t i = 0; i < names.size(); ++i) {
      if (fnmatch(pattern.c_str(), names[i].c_str(), 0) != 0) continue;
      matched = true;
      if (!taken[i]) picked.push_back(i);
      taken[i] = true;
    }
    if (!matched)
      throw ConfigError(option + " '" + printable(pattern, 80) + "': matches none of the " + what +
                        " (" + join_bounded(names, 64) + ")");
  }
  return picked;
}

}  // namespace gnbench
