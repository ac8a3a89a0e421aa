// Reading a results file with the configs' standard: bounded read, the shared strict JSON
// reader, then every field gnbench relies on checked for its type and range before use, so
// that a damaged or hand-edited file is a one-line error naming the file (exit 2), never a
// library message, a wrapped count or an empty comparison that passes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <type_traits>

#include "base/errors.hpp"
#include "base/format.hpp"
#include "base/json_document.hpp"
#include "base/read_file.hpp"
#include "base/statistics.hpp"
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
  // parent[key] (a member, or an element of a list by index), or a "missing" failure.
  template <class Key>
  const json& at(const json& parent, const Key& key, const std::string& field) const {
    if constexpr (std::is_integral_v<Key>) {
      if (!parent.is_array() || key >= parent.size()) fail(field, nullptr, "missing");
      return parent[key];
    } else {
      if (!parent.contains(key)) fail(field, nullptr, "missing");
      return parent.at(key);
    }
  }
  // parent[key], which must pass `is` (json::is_object, ...), else a failure stating `rule`.
  template <class Key>
  const json& typed(const json& parent, const Key& key, const std::string& field,
                    bool (json::*is)() const noexcept, const char* rule) const {
    const json& v = at(parent, key, field);
    if (!(v.*is)()) fail(field, &v, rule);
    return v;
  }
  template <class Key>
  const json& object(const json& parent, const Key& key, const std::string& field) const {
    return typed(parent, key, field, &json::is_object, "must be an object");
  }
  template <class Key>
  const json& array(const json& parent, const Key& key, const std::string& field) const {
    return typed(parent, key, field, &json::is_array, "must be a list");
  }
  // An integer in [lo, hi]; floats are refused (a count is never 2.5 or 1e3).
  template <class Key>
  uint64_t count(const json& parent, const Key& key, const std::string& field, uint64_t lo,
                 uint64_t hi = std::numeric_limits<uint64_t>::max()) const {
    const json& v = at(parent, key, field);
    const std::string rule =
        "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    // A parsed non-negative literal is unsigned; one built in memory may be signed.
    const bool non_negative =
        v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
    if (!non_negative || v.get<uint64_t>() < lo || v.get<uint64_t>() > hi) fail(field, &v, rule);
    return v.get<uint64_t>();
  }
  template <class Key>
  const json& string(const json& parent, const Key& key, const std::string& field) const {
    return typed(parent, key, field, &json::is_string, "must be a string");
  }
  template <class Key>
  void boolean(const json& parent, const Key& key, const std::string& field,
               bool nullable = false) const {
    const json& v = at(parent, key, field);
    if (!v.is_boolean() && !(nullable && v.is_null()))
      fail(field, &v, nullable ? "must be true, false or null" : "must be true or false");
  }
  // A finite number >= lo; `nullable`: null too (an infinity or NaN the writer could not store).
  template <class Key>
  double number(const json& parent, const Key& key, const std::string& field,
                double lo = -std::numeric_limits<double>::infinity(), bool nullable = false) const {
    const json& v = at(parent, key, field);
    if (nullable && v.is_null()) return std::numeric_limits<double>::quiet_NaN();
    const std::string rule = std::string("must be a finite number") +
                             (std::isinf(lo) ? "" : " >= " + format("%g", lo)) +
                             (nullable ? " or null" : "");
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo)
      fail(field, &v, rule);
    return v.get<double>();
  }
  // A finite number > 0 (a time).
  template <class Key>
  double positive(const json& parent, const Key& key, const std::string& field) const {
    const double v = number(parent, key, field, 0);
    if (v == 0) fail(field, &at(parent, key, field), "must be a finite number > 0");
    return v;
  }

  const std::string& source() const { return source_; }

 private:
  std::string source_;
};

// The statistics of a timing: ordered quantiles of times > 0 (a median of 0 or a missing one
// would make an entry compare as "not timed", never as slower).
Statistics check_statistics(const Checker& c, const json& parent, const std::string& f,
                            bool is_total) {
  const json& ns = c.object(parent, "ns", f);
  c.count(ns, "samples", f + ".samples", 1);
  // Times > 0; a stage's may be 0 (a stage that does next to nothing, at timestamp resolution).
  for (const char* key : {"min", "q1", "median", "q3", "max", "mean"})
    is_total ? c.positive(ns, key, f + "." + key) : c.number(ns, key, f + "." + key, 0);
  c.number(ns, "stdev", f + ".stdev", 0);
  c.number(ns, "rel_noise", f + ".rel_noise", 0);
  const Statistics s = statistics_from_json(ns);  // checked: read as the results reader will
  if (!(s.min <= s.q1 && s.q1 <= s.median && s.median <= s.q3 && s.q3 <= s.max))
    c.fail(f, &ns, "must have min <= q1 <= median <= q3 <= max");
  return s;
}

