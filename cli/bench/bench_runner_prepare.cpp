// BenchRunner before any entry runs: the variants chosen, the problems checked against the
// device, the plan, the run's context, the pipelines compiled and each problem's entries.
#include <optional>
#include <set>

#include "base/errors.hpp"
#include "base/parallel_for.hpp"
#include "cli/bench/bench_runner.hpp"
#include "cli/bench/entry_error.hpp"
#include "cli/config/device_fit.hpp"
#include "cli/config/name_patterns.hpp"
#include "kernels/runtime/variant_checks.hpp"
#include "kernels/runtime/vulkan_context.hpp"

namespace gnbench {
namespace {

uint64_t required_bytes(const Shape& s) {
  return 4 * (3 * s.elements() + 3 * uint64_t{s.channels});
}

}  // namespace

BenchRunner::BenchRunner(BenchOptions options) : options_(std::move(options)) {
  manifests_ = load_manifests(options_.kernel_folders);
  if (options_.variants.empty()) {
    for (const auto& v : manifests_) selected_.push_back(&v);
  } else {
    std::vector<std::string> names;
    for (const auto& v : manifests_) names.push_back(v.name);
    for (size_t i : select_by_patterns(names, options_.variants, "--variant", "variants"))
      selected_.push_back(&manifests_[i]);
  }
  ctx_ = std::make_unique<VulkanContext>(options_.context);
}

BenchRunner::~BenchRunner() = default;

std::string BenchRunner::choose_for(const Problem& problem, nlohmann::json& choices) const {
  if (!options_.choose) return "";
  auto admits = [&](const std::string& name) {
    for (const VariantSpec* v : selected_)
      if (v->name == name) return not_applicable_reason(*v, problem.shape, ctx_->info()).empty();
    return false;
  };
  auto [variant, how] = options_.choose(problem.shape, admits);
  choices[problem.name] = {{"variant", variant}, {"how", how}};
  return variant.empty() ? kNoChoice : variant;
}

void BenchRunner::check_problems(const std::vector<Problem>& problems,
                                 const std::string& source) const {
  std::set<std::string> names;
  for (const auto& p : problems) {
    if (!names.insert(p.name).second)
      throw ConfigError(source + ": problem '" + p.name + "' appears twice");
    uint64_t extra = 0;
    for (const VariantSpec* v : selected_) {
      // Every expression of every entry, now: a bad one must not end the run half way.
      try {
        check_variant_expressions(*v, p.shape, ctx_->info());
      } catch (const ConfigError& e) {
        throw ConfigError(std::string(e.what()) + " (on problem '" + p.name + "')");
      }
    }
    for (const VariantSpec* v : selected_)
      if (not_applicable_reason(*v, p.shape, ctx_->info()).empty())
        extra =
            std::max(extra, variant_extra_bytes(*v, p.shape, ctx_->info().limits.subgroup_size));
    validate_against_device(p, ctx_->info().limits, extra, source);
  }
}

std::vector<PlannedEntry> BenchRunner::plan(const std::vector<Problem>& problems) const {
  std::vector<PlannedEntry> out;
  nlohmann::json choices;  // --variant best: what the run would choose, per problem
  for (const Problem& p : problems) {
    const std::string chosen = choose_for(p, choices);
    for (const VariantSpec* v : selected_) {
      std::string reason = not_applicable_reason(*v, p.shape, ctx_->info());
      if (reason.empty() && !chosen.empty() && v->name != chosen) reason = kNotChosen;
      out.push_back({p, v->name, reason});
    }
  }
  return out;
}

RunContext BenchRunner::run_context() const {
  RunContext c;
  c.device = ctx_->info().to_json();
  c.device_fingerprint = ctx_->info().fingerprint();
  c.validation = ctx_->validation_enabled();
  c.timing_mode = !options_.timing                ? "none"
                  : options_.cold && options_.hot ? "cold+hot"
                  : options_.cold                 ? "cold"
                                                  : "hot";
  // Stage timestamps add pipeline drains to the totals: such totals are not like for like.
  if (options_.timing && options_.stage_times) c.timing_mode += "+stage-times";
  // Hot samples of several runs each lack the drain around every run: not like for like either.
  if (options_.timing && options_.hot && options_.hot_batch > 1)
    c.timing_mode += "+hot-batch" + std::to_string(options_.hot_batch);
  if (options_.timing && options_.cold && options_.flush == FlushMethod::kFill)
    c.timing_mode += "+fill-flush";
  return c;
}

// Compiled once per runner: the shrinker calls run() again and again on small problems.
// Variants compile in parallel (shaderc and pipeline creation are thread-safe; each call has
// its own compiler); errors are then taken in variant order, as a sequential loop would. A
// pipeline the driver fails to create is that variant's ERROR; the run goes on. A stop is
// looked at before each variant: all of them take seconds to tens of seconds on a CPU device,
// one at most a second or two, so Ctrl-C during compilation is not kept waiting.
bool BenchRunner::compile_variants(const std::atomic<bool>* stop) {
  if (!compiled_.empty()) return true;
  const size_t count = selected_.size();
  std::vector<std::optional<CompiledVariant>> built(count);
  std::vector<std::exception_ptr> failed(count);
  const auto stopped = [stop] { return stop && stop->load(); };
  parallel_for(static_cast<int64_t>(count), kHeavyWork, [&](int64_t v) {
    if (stopped()) return;
    try {
      built[v].emplace(compile_variant(*ctx_, *selected_[v]));
    } catch (...) {
      failed[v] = std::current_exception();
    }
  });
  if (stopped()) return false;
  compile_errors_.assign(count, std::string());
  for (size_t v = 0; v < count; ++v) {
    if (!failed[v]) {
      compiled_.push_back(std::move(*built[v]));
      continue;
    }
    compiled_.push_back(CompiledVariant{selected_[v], {}});
    try {
      compile_errors_[v] = "creating the pipeline: " +
                           entry_error_message(failed[v], *ctx_, "creating the pipelines");
    } catch (const ConfigError&) {
      compiled_.clear();
      throw;  // the shader itself is wrong: a configuration error, before any work
    }
  }
  return true;
}

std::vector<EntryRecord> BenchRunner::new_entries(const Problem& problem,
                                                  const std::string& chosen) const {
  std::vector<EntryRecord> entries(selected_.size());
  for (size_t v = 0; v < selected_.size(); ++v) {
    EntryRecord& e = entries[v];
    e.problem = problem;
    e.variant = selected_[v]->name;
    e.declared_deterministic = selected_[v]->deterministic;
    e.required_bytes = required_bytes(problem.shape);
    if (selected_[v]->traffic_bytes)
      e.actual_bytes = selected_[v]->traffic_bytes->evaluate(
          problem_variables(problem.shape, ctx_->info().limits.subgroup_size));
    e.message = not_applicable_reason(*selected_[v], problem.shape, ctx_->info());
    if (!chosen.empty() && e.variant != chosen) e.message = kNotChosen;
    e.verdict = e.message.empty() ? Verdict::kPass : Verdict::kSkipped;
    if (e.verdict == Verdict::kPass && !compile_errors_[v].empty()) {
      e.verdict = Verdict::kError;
      e.message = compile_errors_[v];
    }
  }
  return entries;
}

}  // namespace gnbench
