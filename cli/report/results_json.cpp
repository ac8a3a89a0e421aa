#include "cli/report/results_json.hpp"

#include <limits>

#include "base/errors.hpp"
#include "base/json_document.hpp"
#include "cli/report/best_variants.hpp"
#include "cli/report/stopping_json.hpp"

namespace gnbench {

using nlohmann::json;

namespace {

// JSON has no Inf/NaN: nlohmann writes them as null, and they come back as NaN here
// (an invariant violation of +inf, a worst value that was never written).
double number(const json& j, const char* key) {
  const json& v = j.at(key);
  return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}

json to_json(const TensorFailure& f) {
  json kinds = json::array();
  if (f.error) kinds.push_back("error");
  if (f.nonfinite) kinds.push_back("nonfinite");
  if (f.unwritten) kinds.push_back("unwritten");
  json j{{"kinds", kinds}};
  if (f.max_scaled) j["max_scaled"] = *f.max_scaled;
  if (f.l2_rel) j["l2_rel"] = *f.l2_rel;
  return j;
}

TensorFailure tensor_failure_from_json(const json& j) {
  TensorFailure f;
  for (const auto& k : j.at("kinds")) {
    f.error = f.error || k == "error";
    f.nonfinite = f.nonfinite || k == "nonfinite";
    f.unwritten = f.unwritten || k == "unwritten";
  }
  if (j.contains("max_scaled")) f.max_scaled = j.at("max_scaled").get<double>();
  if (j.contains("l2_rel")) f.l2_rel = j.at("l2_rel").get<double>();
  return f;
}

json problem_to_json(const Problem& p) {
  auto tol = [](const TensorTolerance& t) {
    return json{{"l2_rel", t.l2_rel}, {"max_scaled", t.max_scaled}};
  };
  json j{{"name", p.name},
         {"batch", p.shape.batch},
         {"channels", p.shape.channels},
         {"spatial", p.shape.spatial},
         {"groups", p.shape.groups},
         {"eps", p.eps},
         {"seed", p.seed},
         {"distribution", {{"kind", p.distribution.kind}, {"param", p.distribution.param}}},
         {"tolerances",
          {{"grad_input", tol(p.tolerances.grad_input)},
           {"grad_weight", tol(p.tolerances.grad_weight)},
           {"grad_bias", tol(p.tolerances.grad_bias)}}}};
  if (p.expect.declared()) {
    j["expect"] = {{"verdict", outcome_name(p.expect.outcome)},
                   {"reason", p.expect.reason},
                   {"variants", p.expect.variants}};
    for (const auto& [tensor, f] : p.expect.tensors) j["expect"]["tensors"][tensor] = to_json(f);
  }
  return j;
}

Problem problem_from_json(const json& j) {
  Problem p;
  p.name = j.at("name");
  p.shape = {j.at("batch"), j.at("channels"), j.at("spatial"), j.at("groups")};
  p.eps = j.at("eps").get<float>();
  p.seed = j.at("seed");
  p.distribution = {j.at("distribution").at("kind"), j.at("distribution").at("param")};
  auto tol = [](const json& t) { return TensorTolerance{t.at("l2_rel"), t.at("max_scaled")}; };
  const json& t = j.at("tolerances");
  p.tolerances = {tol(t.at("grad_input")), tol(t.at("grad_weight")), tol(t.at("grad_bias"))};
  if (j.contains("expect"))
    p.expect = {expectation_outcome(j["expect"].value("verdict", "fail"))
                    .value_or(Expectation::Outcome::kFail),
                j["expect"].at("reason"),
                j["expect"].at("variants").get<std::vector<std::string>>()};
  if (j.contains("expect") && j["expect"].contains("tensors"))  // absent in older files
    for (const auto& [tensor, f] : j["expect"]["tensors"].items())
      p.expect.tensors[tensor] = tensor_failure_from_json(f);
  return p;
}

json tensor_to_json(const TensorMetrics& t) {
  return {{"tensor", t.tensor},       {"elements", t.elements},   {"max_abs", t.max_abs},
          {"max_rel", t.max_rel},     {"l2_rel", t.l2_rel},       {"max_scaled", t.max_scaled},
          {"nonfinite", t.nonfinite}, {"unwritten", t.unwritten}, {"worst", t.worst.str()},
          {"worst_gpu", t.worst_gpu}, {"worst_ref", t.worst_ref}, {"pass", t.pass},
          {"failure", t.failure}};
}

TensorMetrics tensor_from_json(const json& j) {
  TensorMetrics t;
  t.tensor = j.at("tensor");
  t.elements = j.at("elements");
  t.max_abs = number(j, "max_abs");
  t.max_rel = number(j, "max_rel");
  t.l2_rel = number(j, "l2_rel");
  t.max_scaled = number(j, "max_scaled");
  t.nonfinite = j.at("nonfinite");
  t.unwritten = j.at("unwritten");
  t.worst_gpu = number(j, "worst_gpu");
  t.worst_ref = number(j, "worst_ref");
  t.pass = j.at("pass");
  t.failure = j.at("failure");
  return t;
}

// kMaxStoredSamples: enough for compare's rank test, small enough that a run of fast kernels
// (thousands of samples each) stays a few MB.
std::vector<double> stored_samples(const std::vector<double>& all) {
  if (all.size() <= kMaxStoredSamples) return all;
  std::vector<double> kept;
  for (size_t i = 0; i < kMaxStoredSamples; ++i)
    kept.push_back(all[i * all.size() / kMaxStoredSamples]);
  return kept;
}

json timing_to_json(const TimingResult& t) {
  json stages = json::array();
  for (size_t i = 0; i < t.stages.size(); ++i)
    stages.push_back({{"name", t.stage_names[i]}, {"ns", to_json(t.stages[i])}});
  json j = {{"mode", t.mode},     {"ns", to_json(t.total)},
            {"stages", stages},   {"noise_target_reached", t.noise_target_reached},
            {"wall_s", t.wall_s}, {"samples_ns", stored_samples(t.samples_ns)}};
  add_stopping_json(j, t);
  return j;
}

TimingResult timing_from_json(const json& j) {
  TimingResult t;
  t.mode = j.at("mode");
  t.total = statistics_from_json(j.at("ns"));
  for (const auto& s : j.at("stages")) {
    t.stage_names.push_back(s.at("name"));
    t.stages.push_back(statistics_from_json(s.at("ns")));
  }
  t.noise_target_reached = j.at("noise_target_reached");
  t.wall_s = j.at("wall_s");
  t.samples_ns = j.at("samples_ns").get<std::vector<double>>();
  read_stopping_json(j, t);
  return t;
}

json entry_to_json(const EntryRecord& e) {
  json tensors = json::array();
  for (const auto& t : e.verification.tensors) tensors.push_back(tensor_to_json(t));
  json j{{"problem", problem_to_json(e.problem)},
         {"variant", e.variant},
         {"verdict", verdict_name(e.verdict)},
         {"message", e.message},
         {"trials", e.trials},
         {"worst_trial", e.worst_trial},
         {"verification", {{"pass", e.verification.pass}, {"tensors", tensors}}},
         {"invariants",
          {{"pass", e.invariants.pass},
           {"worst_sum_violation", e.invariants.worst_sum_violation},
           {"worst_xhat_violation", e.invariants.worst_xhat_violation},
           {"worst_bias_violation", e.invariants.worst_bias_violation},
           {"failure", e.invariants.failure}}},
         {"checked_after_timing", e.checked_after_timing},
         {"failed_after_timing", e.failed_after_timing},
         {"bitwise_reproducible",
          e.bitwise_reproducible ? json(*e.bitwise_reproducible) : json(nullptr)},
         {"declared_deterministic", e.declared_deterministic},
         {"required_bytes", e.required_bytes},
         {"actual_bytes", e.actual_bytes}};
  if (!e.device.empty()) {
    j["device"] = e.device;
    j["device_copy_gbps"] = e.device_copy_gbps;
  }
  if (const TimingResult* t = e.headline(); t && t->throughput.gbps > 0) {
    const Throughput& f = t->throughput;
    j["gbps_required"] = f.gbps;
    if (e.actual_bytes) j["gbps_actual"] = f.actual_gbps;
    if (f.pct_copy > 0) {
      j["pct_copy_required"] = f.pct_copy;
      if (e.actual_bytes) j["pct_copy_actual"] = f.pct_copy_actual;
    }
  }
  if (e.cold) j["cold"] = timing_to_json(*e.cold);
  if (e.hot) j["hot"] = timing_to_json(*e.hot);
  return j;
}

EntryRecord entry_from_json(const json& j) {
  EntryRecord e;
  e.problem = problem_from_json(j.at("problem"));
  e.variant = j.at("variant");
  e.verdict = verdict_from_name(j.at("verdict"));
  e.message = j.at("message");
  e.trials = j.at("trials");
  e.worst_trial = j.at("worst_trial");
  e.verification.pass = j.at("verification").at("pass");
  for (const auto& t : j.at("verification").at("tensors"))
    e.verification.tensors.push_back(tensor_from_json(t));
  const json& inv = j.at("invariants");
  e.invariants.pass = inv.at("pass");
  e.invariants.worst_sum_violation = number(inv, "worst_sum_violation");
  e.invariants.worst_xhat_violation = number(inv, "worst_xhat_violation");
  e.invariants.worst_bias_violation = number(inv, "worst_bias_violation");
  e.invariants.failure = inv.at("failure");
  e.checked_after_timing = j.at("checked_after_timing");
  e.failed_after_timing = j.value("failed_after_timing", false);
  if (!j.at("bitwise_reproducible").is_null())
    e.bitwise_reproducible = j["bitwise_reproducible"].get<bool>();
  e.declared_deterministic = j.at("declared_deterministic");
  e.required_bytes = j.at("required_bytes");
  e.actual_bytes = j.at("actual_bytes");
  if (j.contains("device")) {
    e.device = j["device"];
    e.device_copy_gbps = j.contains("device_copy_gbps") ? number(j, "device_copy_gbps") : 0;
  }
  if (j.contains("cold")) e.cold = timing_from_json(j["cold"]);
  if (j.contains("hot")) e.hot = timing_from_json(j["hot"]);
  return e;
}

// Google Benchmark's per-repetition and aggregate entries for one timing mode.
void append_benchmark_entries(json& out, const std::string& name, const TimingResult* t,
                              uint64_t bytes, int family, json gnbench_record,
                              bool per_sample_rows) {
  auto base = [&](const std::string& entry_name, const std::string& run_type) {
    return json{{"name", entry_name}, {"family_index", family}, {"per_family_instance_index", 0},
                {"run_name", name},   {"run_type", run_type},   {"threads", 1},
                {"time_unit", "us"}};
  };
  const std::vector<double> samples = t ? stored_samples(t->samples_ns) : std::vector<double>{};
  const size_t n = samples.size();
  for (size_t i = 0; per_sample_rows && i < n; ++i) {
    json j = base(name, "iteration");
    double us = samples[i] / 1e3;
    j.update({{"repetitions", n},
              {"repetition_index", i},
              {"iterations", 1},
              {"real_time", us},
              {"cpu_time", us},
              {"bytes_per_second", double(bytes) / (us * 1e-6)}});
    out.push_back(j);
  }
  auto aggregate = [&](const std::string& agg, double value_us, bool is_time) {
    json j = base(name + "_" + agg, "aggregate");
    j.update({{"aggregate_name", agg},
              {"aggregate_unit", is_time ? "time" : "percentage"},
              {"repetitions", n},
              {"iterations", n},
              {"real_time", value_us},
              {"cpu_time", value_us}});
    if (is_time && value_us > 0) j["bytes_per_second"] = double(bytes) / (value_us * 1e-6);
    return j;
  };
  if (n) out.push_back(aggregate("mean", t->total.mean / 1e3, true));
  json median = aggregate("median", t ? t->total.median / 1e3 : 0.0, true);
  if (!gnbench_record.is_null()) median["gnbench"] = std::move(gnbench_record);
  out.push_back(median);
  if (n) {
    out.push_back(aggregate("stddev", t->total.stdev / 1e3, true));
    out.push_back(aggregate("cv", t->total.rel_noise, false));
  }
}

}  // namespace

json results_to_json(const RunRecords& records, bool per_sample_rows) {
  const RunContext& c = records.context;
  json context{{"date", c.date},
               {"host_name", c.host_name},
               {"executable", "gnbench"},
               {"num_cpus", 0},
               {"mhz_per_cpu", 0},
               {"cpu_scaling_enabled", false},
               {"caches", json::array()},
               {"library_build_type", c.build_type == "Debug" ? "debug" : "release"},
               {"json_schema_version", 1},
               {"gnbench",
                {{"schema_version", kResultsSchemaVersion},
                 {"version", c.gnbench_version},
                 {"git_revision", c.git_revision},
                 {"build_type", c.build_type},
                 {"command_line", c.command_line},
                 {"device", c.device},
                 {"device_fingerprint", c.device_fingerprint},
                 {"copy_bandwidth", c.copy_bandwidth},
                 {"validation", c.validation},
                 {"validation_messages", c.validation_messages},
                 {"complete", c.complete},
                 {"configs", c.configs},
                 {"timing_mode", c.timing_mode}}}};
  // Only when set, so that unsharded, unmerged files keep their layout.
  if (!c.shard.empty()) context["gnbench"]["shard"] = c.shard;
  if (!c.merged_from.empty()) context["gnbench"]["merged_from"] = c.merged_from;
  if (!c.dispatch_choices.empty()) context["gnbench"]["dispatch_choices"] = c.dispatch_choices;
  if (const auto best = best_variants(records); !best.empty())
    context["gnbench"]["best_variants"] = best_variants_json(best);
  if (!c.pipeline_statistics.empty())
    context["gnbench"]["pipeline_statistics"] = c.pipeline_statistics;
  json benchmarks = json::array();
  int family = 0;
  for (const auto& e : records.entries) {
    const TimingResult* headline = e.headline();
    append_benchmark_entries(benchmarks, e.name(), headline, e.required_bytes, family,
                             entry_to_json(e), per_sample_rows);
    if (e.cold && e.hot)
      append_benchmark_entries(benchmarks, e.name() + "/hot", &*e.hot, e.required_bytes, family,
                               nullptr, per_sample_rows);
    ++family;
  }
  return {{"context", context}, {"benchmarks", benchmarks}};
}

RunRecords results_from_json(const json& doc, const std::string& source) {
  if (!doc.is_object() || !doc.contains("context") || !doc["context"].contains("gnbench") ||
      !doc.contains("benchmarks"))
    throw ConfigError(source + ": not a gnbench results file (no context.gnbench / benchmarks)");
  const json& g = doc["context"]["gnbench"];
  const json version = g.value("schema_version", json(0));
  if (version != json(kResultsSchemaVersion))
    throw ConfigError(source + ": results schema version " + version.dump() +
                      ", this gnbench reads version " + std::to_string(kResultsSchemaVersion));
  RunRecords r;
  std::string where = "context";  // what is being read: named in the error
  try {
    RunContext& c = r.context;
    c.date = doc["context"].value("date", "");
    c.host_name = doc["context"].value("host_name", "");
    auto at = [&](const char* key) -> const json& {
      where = std::string("context.gnbench.") + key;
      return g.at(key);
    };
    c.gnbench_version = at("version");
    c.git_revision = at("git_revision");
    c.build_type = at("build_type");
    c.command_line = at("command_line");
    c.device = at("device");
    c.device_fingerprint = at("device_fingerprint");
    c.copy_bandwidth = at("copy_bandwidth");
    c.copy_gbps = c.copy_bandwidth.is_object() ? c.copy_bandwidth.value("gbps", 0.0) : 0.0;
    c.validation = at("validation");
    where = "context.gnbench";
    c.validation_messages = g.value("validation_messages", uint64_t{0});
    c.complete = at("complete");
    c.configs = at("configs").get<std::vector<std::string>>();
    c.timing_mode = at("timing_mode");
    where = "context.gnbench";
    c.shard = g.value("shard", "");
    c.merged_from = g.value("merged_from", std::vector<std::string>{});
    c.pipeline_statistics = g.value("pipeline_statistics", nlohmann::json::object());
    c.dispatch_choices = g.value("dispatch_choices", nlohmann::json::object());
    const json& benchmarks = doc["benchmarks"];
    if (!benchmarks.is_array()) throw ConfigError(source + ": field 'benchmarks' must be an array");
    for (size_t i = 0; i < benchmarks.size(); ++i) {
      where = "benchmarks[" + std::to_string(i) + "].gnbench";
      const json& b = benchmarks[i];
      if (b.is_object() && b.contains("gnbench"))
        r.entries.push_back(entry_from_json(b["gnbench"]));
    }
  } catch (const json::exception& e) {
    throw ConfigError(source + ": malformed gnbench results in " + where + ": " +
                      printable(e.what()));
  } catch (const std::invalid_argument& e) {
    throw ConfigError(source + ": malformed gnbench results in " + where + ": " +
                      printable(e.what()));
  }
  derive_figures(r);
  return r;
}

}  // namespace gnbench
