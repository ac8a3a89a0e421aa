// --problem and --variant selections: each pattern is a name or a shell glob ('*', '?',
// '[...]', fnmatch). A pattern that matches nothing is a usage error, so a typo never turns
// into a silently smaller run.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gnbench {

// "a,b*,c" -> {"a", "b*", "c"}; an empty list or an empty name is a ConfigError naming `option`.
std::vector<std::string> split_list(const std::string& text, const std::string& option);

// Indices into `names` of what `patterns` select: pattern order, then name order, each name
// once. Throws ConfigError naming `option`, the pattern and the names there are (`what`
// says what they are, e.g. "problems").
std::vector<size_t> select_by_patterns(const std::vector<std::string>& names,
                                       const std::vector<std::string>& patterns,
                                       const std::string& option, const std::string& what);

}  // namespace gnbench
