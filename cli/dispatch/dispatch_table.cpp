#include "cli/dispatch/dispatch_table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/errors.hpp"
#include "base/json_document.hpp"
#include "base/read_file.hpp"
#include "cli/report/best_variants.hpp"

namespace gnbench {

namespace {

constexpr const char* kFormat = "gnbench-dispatch-table";
constexpr int kVersion = 1;
constexpr const char* kRule =
    "exact (batch, channels, spatial, groups) match; otherwise the entry nearest in "
    "|log2 M - log2 M'| + |log2 NG - log2 NG'| + 4 * (HW % 4 == 0 differs), M = C/G*HW, "
    "NG = N*G, among entries whose variant's `when` admits the shape on the device; ties: the "
    "earlier entry";

bool same_shape(const Shape& a, const Shape& b) {
  return a.batch == b.batch && a.channels == b.channels && a.spatial == b.spatial &&
         a.groups == b.groups;
}

double regime_distance(const Shape& a, const Shape& b) {
  auto m = [](const Shape& s) { return std::log2(double(s.channels / s.groups) * s.spatial); };
  auto ng = [](const Shape& s) { return std::log2(double(s.batch) * s.groups); };
  const bool aligned_differs = (a.spatial % 4 == 0) != (b.spatial % 4 == 0);
  return std::abs(m(a) - m(b)) + std::abs(ng(a) - ng(b)) + (aligned_differs ? 4.0 : 0.0);
}

std::string shape_text(const Shape& s) {
  return std::to_string(s.batch) + "x" + std::to_string(s.channels) + "x" +
         std::to_string(s.spatial) + "/" + std::to_string(s.groups);
}

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
      fail(field, "= " + v.dump() + ": must be a non-empty string");
    return v.get<std::string>();
  }
  uint32_t count(const nlohmann::json& j, const std::string& key, const std::string& field) const {
    const auto& v = at(j, key, field);
    if (!v.is_number_unsigned() || v.get<uint64_t>() < 1 || v.get<uint64_t>() > 0xFFFFFFFFull)
      fail(field, "= " + v.dump() + ": must be an integer in [1, 2^32-1]");
    return static_cast<uint32_t>(v.get<uint64_t>());
  }
  double time(const nlohmann::json& j, const std::string& key, const std::string& field) const {
    const auto& v = at(j, key, field);
    if (!v.is_number() || !(v.get<double>() >= 0)) fail(field, "= " + v.dump() + ": must be >= 0");
    return v.get<double>();
  }
};

}  // namespace

DispatchTable table_from_records(const RunRecords& records, const std::string& mode,
                                 const std::string& source) {
  DispatchTable t;
  t.device = records.context.device.value("name", "?");
  t.subgroup_size = records.context.device.value("subgroup_size", 0u);
  t.timing_mode = mode;
  t.gnbench_revision = records.context.git_revision;
  for (const auto& b : best_variants(records, mode)) {
    DispatchEntry e{b.problem.name,    b.problem.shape, b.variant,
                    b.median_ns / 1e3, b.runner_up,     b.runner_up_ns / 1e3};
    auto same = std::find_if(t.entries.begin(), t.entries.end(),
                             [&](const DispatchEntry& x) { return same_shape(x.shape, e.shape); });
    if (same == t.entries.end())
      t.entries.push_back(std::move(e));
    else if (e.median_us < same->median_us)
      *same = std::move(e);
  }
  if (t.entries.empty())
    throw ConfigError(source + ": no verified entry timed " + mode +
                      ": nothing to put in a dispatch table");
  return t;
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
    entries.push_back(std::move(j));
  }
  return {{"format", kFormat},
          {"version", kVersion},
          {"device", t.device},
          {"subgroup_size", t.subgroup_size},
          {"timing_mode", t.timing_mode},
          {"gnbench_revision", t.gnbench_revision},
          {"rule", kRule},
          {"entries", entries}};
}

DispatchTable read_dispatch_table(const std::filesystem::path& path) {
  const Reader r{path.string()};
  // The one strict reader: bounded, duplicate keys and depth refused, line:column in errors.
  const nlohmann::json doc = read_json_file(path.string(), "dispatch table");
  if (!doc.is_object()) throw ConfigError(path.string() + ": must be a JSON object");
  if (doc.value("format", "") != kFormat)
    r.fail("format", "= " + (doc.contains("format") ? doc["format"].dump() : "(missing)") +
                         ": must be \"" + kFormat + "\" (a table written by gnbench tune)");
  if (doc.value("version", 0) != kVersion)
    r.fail("version", "= " + (doc.contains("version") ? doc["version"].dump() : "(missing)") +
                          ": this gnbench reads version " + std::to_string(kVersion));
  DispatchTable t;
  t.device = doc.value("device", "");
  t.subgroup_size = doc.value("subgroup_size", 0u);
  t.timing_mode = doc.value("timing_mode", "");
  t.gnbench_revision = doc.value("gnbench_revision", "");
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
    t.entries.push_back(std::move(e));
  }
  return t;
}

DispatchChoice choose_variant(const DispatchTable& table, const Shape& shape,
                              const std::function<bool(const std::string&)>& admits) {
  for (const auto& e : table.entries)
    if (same_shape(e.shape, shape) && admits(e.variant)) return {e.variant, "exact"};
  const DispatchEntry* best = nullptr;
  double best_d = std::numeric_limits<double>::infinity();
  for (const auto& e : table.entries) {
    if (!admits(e.variant)) continue;
    const double d = regime_distance(e.shape, shape);
    if (d < best_d) {
      best_d = d;
      best = &e;
    }
  }
  if (!best) return {"", ""};
  return {best->variant, "nearest " + best->problem + " (" + shape_text(best->shape) + ")"};
}

void use_dispatch_table(BenchOptions& bench, DispatchTable table) {
  bench.variants.clear();
  for (const auto& e : table.entries)
    if (std::find(bench.variants.begin(), bench.variants.end(), e.variant) == bench.variants.end())
      bench.variants.push_back(e.variant);
  bench.choose = [t = std::move(table)](const Shape& shape, const BenchOptions::Admits& admits) {
    DispatchChoice c = choose_variant(t, shape, admits);
    return std::make_pair(c.variant, c.how);
  };
}

void print_dispatch_choices(std::ostream& out, const RunRecords& records) {
  const nlohmann::json& choices = records.context.dispatch_choices;
  if (choices.empty()) return;
  out << "\n--variant best (dispatch table):\n";
  std::string last;
  for (const auto& e : records.entries) {
    if (e.problem.name == last || !choices.contains(e.problem.name)) continue;
    last = e.problem.name;
    const nlohmann::json& c = choices[last];
    const std::string variant = c.value("variant", "");
    out << "  " << last << " -> "
        << (variant.empty() ? "none: no table variant admits the shape" : variant) << "  ["
        << c.value("how", "") << "]\n";
  }
}

}  // namespace gnbench
