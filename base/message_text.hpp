// Text that goes into a one-line error message: whatever a user wrote (keys, names, paths)
// escaped and bounded, lists cut short with a count.
#pragma once

#include <string>
#include <vector>

namespace gnbench {

// `s` with control characters and non-ASCII bytes escaped as \xNN and at most `max_chars`
// characters kept ("..." marks the cut), so that a message stays one readable line.
std::string printable(const std::string& s, size_t max_chars = 200);

// The last line of defence for any message printed as one line: control characters (newlines
// included) escaped as \xNN, UTF-8 kept, cut at `max_bytes` with the number of bytes left out.
std::string one_line(const std::string& s, size_t max_bytes = 2000);

// "a, b, c" of the first `max_items` items, each printable(), then "... and 99,990 more".
std::string join_bounded(const std::vector<std::string>& items, size_t max_items = 10);

}  // namespace gnbench
