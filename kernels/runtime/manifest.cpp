#include "kernels/runtime/manifest.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "base/errors.hpp"
#include "base/json_document.hpp"
#include "base/path_name.hpp"
#include "base/read_file.hpp"
#include "kernels/runtime/manifest_family.hpp"

namespace gnbench {

using nlohmann::json;
namespace fs = std::filesystem;

const BufferSpec* VariantSpec::buffer(const std::string& name) const {
  for (const auto& b : buffers)
    if (b.name == name) return &b;
  return nullptr;
}

Variables problem_variables(const Shape& s, uint32_t subgroup_size) {
  return {{"N", s.batch},
          {"C", s.channels},
          {"HW", s.spatial},
          {"G", s.groups},
          {"CPG", s.channels_per_group()},
          {"M", static_cast<int64_t>(s.group_size())},
          {"E", static_cast<int64_t>(s.elements())},
          {"SUBGROUP", subgroup_size}};
}

bool stage_runs(const StageSpec& stage, const Variables& vars) {
  return !stage.when || stage.when->evaluate(vars) != 0;
}

namespace {

const std::set<std::string> kFeatures{"subgroup_arithmetic", "subgroup_shuffle", "float_atomics"};

// Field access with messages that name the file, the variant and the field.
class Reader {
 public:
  Reader(std::string where) : where_(std::move(where)) {}
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw ConfigError(where_ + ": field '" + printable(field, 120) + "': " + printable(what, 300));
  }
  void only(const json& obj, const std::string& field, const std::set<std::string>& allowed) const {
    if (!obj.is_object()) fail(field, "must be an object, got " + obj.dump());
    for (const auto& [key, value] : obj.items())
      if (!allowed.count(key)) {
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        fail(field.empty() ? key : field + "." + key, "unknown field (allowed: " + list + ")");
      }
  }
  std::string string(const json& obj, const std::string& key, const std::string& field,
                     std::optional<std::string> fallback = std::nullopt) const {
    if (!obj.contains(key)) {
      if (fallback) return *fallback;
      fail(field, "missing");
    }
    if (!obj[key].is_string()) fail(field, "must be a string, got " + obj[key].dump());
    return obj[key].get<std::string>();
  }
  bool boolean(const json& obj, const std::string& key, const std::string& field,
               bool fallback) const {
    if (!obj.contains(key)) return fallback;
    if (!obj[key].is_boolean()) fail(field, "must be true or false, got " + obj[key].dump());
    return obj[key].get<bool>();
  }
  // Expressions may be written as a JSON integer or a string.
  Expression expression(const json& value, const std::string& field) const {
    if (value.is_number_integer())
      return Expression(std::to_string(value.get<int64_t>()), where_ + ": field '" + field + "'");
    if (!value.is_string())
      fail(field, "must be an expression string or integer, got " + value.dump());
    return Expression(value.get<std::string>(), where_ + ": field '" + field + "'");
  }
  const std::string& where() const { return where_; }

