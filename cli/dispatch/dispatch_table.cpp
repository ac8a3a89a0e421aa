#include "cli/dispatch/dispatch_table.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "base/errors.hpp"
#include "base/json_document.hpp"
#include "base/message_text.hpp"
#include "base/read_file.hpp"
#include "cli/dispatch/dispatch_rule.hpp"
#include "cli/report/best_variants.hpp"
#include "kernels/runtime/manifest.hpp"

namespace gnbench {

namespace {

constexpr const char* kFormat = "gnbench-dispatch-table";
constexpr int kVersion = 2;  // 2 added each entry's `times`; version 1 is still read

// Field readers that fail with the file, the field and what was wrong.
struct Reader {
  std::string file;
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw ConfigError(file + ": field '" + field + "' " + what);
  }
  const nlohmann::json& at(const nlohmann::json& j, const std::string& key,
                           const std::string& field) const {
    if (!j.is_object() || !j.contains(key)) fail(field, "is missing");
    return j.at(key);
  }
  std::string text(const nlohmann::json& j, const std::string& key,
                   const std::string& field) const {
    const auto& v = at(j, key, field);
    if (!v.is_string() || v.get<std::string>().empty())
      fail(field, "= " + printable(v.dump(), 80) + ": must be a non-empty string");
    return v.get<std::string>();
  }
  uint32_t count(const nlohmann::json& j, const std::string& key, const std::string& field) const {
    const auto& v = at(j, key, field);
    if (!v.is_number_unsigned() || v.get<uint64_t>() < 1 || v.get<uint64_t>() > 0xFFFFFFFFull)
      fail(field, "= " + printable(v.dump(), 80) + ": must be an integer in [1, 2^32-1]");
    return static_cast<uint32_t>(v.get<uint64_t>());
  }
  double time(const nlohmann::json& j, const std::string& key, const std::string& field) const {
    // A GPU time of 0 is no measurement: it would win every shape it is in.
    const auto& v = at(j, key, field);
    if (!v.is_number() || !(v.get<double>() > 0))
      fail(field, "= " + printable(v.dump(), 80) + ": must be > 0 (microseconds)");
    return v.get<double>();
  }
};

// The entry's variant and runner-up from its times (the fastest and the second).
void rank_times(DispatchEntry& e) {
  e.variant.clear();
  e.runner_up.clear();
  for (const auto& [v, us] : e.times_us) {
    if (e.variant.empty() || us < e.median_us) {
      e.runner_up = e.variant;
      e.runner_up_us = e.median_us;
      e.variant = v;
      e.median_us = us;
    } else if (e.runner_up.empty() || us < e.runner_up_us) {
      e.runner_up = v;
      e.runner_up_us = us;
    }
  }
}

// Records of an interrupted run without the problems it stopped inside: a stop comes between
// variants, and such a problem's "fastest" would be a choice among those that ran. Every
// finished problem has an entry per variant (SKIP included), so a partial one has fewer.
RunRecords finished_problems(const RunRecords& records) {
  if (records.context.complete) return records;
  std::map<std::string, size_t> entries;
  for (const auto& e : records.entries) ++entries[e.problem.name];
  size_t most = 0;
  for (const auto& [name, n] : entries) most = std::max(most, n);
  RunRecords finished = records;
  std::erase_if(finished.entries,
                [&](const EntryRecord& e) { return entries[e.problem.name] < most; });
  return finished;
}

// The medians' timing: `mode` with the options of the results file's recorded timing mode that
// changed how those samples were taken, so that one table never mixes two kinds of median.
std::string table_timing_mode(const std::string& mode, const std::string& recorded) {
  std::string out = mode;
  auto option = [&](const std::string& prefix) {
    const size_t at = recorded.find(prefix);
    if (at != std::string::npos) out += recorded.substr(at, recorded.find('+', at + 1) - at);
  };
  option("+stage-times");
  option(mode == "hot" ? "+hot-batch" : "+fill-flush");
  return out;
}

}  // namespace