void check_timing(const Checker& c, const json& t, const std::string& f) {
  if (!t.is_object()) c.fail(f, &t, "must be an object");
  c.string(t, "mode", f + ".mode");
  const Statistics total = check_statistics(c, t, f + ".ns", true);
  for (size_t i = 0; i < c.array(t, "stages", f + ".stages").size(); ++i) {
    const std::string sf = f + ".stages[" + std::to_string(i) + "]";
    const json& s = t.at("stages")[i];
    if (!s.is_object()) c.fail(sf, &s, "must be an object");
    c.string(s, "name", sf + ".name");
    check_statistics(c, s, sf + ".ns", false);
  }
  c.boolean(t, "noise_target_reached", f + ".noise_target_reached");
  c.number(t, "wall_s", f + ".wall_s", 0);
  // The per-sample times are what compare judges on, so they must be the run's: every one a
  // time > 0 within [min, max], all of them (or kMaxStoredSamples drawn evenly from more), and
  // the stored median theirs (for a drawn subset: inside its 5-95 % range, which ties, drift and
  // two modes keep it in; a hand-edited median is not).
  const std::string sf = f + ".samples_ns";
  const json& samples = c.array(t, "samples_ns", sf);
  std::vector<double> times;
  for (size_t i = 0; i < samples.size(); ++i) {
    const std::string at = sf + "[" + std::to_string(i) + "]";
    const double v = c.positive(samples, i, at);
    if (v < total.min || v > total.max)
      c.fail(at, &samples[i],
             "must be in [" + f + ".ns.min, max] = [" + format("%g", total.min) + ", " +
                 format("%g", total.max) + "]");
    times.push_back(v);
  }
  const bool all = times.size() == total.samples;
  if (!all && !(total.samples > kMaxStoredSamples && times.size() == kMaxStoredSamples))
    c.fail(sf, nullptr,
           "holds " + std::to_string(times.size()) + " times for " + f +
               ".ns.samples = " + std::to_string(total.samples) + ": must hold all of them, or " +
               std::to_string(kMaxStoredSamples) + " when there are more");
  std::sort(times.begin(), times.end());
  const double median = summarize(times).median;
  const double low = times[times.size() / 20], high = times[times.size() - 1 - times.size() / 20];
  if (all ? std::abs(median - total.median) > 1e-9 * total.median
          : total.median < low || total.median > high)
    c.fail(f + ".ns.median", &t.at("ns").at("median"),
           all ? "the median of " + sf + " is " + format("%g", median)
               : "outside the 5-95 % range of " + sf + ", [" + format("%g", low) + ", " +
                     format("%g", high) + "]");
}

void check_tolerances(const Checker& c, const json& p, const std::string& f) {
  const json& t = c.object(p, "tolerances", f + ".tolerances");
  for (const char* tensor : {"grad_input", "grad_weight", "grad_bias"}) {
    const std::string tf = f + ".tolerances." + tensor;
    const json& one = c.object(t, tensor, tf);
    c.number(one, "l2_rel", tf + ".l2_rel", 0);
    c.number(one, "max_scaled", tf + ".max_scaled", 0);
  }
}

void check_problem(const Checker& c, const json& r, const std::string& f) {
  const json& p = c.object(r, "problem", f);
  c.string(p, "name", f + ".name");
  Shape shape;
  uint32_t* dims[] = {&shape.batch, &shape.channels, &shape.spatial, &shape.groups};
  const char* keys[] = {"batch", "channels", "spatial", "groups"};
  for (int i = 0; i < 4; ++i)
    *dims[i] = static_cast<uint32_t>(
        c.count(p, keys[i], f + "." + keys[i], 1, std::numeric_limits<uint32_t>::max()));
  const std::string where = c.source() + ": not a gnbench results file: " + f;
  validate_shape(shape, where, "");  // the configs' own rules (divisible groups, N*C*HW < 2^32)
  validate_eps(c.number(p, "eps", f + ".eps"), where, "");  // the configs' range, float32
  c.count(p, "seed", f + ".seed", 0);
  const json& d = c.object(p, "distribution", f + ".distribution");
  c.string(d, "kind", f + ".distribution.kind");
  c.number(d, "param", f + ".distribution.param");
  check_tolerances(c, p, f);
  if (p.contains("expect")) {
    const json& e = c.object(p, "expect", f + ".expect");
    c.string(e, "reason", f + ".expect.reason");
    const json& variants = c.array(e, "variants", f + ".expect.variants");
    for (size_t i = 0; i < variants.size(); ++i)
      c.string(variants, i, f + ".expect.variants[" + std::to_string(i) + "]");
    if (e.contains("verdict")) c.string(e, "verdict", f + ".expect.verdict");
    if (e.contains("tensors")) {
      const json& tensors = c.object(e, "tensors", f + ".expect.tensors");
      for (const auto& [tensor, one] : tensors.items()) {
        const std::string tf = f + ".expect.tensors." + tensor;
        if (!one.is_object()) c.fail(tf, &one, "must be an object");
        const json& kinds = c.array(one, "kinds", tf + ".kinds");
        for (size_t i = 0; i < kinds.size(); ++i)
          c.string(kinds, i, tf + ".kinds[" + std::to_string(i) + "]");
        for (const char* k : {"max_scaled", "l2_rel"})
          if (one.contains(k)) c.number(one, k, tf + "." + k, 0);
      }
    }
  }
}

