#include <algorithm>
#include <iostream>
#include <set>

#include "cli/commands/commands.hpp"
#include "cli/config/name_patterns.hpp"
#include "cli/report/results_json.hpp"
#include "cli/report/table_printer.hpp"

namespace gnbench {

namespace {

// The distinct values of `key` over the entries (file order), and those `patterns` select.
template <typename Key>
std::set<std::string> selected(const RunRecords& r, const std::vector<std::string>& patterns,
                               const std::string& option, const std::string& what, Key key) {
  std::vector<std::string> names;
  for (const auto& e : r.entries)
    if (std::find(names.begin(), names.end(), key(e)) == names.end()) names.push_back(key(e));
  if (patterns.empty()) return {names.begin(), names.end()};
  std::set<std::string> out;
  for (size_t i : select_by_patterns(names, patterns, option, what)) out.insert(names[i]);
  return out;
}

}  // namespace

int show_command(const ShowCommand& cmd) {
  RunRecords records = read_results_file(cmd.file);
  const auto problems = selected(records, cmd.problems, "--problem", "problems in the file",
                                 [](const EntryRecord& e) { return e.problem.name; });
  const auto variants = selected(records, cmd.variants, "--variant", "variants in the file",
                                 [](const EntryRecord& e) { return e.variant; });
  std::erase_if(records.entries, [&](const EntryRecord& e) {
    return !problems.count(e.problem.name) || !variants.count(e.variant);
  });
  print_table(std::cout, records);
  return 0;
}

}  // namespace gnbench