DispatchTable table_from_records(const RunRecords& records, const std::string& mode,
                                 const std::string& source) {
  DispatchTable t;
  const nlohmann::json& device = records.context.device;
  t.device = device.is_object() ? device.value("name", "?") : "?";
  t.subgroup_size = device.is_object() ? device.value("subgroup_size", 0u) : 0u;
  t.timing_mode = table_timing_mode(mode, records.context.timing_mode);
  t.gnbench_revision = records.context.git_revision;
  t.complete = records.context.complete;
  for (const auto& b : best_variants(finished_problems(records), mode)) {
    DispatchEntry e;
    e.problem = b.problem.name;
    e.shape = b.problem.shape;
    for (const auto& [v, ns] : b.medians_ns) e.times_us[v] = ns / 1e3;
    rank_times(e);
    auto same = std::find_if(t.entries.begin(), t.entries.end(),
                             [&](const DispatchEntry& x) { return x.shape == e.shape; });
    if (same == t.entries.end()) {
      t.entries.push_back(std::move(e));
    } else {
      // The same shape under two names: every variant keeps its lower median, the entry the
      // name of the faster one.
      if (e.median_us < same->median_us) same->problem = e.problem;
      for (const auto& [v, us] : e.times_us)
        same->times_us[v] = same->times_us.count(v) ? std::min(same->times_us[v], us) : us;
      rank_times(*same);
    }
  }
  if (t.entries.empty())
    throw ConfigError(source + ": no verified entry timed " + mode +
                      ": nothing to put in a dispatch table");
  return t;
}

namespace {

void must_match(const std::string& source, const std::string& what, const std::string& table,
                const std::string& later) {
  if (table != later)
    throw ConfigError(source + ": measured with " + what + " " + later + ", the tables before it " +
                      table + ": one table holds one device's " + what);
}

// What any two tables must share to be one table: the subgroup size (the `when` conditions
// depend on it) and the timing mode. merge_tables also needs the device; fill_table does not.
void check_compatible(const DispatchTable& table, const DispatchTable& later,
                      const std::string& source) {
  must_match(source, "subgroup size", std::to_string(table.subgroup_size),
             std::to_string(later.subgroup_size));
  must_match(source, "timing mode", table.timing_mode, later.timing_mode);
}

void add_provenance(DispatchTable& table, const DispatchTable& later) {
  table.complete = table.complete && later.complete;
  if (table.gnbench_revision.find(later.gnbench_revision) == std::string::npos)
    table.gnbench_revision += ", " + later.gnbench_revision;
}

}  // namespace

size_t fill_table(DispatchTable& table, DispatchTable other, const std::string& source) {
  check_compatible(table, other, source);
  add_provenance(table, other);
  size_t added = 0;
  for (auto& e : other.entries) {
    const bool timed = std::any_of(table.entries.begin(), table.entries.end(),
                                   [&](const DispatchEntry& x) { return x.shape == e.shape; });
    if (timed) continue;
    if (e.device.empty() && other.device != table.device) e.device = other.device;
    table.entries.push_back(std::move(e));
    ++added;
  }
  return added;
}

void merge_tables(DispatchTable& table, DispatchTable later, const std::string& source) {
  must_match(source, "device", table.device, later.device);
  check_compatible(table, later, source);
  add_provenance(table, later);
  for (auto& e : later.entries) {
    auto same = std::find_if(table.entries.begin(), table.entries.end(),
                             [&](const DispatchEntry& x) { return x.shape == e.shape; });
    if (same == table.entries.end())
      table.entries.push_back(std::move(e));
    else
      *same = std::move(e);
  }
}

std::vector<std::string> keep_known_variants(DispatchTable& table,
                                             const std::function<bool(const std::string&)>& known) {
  std::set<std::string> dropped;
  for (auto& e : table.entries) {
    for (auto it = e.times_us.begin(); it != e.times_us.end();) {
      if (known(it->first)) {
        ++it;
      } else {
        dropped.insert(it->first);
        it = e.times_us.erase(it);
      }
    }
    rank_times(e);
  }
  std::erase_if(table.entries, [](const DispatchEntry& e) { return e.times_us.empty(); });
  return {dropped.begin(), dropped.end()};
}

std::vector<std::string> keep_built_variants(
    DispatchTable& table, const std::vector<std::filesystem::path>& kernel_folders,
    const std::string& source) {
  std::set<std::string> built;
  for (const auto& v : load_manifests(kernel_folders)) built.insert(v.name);
  auto dropped =
      keep_known_variants(table, [&](const std::string& v) { return built.count(v) > 0; });
  if (table.entries.empty())
    throw ConfigError(source +
                      ": no entry times a variant this gnbench builds (it builds none of: " +
                      join_bounded(dropped) + ")");
  return dropped;
}

nlohmann::json table_to_json(const DispatchTable& t) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& e : t.entries) {
    nlohmann::json j{{"problem", e.problem},         {"batch", e.shape.batch},
                     {"channels", e.shape.channels}, {"spatial", e.shape.spatial},
                     {"groups", e.shape.groups},     {"variant", e.variant},
                     {"median_us", e.median_us}};
    if (!e.runner_up.empty()) {
      j["runner_up"] = e.runner_up;
      j["runner_up_us"] = e.runner_up_us;
    }
    j["times"] = e.times_us;
    if (!e.device.empty()) j["device"] = e.device;
    entries.push_back(std::move(j));
  }
  return {{"format", kFormat},
          {"version", kVersion},
          {"device", t.device},
          {"subgroup_size", t.subgroup_size},
          {"timing_mode", t.timing_mode},
          {"gnbench_revision", t.gnbench_revision},
          {"complete", t.complete},
          {"rule", kDispatchRule},
          {"entries", entries}};
}

