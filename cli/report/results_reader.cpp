// Reading a results file with the configs' standard: bounded read, the shared strict JSON
// reader, then every field gnbench relies on checked for its type and range before use, so
// that a damaged or hand-edited file is a one-line error naming the file (exit 2), never a
// library message, a wrapped count or an empty comparison that passes.
#include <cmath>
#include <limits>

#include "base/errors.hpp"
#include "base/json_document.hpp"
#include "base/read_file.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/report/gzip_text.hpp"
#include "cli/report/results_json.hpp"

namespace gnbench {

namespace {

using nlohmann::json;

class Checker {
 public:
  explicit Checker(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& field, const json* v, const std::string& rule) const {
    std::string shown = v ? " = " + printable(v->dump(), 80) : "";
    throw ConfigError(source_ + ": not a gnbench results file: " + field + shown + ": " + rule);
  }
  const json& object(const json& parent, const std::string& key, const std::string& field) const {
    if (!parent.contains(key)) fail(field, nullptr, "missing");
    const json& v = parent.at(key);
    if (!v.is_object()) fail(field, &v, "must be an object");
    return v;
  }
  const json& array(const json& parent, const std::string& key, const std::string& field) const {
    if (!parent.contains(key)) fail(field, nullptr, "missing");
    const json& v = parent.at(key);
    if (!v.is_array()) fail(field, &v, "must be a list");
    return v;
  }
  // An integer in [lo, hi]; floats are refused (a count is never 2.5 or 1e3).
  uint64_t count(const json& parent, const std::string& key, const std::string& field, uint64_t lo,
                 uint64_t hi = std::numeric_limits<uint64_t>::max()) const {
    if (!parent.contains(key)) fail(field, nullptr, "missing");
    const json& v = parent.at(key);
    const std::string rule =
        "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    // A parsed non-negative literal is unsigned; one built in memory may be signed.
    const bool non_negative =
        v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
    if (!non_negative || v.get<uint64_t>() < lo || v.get<uint64_t>() > hi) fail(field, &v, rule);
    return v.get<uint64_t>();
  }
  void string(const json& parent, const std::string& key, const std::string& field) const {
    if (!parent.contains(key)) fail(field, nullptr, "missing");
    if (!parent.at(key).is_string()) fail(field, &parent.at(key), "must be a string");
  }

  const std::string& source() const { return source_; }

 private:
  std::string source_;
};

void check_timing(const Checker& c, const json& t, const std::string& f) {
  if (!t.is_object()) c.fail(f, &t, "must be an object");
  c.count(c.object(t, "ns", f + ".ns"), "samples", f + ".ns.samples", 1);
  for (size_t i = 0; i < c.array(t, "stages", f + ".stages").size(); ++i) {
    const std::string sf = f + ".stages[" + std::to_string(i) + "]";
    const json& s = t.at("stages")[i];
    if (!s.is_object()) c.fail(sf, &s, "must be an object");
    c.count(c.object(s, "ns", sf + ".ns"), "samples", sf + ".ns.samples", 1);
  }
  const json& samples = c.array(t, "samples_ns", f + ".samples_ns");
  for (size_t i = 0; i < samples.size(); ++i)
    if (!samples[i].is_number() || !(samples[i].get<double>() >= 0))
      c.fail(f + ".samples_ns[" + std::to_string(i) + "]", &samples[i],
             "must be a number of nanoseconds >= 0");
}

void check_record(const Checker& c, const json& r, const std::string& f) {
  if (!r.is_object()) c.fail(f, &r, "must be an object");
  const json& p = c.object(r, "problem", f + ".problem");
  c.string(p, "name", f + ".problem.name");
  Shape shape;
  uint32_t* dims[] = {&shape.batch, &shape.channels, &shape.spatial, &shape.groups};
  const char* keys[] = {"batch", "channels", "spatial", "groups"};
  for (int i = 0; i < 4; ++i)
    *dims[i] = static_cast<uint32_t>(
        c.count(p, keys[i], f + ".problem." + keys[i], 1, std::numeric_limits<uint32_t>::max()));
  validate_shape(shape, c.source() + ": not a gnbench results file: " + f + ".problem",
                 "");  // the configs' own shape rules (divisible groups, N*C*HW < 2^32)
  c.count(p, "seed", f + ".problem.seed", 0);
  c.string(r, "variant", f + ".variant");
  c.string(r, "verdict", f + ".verdict");
  const std::string verdict = r.at("verdict").get<std::string>();
  const bool judged = verdict != "SKIP" && verdict != "ERROR";
  const uint64_t trials = c.count(r, "trials", f + ".trials", judged ? 1 : 0, 1000);
  c.count(r, "worst_trial", f + ".worst_trial", 0, trials ? trials - 1 : 0);
  c.count(r, "required_bytes", f + ".required_bytes", 0);
  c.count(r, "actual_bytes", f + ".actual_bytes", 0);
  const json& tensors = c.array(c.object(r, "verification", f + ".verification"), "tensors",
                                f + ".verification.tensors");
  for (size_t i = 0; i < tensors.size(); ++i) {
    const std::string tf = f + ".verification.tensors[" + std::to_string(i) + "]";
    if (!tensors[i].is_object()) c.fail(tf, &tensors[i], "must be an object");
    for (const char* k : {"elements", "nonfinite", "unwritten"})
      c.count(tensors[i], k, tf + "." + k, 0);
  }
  for (const char* mode : {"cold", "hot"})
    if (r.contains(mode)) check_timing(c, r.at(mode), f + "." + mode);
}

}  // namespace

void check_document(const json& doc, const std::string& source);

void validate_results_document(const json& doc, const std::string& source) {
  try {
    check_document(doc, source);
  } catch (const json::exception& e) {  // a type the checks above did not expect
    throw ConfigError(source + ": not a gnbench results file: " + printable(e.what()));
  }
}

void check_document(const json& doc, const std::string& source) {
  Checker c(source);
  if (!doc.is_object()) c.fail("the top level", nullptr, "must be an object");
  const json& g = c.object(c.object(doc, "context", "context"), "gnbench", "context.gnbench");
  c.count(g, "schema_version", "context.gnbench.schema_version", kResultsSchemaVersion,
          kResultsSchemaVersion);
  if (g.contains("validation_messages"))
    c.count(g, "validation_messages", "context.gnbench.validation_messages", 0);
  const json& benchmarks = c.array(doc, "benchmarks", "benchmarks");
  size_t records = 0;
  for (size_t i = 0; i < benchmarks.size(); ++i) {
    const std::string f = "benchmarks[" + std::to_string(i) + "]";
    if (!benchmarks[i].is_object()) c.fail(f, &benchmarks[i], "must be an object");
    if (!benchmarks[i].contains("gnbench")) continue;
    check_record(c, benchmarks[i].at("gnbench"), f + ".gnbench");
    ++records;
  }
  // A finished run always has entries: an empty complete file would compare as "no change".
  if (records == 0 && g.value("complete", json(true)) == json(true))
    c.fail("benchmarks", nullptr, "no gnbench entries in a run marked complete");
}

RunRecords read_results_file(const std::filesystem::path& path) {
  // Gzipped files (as stored under results/) are read as they are; the size bound applies to
  // the compressed bytes here and to the text in gunzip_if_compressed.
  const json doc = parse_json_document(
      gunzip_if_compressed(read_input_file(path.string(), "results file"), path.string()),
      path.string());
  validate_results_document(doc, path.string());
  return results_from_json(doc, path.string());
}

}  // namespace gnbench