 private:
  std::string where_;
};

BufferSpec parse_buffer(const Reader& r, const std::string& name, const json& j) {
  const std::string field = "buffers." + name;
  r.only(j, field, {"tensor", "packed", "scratch_bytes", "zero"});
  BufferSpec b;
  b.name = name;
  if (name == "params") r.fail(field, "'params' is reserved for the uniform");
  int kinds = j.contains("tensor") + j.contains("packed") + j.contains("scratch_bytes");
  if (kinds != 1) r.fail(field, "needs exactly one of 'tensor', 'packed', 'scratch_bytes'");
  auto check_tensor = [&](const json& t) {
    if (!t.is_string()) r.fail(field, "tensor names must be strings, got " + t.dump());
    auto name = t.get<std::string>();
    const auto& known = tensor_names();
    if (std::find(known.begin(), known.end(), name) == known.end())
      r.fail(field, "unknown tensor '" + name +
                        "' (known: x, grad_out, weight, grad_input, grad_weight, grad_bias)");
    return name;
  };
  if (j.contains("tensor")) {
    b.kind = BufferSpec::Kind::kTensor;
    b.tensors.push_back(check_tensor(j["tensor"]));
  } else if (j.contains("packed")) {
    b.kind = BufferSpec::Kind::kPacked;
    if (!j["packed"].is_array() || j["packed"].empty())
      r.fail(field + ".packed", "must be a non-empty list of tensor names");
    for (const auto& t : j["packed"]) {
      b.tensors.push_back(check_tensor(t));
      if (!is_output_tensor(b.tensors.back()))
        r.fail(field + ".packed",
               "only output tensors can be packed, got '" + b.tensors.back() + "'");
    }
  } else {
    b.kind = BufferSpec::Kind::kScratch;
    b.scratch_bytes = r.expression(j["scratch_bytes"], field + ".scratch_bytes");
  }
  b.zero_fill = r.boolean(j, "zero", field + ".zero", false);
  if (b.zero_fill && b.kind != BufferSpec::Kind::kScratch)
    r.fail(field + ".zero", "only scratch buffers are zero-filled");
  return b;
}

StageSpec parse_stage(const Reader& r, const json& j, size_t index, const fs::path& folder) {
  std::string field = "stages[" + std::to_string(index) + "]";
  r.only(
      j, field,
      {"name", "shader", "defines", "workgroup_size", "dispatch", "foldable", "bindings", "when"});
  StageSpec s{.name = r.string(j, "name", field + ".name"),
              .shader = folder / r.string(j, "shader", field + ".shader"),
              .defines = {},
              .workgroup_size = 256,
              .dispatch = {Expression("1", ""), Expression("1", ""), Expression("1", "")},
              .when = std::nullopt,
              .foldable = r.boolean(j, "foldable", field + ".foldable", false),
              .bindings = {}};
  field = "stages." + s.name;
  if (j.contains("when")) s.when = r.expression(j["when"], field + ".when");
  if (j.contains("defines")) {
    if (!j["defines"].is_object()) r.fail(field + ".defines", "must be an object of NAME: value");
    for (const auto& [k, v] : j["defines"].items()) {
      if (v.is_string())
        s.defines[k] = v.get<std::string>();
      else if (v.is_number_integer())
        s.defines[k] = std::to_string(v.get<int64_t>());
      else
        r.fail(field + ".defines." + k, "must be a string or integer, got " + v.dump());
    }
  }
  if (j.contains("workgroup_size")) {
    const json& w = j["workgroup_size"];
    if (!w.is_number_unsigned() || w.get<uint64_t>() == 0 || w.get<uint64_t>() > 1024)
      r.fail(field + ".workgroup_size", "must be an integer in 1..1024, got " + w.dump());
    s.workgroup_size = w.get<uint32_t>();
  }
  if (!j.contains("dispatch") || !j["dispatch"].is_array() || j["dispatch"].empty() ||
      j["dispatch"].size() > 3)
    r.fail(field + ".dispatch", "must be a list of 1 to 3 expressions");
  for (size_t d = 0; d < j["dispatch"].size(); ++d)
    s.dispatch[d] = r.expression(j["dispatch"][d], field + ".dispatch[" + std::to_string(d) + "]");
  if (!j.contains("bindings") || !j["bindings"].is_array() || j["bindings"].empty())
    r.fail(field + ".bindings", "must be a non-empty list of buffer names");
  for (const auto& b : j["bindings"]) {
    if (!b.is_string())
      r.fail(field + ".bindings", "entries must be buffer names, got " + b.dump());
    s.bindings.push_back(b.get<std::string>());
  }
  return s;
}

// `where` names the file, and the family for an expanded build.
VariantSpec parse_variant(const json& j, const fs::path& file, size_t index, std::string where) {
  if (!j.is_object())
    throw ConfigError(where + ": variants[" + std::to_string(index) + "] must be an object");
  if (j.contains("name") && j["name"].is_string())
    where += ": variant '" + printable(j["name"].get<std::string>(), 80) + "'";
  Reader r(where);
  r.only(j, "",
         {"name", "description", "deterministic", "requires", "when", "traffic_bytes", "params",
          "buffers", "stages"});
  VariantSpec v;
  v.name = r.string(j, "name", "name");
  if (std::string rule = path_name_problem(v.name); !rule.empty())
    r.fail("name", "'" + printable(v.name, 80) + "' " + rule);
  v.description = r.string(j, "description", "description", "");
  v.manifest = file;
  v.deterministic = r.boolean(j, "deterministic", "deterministic", true);
  if (j.contains("requires")) {
    if (!j["requires"].is_array()) r.fail("requires", "must be a list of feature names");
    for (const auto& f : j["requires"]) {
      if (!f.is_string() || !kFeatures.count(f.get<std::string>()))
        r.fail("requires", "unknown feature " + f.dump() +
                               " (known: subgroup_arithmetic, subgroup_shuffle, float_atomics)");
      v.requires_features.push_back(f.get<std::string>());
    }
  }
  if (j.contains("when")) v.when = r.expression(j["when"], "when");
  if (j.contains("traffic_bytes"))
    v.traffic_bytes = r.expression(j["traffic_bytes"], "traffic_bytes");
  if (j.contains("params")) {
    if (!j["params"].is_array() || j["params"].size() > 8)
      r.fail("params", "must be a list of at most 8 expressions");
    for (size_t i = 0; i < j["params"].size(); ++i)
      v.params.push_back(r.expression(j["params"][i], "params[" + std::to_string(i) + "]"));
  }
  if (!j.contains("buffers") || !j["buffers"].is_object() || j["buffers"].empty())
    r.fail("buffers", "must be a non-empty object of name: {tensor|packed|scratch_bytes}");
  for (const auto& [name, spec] : j["buffers"].items())
    v.buffers.push_back(parse_buffer(r, name, spec));
  if (!j.contains("stages") || !j["stages"].is_array() || j["stages"].empty())
    r.fail("stages", "must be a non-empty list");
  for (size_t i = 0; i < j["stages"].size(); ++i)
    v.stages.push_back(parse_stage(r, j["stages"][i], i, file.parent_path()));

  // Every output written by exactly one buffer, every input bound from exactly one.
  std::map<std::string, int> provided;
  for (const auto& b : v.buffers)
    for (const auto& t : b.tensors) ++provided[t];
  for (const auto& t : tensor_names()) {
    bool needed = is_output_tensor(t);
    if (needed && provided[t] != 1)
      r.fail("buffers", "output tensor '" + t + "' must be in exactly one buffer, found in " +
                            std::to_string(provided[t]));
    if (!needed && provided[t] > 1)
      r.fail("buffers", "input tensor '" + t + "' is in more than one buffer");
  }
  for (const auto& s : v.stages) {
    for (const auto& b : s.bindings)
      if (b != "params" && !v.buffer(b))
        r.fail("stages." + s.name + ".bindings", "unknown buffer '" + b + "'");
    if (!fs::is_regular_file(s.shader))
      r.fail("stages." + s.name + ".shader", "no such file " + s.shader.string());
  }
  return v;
}

}  // namespace