DispatchTable read_dispatch_table(const std::filesystem::path& path) {
  const Reader r{path.string()};
  // The one strict reader: bounded, duplicate keys and depth refused, line:column in errors.
  const nlohmann::json doc = read_json_file(path.string(), "dispatch table");
  if (!doc.is_object()) throw ConfigError(path.string() + ": must be a JSON object");
  if (!doc.contains("format") || doc["format"] != kFormat)
    r.fail("format",
           "= " + (doc.contains("format") ? printable(doc["format"].dump(), 80) : "(missing)") +
               ": must be \"" + kFormat + "\" (a table written by gnbench tune)");
  int version = 0;  // the versions this gnbench reads: 1 and kVersion
  for (const int v : {1, kVersion})
    if (doc.contains("version") && doc["version"] == v) version = v;
  if (version == 0)
    r.fail("version",
           "= " + (doc.contains("version") ? printable(doc["version"].dump(), 80) : "(missing)") +
               ": this gnbench reads versions 1 and " + std::to_string(kVersion));
  DispatchTable t;
  // Descriptive fields: optional, but of their type when given.
  auto optional_text = [&](const std::string& key) {
    if (!doc.contains(key)) return std::string();
    if (!doc[key].is_string())
      r.fail(key, "= " + printable(doc[key].dump(), 80) + ": must be a string");
    return doc[key].get<std::string>();
  };
  t.device = optional_text("device");
  t.timing_mode = optional_text("timing_mode");
  t.gnbench_revision = optional_text("gnbench_revision");
  if (doc.contains("complete")) {
    if (!doc["complete"].is_boolean())
      r.fail("complete", "= " + printable(doc["complete"].dump(), 80) + ": must be true or false");
    t.complete = doc["complete"].get<bool>();
  }
  if (doc.contains("subgroup_size")) {
    const auto& v = doc["subgroup_size"];
    if (!v.is_number_unsigned() || v.get<uint64_t>() > 0xFFFFFFFFull)
      r.fail("subgroup_size",
             "= " + printable(v.dump(), 80) + ": must be an integer in [0, 2^32-1]");
    t.subgroup_size = static_cast<uint32_t>(v.get<uint64_t>());
  }
  const auto& list = r.at(doc, "entries", "entries");
  if (!list.is_array() || list.empty()) r.fail("entries", "must be a non-empty array");
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string f = "entries[" + std::to_string(i) + "]";
    DispatchEntry e;
    e.problem = r.text(list[i], "problem", f + ".problem");
    e.shape = {
        r.count(list[i], "batch", f + ".batch"), r.count(list[i], "channels", f + ".channels"),
        r.count(list[i], "spatial", f + ".spatial"), r.count(list[i], "groups", f + ".groups")};
    if (e.shape.channels % e.shape.groups != 0)
      r.fail(f + ".channels", "= " + std::to_string(e.shape.channels) +
                                  ": must be divisible by groups (" +
                                  std::to_string(e.shape.groups) + ")");
    e.variant = r.text(list[i], "variant", f + ".variant");
    e.median_us = r.time(list[i], "median_us", f + ".median_us");
    if (list[i].contains("runner_up")) {
      e.runner_up = r.text(list[i], "runner_up", f + ".runner_up");
      e.runner_up_us = r.time(list[i], "runner_up_us", f + ".runner_up_us");
    }
    if (version == 1) {  // the variant and its runner-up are all a version-1 entry timed
      e.times_us[e.variant] = e.median_us;
      if (!e.runner_up.empty()) e.times_us[e.runner_up] = e.runner_up_us;
    } else {
      const auto& times = r.at(list[i], "times", f + ".times");
      if (!times.is_object() || times.empty())
        r.fail(f + ".times", "must be a non-empty object of variant: median_us");
      for (const auto& [v, us] : times.items()) {
        if (v.empty()) r.fail(f + ".times", "has an empty variant name");
        e.times_us[v] = r.time(times, v, f + ".times." + printable(v, 80));
      }
      if (!e.times_us.count(e.variant))
        r.fail(f + ".times", "lacks the entry's variant '" + printable(e.variant, 80) + "'");
      // The choice follows the times (an edited "variant" or "median_us" cannot choose a
      // slower build); keep_built_variants ranks again after dropping unbuilt ones.
      rank_times(e);
    }
    if (list[i].contains("device")) e.device = r.text(list[i], "device", f + ".device");
    t.entries.push_back(std::move(e));
  }
  return t;
}

}  // namespace gnbench
