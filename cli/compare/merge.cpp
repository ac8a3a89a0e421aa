#include "cli/compare/merge.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "base/errors.hpp"
#include "base/format.hpp"
#include "cli/report/results_json.hpp"

namespace gnbench {

namespace {

// An entry's gnbench record as written to a results file: "identical content" means
// identical in the file, whatever the in-memory representation (NaN metrics included).
// Figures derived from the run's copy bandwidth are left out: the merge derives them anew, and
// one entry from two files whose copy probes read differently is still one result.
nlohmann::json entry_json(const EntryRecord& e) {
  RunRecords one;
  one.entries.push_back(e);
  for (auto* t : {&one.entries.back().cold, &one.entries.back().hot})
    if (*t) (*t)->throughput = Throughput{};
  nlohmann::json doc = results_to_json(one);
  for (auto& b : doc["benchmarks"])
    if (b.contains("gnbench")) return b["gnbench"];
  return nullptr;
}

std::string source_of(const RunContext& c) {
  return c.copy_bandwidth.is_object() ? c.copy_bandwidth.value("source", "measured") : "measured";
}

// The merged copy bandwidth of inputs measured on the first input's device. As within one run
// (cli/bench/copy_probe.hpp), the highest measured reading counts: a probe can read low (a
// buffer pair, a clock state), and an interrupted shard has only the probe it took first. A
// figure given with --copy-bandwidth stands for every file. Every reading is kept.
void merge_copy_bandwidth(const std::vector<MergeInput>& inputs, RunContext& out,
                          const std::function<void(const std::string&)>& warn) {
  std::vector<const MergeInput*> figures;  // inputs of this device with a copy bandwidth
  for (const auto& in : inputs)
    if (in.records.context.device_fingerprint == out.device_fingerprint &&
        in.records.context.copy_gbps > 0)
      figures.push_back(&in);
  if (figures.empty()) return;
  auto gbps = [](const MergeInput* in) { return in->records.context.copy_gbps; };
  auto set_from = [&](const MergeInput* in) {
    out.copy_gbps = gbps(in);
    out.copy_bandwidth = in->records.context.copy_bandwidth;
    if (!out.copy_bandwidth.is_object())
      out.copy_bandwidth = {{"gbps", out.copy_gbps}, {"source", source_of(in->records.context)}};
  };

  auto given = std::find_if(figures.begin(), figures.end(), [](const MergeInput* in) {
    return source_of(in->records.context) == "given";
  });
  if (given != figures.end()) {
    set_from(*given);
    for (const MergeInput* in : figures)
      if (gbps(in) != out.copy_gbps)
        warn("copy bandwidth: " + (*given)->source + " gives " +
             format("%.0f GB/s", out.copy_gbps) + ", " + in->source + " has " +
             format("%.0f GB/s", gbps(in)) + "; the merged % of copy is against the given figure");
    return;
  }

  const auto [low, high] = std::minmax_element(
      figures.begin(), figures.end(),
      [&](const MergeInput* a, const MergeInput* b) { return gbps(a) < gbps(b); });
  set_from(*high);
  nlohmann::json probes = nlohmann::json::array(), pairs = nlohmann::json::array();
  for (const MergeInput* in : figures) {
    const nlohmann::json& cb = in->records.context.copy_bandwidth;
    if (!cb.is_object()) continue;
    for (auto [key, list] : {std::pair{"probes_gbps", &probes}, std::pair{"pairs_gbps", &pairs}})
      for (const auto& v : cb.value(key, nlohmann::json::array())) list->push_back(v);
  }
  out.copy_bandwidth["probes_gbps"] = probes;
  out.copy_bandwidth["pairs_gbps"] = pairs;
  if (gbps(*low) < 0.95 * out.copy_gbps)
    warn("copy bandwidth: " + (*low)->source + " measured " + format("%.0f GB/s", gbps(*low)) +
         ", " + (*high)->source + " " + format("%.0f GB/s", out.copy_gbps) +
         "; the merged % of copy is against the highest reading, as within one run");
}

}  // namespace

RunRecords merge_runs(const std::vector<MergeInput>& inputs, const MergeOptions& options,
                      std::vector<std::string>* warnings) {
  if (inputs.empty()) throw ConfigError("merge: no results files");
  auto warn = [&](const std::string& w) {
    if (warnings) warnings->push_back(w);
  };
  RunRecords out;
  out.context = inputs.front().records.context;
  out.context.shard.clear();  // the merge is no longer one shard
  out.context.merged_from.clear();
  out.context.configs.clear();

  struct Seen {
    std::string source;
    std::string dump;
  };
  std::map<std::string, Seen> entries;   // problem/variant -> where and what
  std::map<std::string, Seen> problems;  // problem name -> where and its definition
  bool mixed_modes = false;
  for (const auto& in : inputs) {
    const RunContext& c = in.records.context;
    if (c.device_fingerprint != out.context.device_fingerprint) {
      std::string what = in.source + " was measured on another device ([" + c.device_fingerprint +
                         "]) than " + inputs.front().source + " ([" +
                         out.context.device_fingerprint + "])";
      if (!options.ignore_device)
        throw ConfigError(what + "; pass --ignore-device to merge anyway");
      warn(what + "; the merged context names only the first device");
    }
    mixed_modes |= c.timing_mode != out.context.timing_mode;
    out.context.complete = out.context.complete && c.complete;
    out.context.validation = out.context.validation || c.validation;
    // A merged file lists its own sources, flattening earlier merges.
    if (c.merged_from.empty()) out.context.merged_from.push_back(in.source);
    for (const auto& m : c.merged_from) out.context.merged_from.push_back(m);
    if (&in != &inputs.front()) out.context.pipeline_statistics.merge_patch(c.pipeline_statistics);
    if (&in != &inputs.front()) out.context.dispatch_choices.merge_patch(c.dispatch_choices);
    for (const auto& cfg : c.configs)
      if (std::find(out.context.configs.begin(), out.context.configs.end(), cfg) ==
          out.context.configs.end())
        out.context.configs.push_back(cfg);

    for (const auto& e : in.records.entries) {
      nlohmann::json j = entry_json(e);
      std::string problem = j["problem"].dump();
      auto [p, new_problem] = problems.try_emplace(e.problem.name, Seen{in.source, problem});
      if (!new_problem && p->second.dump != problem)
        throw ConfigError("problem '" + e.problem.name + "' has different definitions in " +
                          p->second.source + " and " + in.source);
      std::string dump = j.dump();
      auto [it, new_entry] = entries.try_emplace(e.name(), Seen{in.source, dump});
      if (new_entry) {
        out.entries.push_back(e);
      } else if (it->second.dump != dump) {
        throw ConfigError(e.name() + " is in both " + it->second.source + " and " + in.source +
                          " with different results");
      }
    }
  }
  if (mixed_modes) {
    out.context.timing_mode = "mixed";
    warn("the files were timed in different modes; context.timing_mode is \"mixed\"");
  }
  if (!out.context.complete) warn("an input run was interrupted: the merge is incomplete");
  merge_copy_bandwidth(inputs, out.context, warn);
  derive_figures(out);  // against the merged copy bandwidth, as the merged file states it
  return out;
}

}  // namespace gnbench