void check_tensor(const Checker& c, const json& t, const std::string& f) {
  if (!t.is_object()) c.fail(f, &t, "must be an object");
  c.string(t, "tensor", f + ".tensor");
  for (const char* k : {"elements", "nonfinite", "unwritten"}) c.count(t, k, f + "." + k, 0);
  for (const char* k : {"max_abs", "max_rel", "l2_rel", "max_scaled", "worst_gpu", "worst_ref"})
    c.number(t, k, f + "." + k, -std::numeric_limits<double>::infinity(), true);
  c.boolean(t, "pass", f + ".pass");
  c.string(t, "failure", f + ".failure");
}

void check_record(const Checker& c, const json& r, const std::string& f) {
  if (!r.is_object()) c.fail(f, &r, "must be an object");
  check_problem(c, r, f + ".problem");
  c.string(r, "variant", f + ".variant");
  const json& verdict = c.string(r, "verdict", f + ".verdict");
  try {
    verdict_from_name(verdict.get<std::string>());
  } catch (const std::invalid_argument&) {
    c.fail(f + ".verdict", &verdict, "must be PASS, FAIL, XFAIL, XPASS, SKIP or ERROR");
  }
  c.string(r, "message", f + ".message");
  const bool judged = verdict != "SKIP" && verdict != "ERROR";
  const uint64_t trials = c.count(r, "trials", f + ".trials", judged ? 1 : 0, 1000);
  c.count(r, "worst_trial", f + ".worst_trial", 0, trials ? trials - 1 : 0);
  c.count(r, "required_bytes", f + ".required_bytes", 0);
  c.count(r, "actual_bytes", f + ".actual_bytes", 0);
  const json& v = c.object(r, "verification", f + ".verification");
  c.boolean(v, "pass", f + ".verification.pass");
  const json& tensors = c.array(v, "tensors", f + ".verification.tensors");
  for (size_t i = 0; i < tensors.size(); ++i)
    check_tensor(c, tensors[i], f + ".verification.tensors[" + std::to_string(i) + "]");
  const json& inv = c.object(r, "invariants", f + ".invariants");
  c.boolean(inv, "pass", f + ".invariants.pass");
  for (const char* k : {"worst_sum_violation", "worst_xhat_violation", "worst_bias_violation"})
    c.number(inv, k, f + ".invariants." + k, -std::numeric_limits<double>::infinity(), true);
  c.string(inv, "failure", f + ".invariants.failure");
  c.boolean(r, "checked_after_timing", f + ".checked_after_timing");
  if (r.contains("failed_after_timing"))
    c.boolean(r, "failed_after_timing", f + ".failed_after_timing");
  c.boolean(r, "bitwise_reproducible", f + ".bitwise_reproducible", true);
  c.boolean(r, "declared_deterministic", f + ".declared_deterministic");
  if (r.contains("device")) c.string(r, "device", f + ".device");
  if (r.contains("device_copy_gbps"))
    c.number(r, "device_copy_gbps", f + ".device_copy_gbps", 0, true);
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
  std::map<std::string, std::string> seen;  // problem/variant -> the first entry's field
  for (size_t i = 0; i < benchmarks.size(); ++i) {
    const std::string f = "benchmarks[" + std::to_string(i) + "]";
    if (!benchmarks[i].is_object()) c.fail(f, &benchmarks[i], "must be an object");
    if (!benchmarks[i].contains("gnbench")) continue;
    const json& r = benchmarks[i].at("gnbench");
    check_record(c, r, f + ".gnbench");
    ++records;
    // One entry per problem/variant: with two, compare and show would each pick one silently.
    const json name =
        r.at("problem").at("name").get<std::string>() + "/" + r.at("variant").get<std::string>();
    if (auto [it, fresh] = seen.try_emplace(name.get<std::string>(), f); !fresh)
      c.fail(f + ".gnbench", &name, "the entry is already " + it->second);
  }
  // A finished run always has entries: an empty complete file would compare as "no change".
  if (records == 0 && g.value("complete", json(true)) == json(true))
    c.fail("benchmarks", nullptr, "no gnbench entries in a run marked complete");
}

RunRecords read_results_file(const std::filesystem::path& path) {
  // Gzipped files (as stored under results/) are read as they are; one bound applies to the
  // stored bytes and to the text they inflate to.
  const json doc = parse_json_document(
      gunzip_if_compressed(read_input_file(path.string(), "results file", kMaxResultsBytes),
                           path.string(), kMaxResultsBytes),
      path.string());
  validate_results_document(doc, path.string());
  return results_from_json(doc, path.string());
}

}  // namespace gnbench