std::vector<VariantSpec> load_manifest_text(const std::string& text, const fs::path& file) {
  // The configs' reader: duplicate keys, NUL bytes, depth and 1e400 refused with line:column.
  json doc = parse_json_document(text, file.string());
  std::vector<json> entries;
  if (doc.is_object() && doc.contains("variants")) {
    if (!doc["variants"].is_array() || doc.size() != 1)
      throw ConfigError(file.string() + ": 'variants' must be a list and the only top-level field");
    entries = doc["variants"].get<std::vector<json>>();
  } else {
    entries.push_back(doc);
  }
  std::vector<VariantSpec> variants;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!is_family(entries[i])) {
      variants.push_back(parse_variant(entries[i], file, i, file.string()));
      continue;
    }
    ExpandedFamily family = expand_family(entries[i], file.string());
    for (const json& build : family.variants)
      variants.push_back(parse_variant(build, file, i, family.where));
  }
  return variants;
}

std::vector<VariantSpec> load_manifests(const std::vector<fs::path>& folders) {
  std::vector<VariantSpec> variants;
  std::map<std::string, fs::path> seen;  // name -> the manifest that defined it first
  for (const auto& folder : folders) {
    std::error_code ec;
    const fs::file_status st = fs::status(folder, ec);
    if (ec)  // the true cause: missing, a symlink loop, permission
      throw ConfigError(folder.string() + ": not a kernels folder (" + ec.message() + ")");
    if (!fs::is_directory(st))
      throw ConfigError(folder.string() + ": not a kernels folder (not a directory)");
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder, ec))
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    if (ec)
      throw ConfigError(folder.string() + ": cannot list the kernels folder: " + ec.message());
    std::sort(files.begin(), files.end());
    if (files.empty())
      throw ConfigError(folder.string() + ": no *.json kernel manifests in this folder");
    for (const auto& file : files) {
      for (VariantSpec& v : load_manifest_text(read_input_file(file, "kernel manifest"), file)) {
        auto [first, fresh] = seen.emplace(v.name, file);
        if (!fresh)
          throw ConfigError(file.string() + ": variant '" + v.name + "': field 'name': '" + v.name +
                            "' is already defined in " + first->second.string());
        variants.push_back(std::move(v));
      }
    }
  }
  return variants;
}

fs::path default_kernels_folder() {
  if (const char* env = std::getenv("GNBENCH_KERNELS")) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  std::vector<fs::path> candidates;
  if (!ec) candidates.push_back(exe.parent_path().parent_path() / "kernels");
  candidates.push_back(fs::current_path(ec) / "kernels");
  candidates.push_back(GNBENCH_SOURCE_KERNELS_DIR);
  for (const auto& c : candidates)
    if (fs::is_regular_file(c / "seed.json", ec)) return c;
  return GNBENCH_SOURCE_KERNELS_DIR;
}

}  // namespace gnbench
