#include "cli/compare/variant_pairs.hpp"

#include <algorithm>
#include <set>

#include "base/errors.hpp"

namespace gnbench {

std::pair<RunRecords, RunRecords> split_by_variants(const RunRecords& run, const std::string& a,
                                                    const std::string& b,
                                                    const std::string& source) {
  if (a == b) throw ConfigError("--variants " + a + " " + b + ": give two different variants");
  std::set<std::string> variants;
  for (const auto& e : run.entries) variants.insert(e.variant);
  for (const auto& v : {a, b})
    if (!variants.count(v)) {
      std::string there;
      for (const auto& name : variants) there += (there.empty() ? "" : ", ") + name;
      throw ConfigError(source + ": --variants: no entry of variant '" + v +
                        "' (variants there: " + (there.empty() ? "none" : there) + ")");
    }
  std::pair<RunRecords, RunRecords> out{RunRecords{run.context, {}}, RunRecords{run.context, {}}};
  const std::string label = b + " vs " + a;
  for (const auto& e : run.entries) {
    if (e.variant != a && e.variant != b) continue;
    EntryRecord renamed = e;
    renamed.variant = label;
    (e.variant == a ? out.first : out.second).entries.push_back(std::move(renamed));
  }
  return out;
}

}  // namespace gnbench
