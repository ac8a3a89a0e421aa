#include "cli/config/name_patterns.hpp"

#include <fnmatch.h>

#include <algorithm>

#include "base/errors.hpp"
#include "base/message_text.hpp"

namespace gnbench {

namespace {

// Edit distance (insertions, deletions, substitutions), to list the nearest names first.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The names nearest to `pattern` first (ties in their given order): with a hundred variants
// the bounded list still shows the likely intended ones.
std::vector<std::string> nearest_first(const std::vector<std::string>& names,
                                       const std::string& pattern) {
  const std::string probe = pattern.substr(0, 200);
  std::vector<std::pair<size_t, size_t>> order;  // (distance, index)
  for (size_t i = 0; i < names.size(); ++i)
    order.emplace_back(edit_distance(probe, names[i].substr(0, 200)), i);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, i] : order) out.push_back(names[i]);
  return out;
}

}  // namespace

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
                        " (nearest first: " + join_bounded(nearest_first(names, pattern), 64) +
                        ")");
  }
  return picked;
}

}  // namespace gnbench
