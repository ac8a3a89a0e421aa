#include "base/path_name.hpp"

namespace gnbench {

std::string path_name_problem(const std::string& s) {
  constexpr size_t kMaxNameLength = 255;  // NAME_MAX on common filesystems
  const std::string rule = "must match [A-Za-z0-9_-][A-Za-z0-9_.-]* (it becomes a directory name)";
  if (s.empty()) return rule;
  for (char ch : s) {
    bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
              ch == '_' || ch == '.' || ch == '-';
    if (!ok) return rule;
  }
  if (s.front() == '.') return "must not start with '.' (it becomes a directory name)";
  if (s.size() > kMaxNameLength)
    return "must be at most " + std::to_string(kMaxNameLength) + " characters";
  if (s == "reference" || (s.size() >= 4 && s.compare(s.size() - 4, 4, ".npy") == 0))
    return "must not be 'reference' or end in '.npy' (names gnbench's dump files use)";
  return "";
}

}  // namespace gnbench
