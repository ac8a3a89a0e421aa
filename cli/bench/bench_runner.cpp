#include "bench/bench_runner.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <iostream>
#include <optional>
#include <set>

#include "bench/dump.hpp"
#include "bench/input_guard.hpp"
#include "bench/output_hash.hpp"
#include "config/config_error.hpp"
#include "config/config_loader.hpp"
#include "config/name_patterns.hpp"
#include "inputs/input_generator.hpp"
#include "reference/group_norm.hpp"
#include "reference/parallel_for.hpp"
#include "runtime/bandwidth_probe.hpp"
#include "runtime/variant_checks.hpp"
#include "runtime/variant_runner.hpp"
#include "runtime/vulkan_context.hpp"
#include "verify/expectation_match.hpp"

namespace gnbench {

namespace {

// Worse = failing before passing, then the larger scaled error.
bool worse(const VerificationResult& a, const VerificationResult& b) {
  if (a.pass != b.pass) return !a.pass;
  auto worst = [](const VerificationResult& v) {
    double w = 0;
    for (const auto& t : v.tensors) w = std::max(w, t.max_scaled);
    return w;
  };
  return worst(a) > worst(b);
}

uint64_t required_bytes(const Shape& s) {
  return 4 * (3 * s.elements() + 3 * uint64_t{s.channels});
}

// What an entry's failure has beyond what its problem's expectation declares ("" if nothing).
std::string undeclared_failure(const EntryRecord& e) {
  if (!e.input_write.empty()) return "it wrote into an input";
  if (e.bitwise_reproducible == false && e.declared_deterministic)
    return "declared deterministic, but two runs differ bitwise";
  return undeclared_failure(e.problem.expect, e.problem.tolerances, e.verification, e.invariants);
}

// Expected failures turn FAIL into XFAIL, and PASS into XPASS unless declared may_fail. A
// failure the expectation does not declare stays FAIL.
void apply_expectation(EntryRecord& e) {
  if (!e.problem.expect.applies_to(e.variant)) return;
  if (e.verdict == Verdict::kFail) {
    const std::string other = undeclared_failure(e);
    if (!other.empty()) {
      e.message = "not the declared failure (" + other + "): " + e.message;
      return;
    }
    e.verdict = Verdict::kXFail;
    e.message = "expected failure (" + e.problem.expect.reason + "): " + e.message;
  } else if (e.verdict == Verdict::kPass &&
             e.problem.expect.outcome == Expectation::Outcome::kFail) {
    e.verdict = Verdict::kXPass;
    e.message = "unexpected pass: declared expected to fail (" + e.problem.expect.reason + ")";
  }
}

// The verdict of an entry that ran: input writes, verification, invariants, determinism, then
// expectations.
void judge(EntryRecord& e) {
  if (e.verdict == Verdict::kPass) {
    bool ok = e.verification.pass && e.invariants.pass;
    if (!e.input_write.empty()) {
      e.verdict = Verdict::kFail;
      e.message = e.input_write;
    } else if (!ok) {
      e.verdict = Verdict::kFail;
      e.message = !e.verification.pass
                      ? (e.failed_after_timing ? "after timing: " : "") + e.verification.summary()
                      : "invariant violated: " + e.invariants.failure;
    } else if (e.bitwise_reproducible == false && e.declared_deterministic) {
      e.verdict = Verdict::kFail;
      e.message = "declared deterministic, but two runs on the same inputs differ bitwise";
    }
  }
  if (e.verdict == Verdict::kError && !e.input_write.empty()) e.message += "; " + e.input_write;
  apply_expectation(e);
}

// A variant that failed mid-run may have written into the inputs too: the next one must not
// see that. When even the check fails, no later entry can be trusted to the original inputs.
void restore_after_error(InputGuard& guard, EntryRecord& e, VulkanContext& ctx) {
  if (ctx.lost()) return;
  try {
    guard.check_and_restore(e.input_write, "before its error");
  } catch (const std::exception& ex) {
    if (!ctx.lost())
      ctx.mark_lost(std::string("restoring the inputs after an error: ") + ex.what());
  }
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
  for (const Problem& p : problems)
    for (const VariantSpec* v : selected_)
      out.push_back({p, v->name, not_applicable_reason(*v, p.shape, ctx_->info())});
  return out;
}

RunRecords BenchRunner::run(const std::vector<Problem>& problems, const Progress& progress,
                            const std::atomic<bool>* stop,
                            const std::function<void(const RunRecords&)>& on_abandon) {
  RunRecords records;
  // A timed entry after the GPU sat idle (the run's first, or one after a long CPU-side step)
  // keeps it busy first: an idle H200 drops its clocks within ~3 s (SamplingOptions).
  using Clock = std::chrono::steady_clock;
  constexpr std::chrono::seconds kIdleGap{2};
  std::optional<Clock::time_point> last_sampled;
  ctx_->set_abandon_handler([&] {
    RunRecords partial = records;
    partial.context.complete = false;
    partial.context.validation_messages = ctx_->validation_messages();
    if (on_abandon) on_abandon(partial);
  });
  records.context.device = ctx_->info().to_json();
  records.context.device_fingerprint = ctx_->info().fingerprint();
  records.context.validation = ctx_->validation_enabled();
  records.context.timing_mode = !options_.timing                ? "none"
                                : options_.cold && options_.hot ? "cold+hot"
                                : options_.cold                 ? "cold"
                                                                : "hot";
  // Stage timestamps add pipeline drains to the totals: such totals are not like for like.
  if (options_.timing && options_.stage_times) records.context.timing_mode += "+stage-times";
  if (options_.timing && options_.cold && options_.flush == FlushMethod::kFill)
    records.context.timing_mode += "+fill-flush";

  // Shaders first: a shader that does not compile is a configuration error, found before the
  // seconds the copy-bandwidth probe takes.
  // Compiled once per runner: the shrinker calls run() again and again on small problems.
  // A pipeline the driver fails to create is that variant's ERROR; the run goes on.
  // Variants compile in parallel (shaderc and pipeline creation are thread-safe; each call has
  // its own compiler); errors are then taken in variant order, as a sequential loop would.
  if (compiled_.empty()) {
    const size_t count = selected_.size();
    std::vector<std::optional<CompiledVariant>> built(count);
    std::vector<std::exception_ptr> failed(count);
    parallel_for(static_cast<int64_t>(count), kHeavyWork, [&](int64_t v) {
      try {
        built[v].emplace(compile_variant(*ctx_, *selected_[v]));
      } catch (...) {
        failed[v] = std::current_exception();
      }
    });
    compile_errors_.assign(count, std::string());
    for (size_t v = 0; v < count; ++v) {
      try {
        if (failed[v]) std::rethrow_exception(failed[v]);
        compiled_.push_back(std::move(*built[v]));
      } catch (const ConfigError&) {
        compiled_.clear();
        throw;  // the shader itself is wrong: a configuration error, before any work
      } catch (const std::exception& ex) {  // vk::SystemError, out of memory, ...
        compiled_.push_back(CompiledVariant{selected_[v], {}});
        compile_errors_[v] = std::string("creating the pipeline: ") + ex.what();
      }
    }
  }
  const std::vector<CompiledVariant>& compiled = compiled_;
  const std::vector<std::string>& compile_error = compile_errors_;
  for (const CompiledVariant& c : compiled)
    for (size_t s = 0; s < c.stages.size(); ++s)
      if (!c.stages[s]->statistics().empty())
        records.context.pipeline_statistics[c.spec->name][c.spec->stages[s].name] =
            c.stages[s]->statistics();

  // The copy probe runs before the entries and again after them, each over several fresh
  // buffer pairs; the highest reading counts (nothing copies faster than the device can).
  // On the H200 a copy runs at ~4200 or ~1720 GB/s, changing between buffer pairs and
  // probes (runs 12-19); a single reading could not tell that from a slow device.
  // --copy-bandwidth GBPS stands in for the probe (sweeps need not pay for it at every point).
  const bool probe = options_.timing && options_.measure_copy_bandwidth && !options_.copy_gbps;
  if (options_.timing && options_.copy_gbps) {
    records.context.copy_gbps = *options_.copy_gbps;
    records.context.copy_bandwidth = {{"gbps", *options_.copy_gbps}, {"source", "given"}};
  }
  std::vector<CopyBandwidth> probes;
  auto record_probe = [&] {
    probes.push_back(measure_copy_bandwidth(*ctx_, options_.kernel_folders.front()));
    auto best = std::max_element(
        probes.begin(), probes.end(),
        [](const CopyBandwidth& a, const CopyBandwidth& b) { return a.gbps < b.gbps; });
    nlohmann::json readings = nlohmann::json::array(), pairs = nlohmann::json::array();
    for (const auto& p : probes) {
      readings.push_back(p.gbps);
      pairs.push_back(p.pairs_gbps);
    }
    records.context.copy_gbps = best->gbps;
    records.context.copy_bandwidth = {{"gbps", best->gbps},
                                      {"source", "measured"},
                                      {"bytes_per_copy", best->bytes_per_copy},
                                      {"time_ns", to_json(best->time_ns)},
                                      {"probes_gbps", readings},
                                      {"pairs_gbps", pairs}};
  };
  if (probe) {
    progress("measuring copy bandwidth", 0, problems.size() * selected_.size());
    record_probe();
  }

  // One flush buffer for the whole run, allocated before the problems' buffers.
  std::unique_ptr<CacheFlush> flush;
  if (options_.timing && options_.cold)
    flush = std::make_unique<CacheFlush>(*ctx_, options_.kernel_folders.front(), options_.flush);

  // A --dump write that fails (disk full, permissions) is reported as that, once; it is not
  // the kernel's failure and the run goes on without dumping.
  bool dumping = options_.dump_dir.has_value();
  auto dump = [&](const std::function<void()>& write) {
    if (!dumping) return;
    try {
      write();
    } catch (const std::exception& ex) {
      dumping = false;
      records.context.dump_error = ex.what();
      std::cerr << "gnbench: error: --dump: " << ex.what() << " (no more dumps; the run goes on)\n";
    }
  };

  Transfer transfer(*ctx_);
  const size_t total = problems.size() * selected_.size();
  for (const Problem& problem : problems) {
    const std::string chosen = choose_for(problem, records.context.dispatch_choices);
    if (chosen == kNoChoice) {
      EntryRecord none;
      none.problem = problem;
      none.variant = "best";
      none.message = "no variant of the dispatch table admits this shape on this device";
      records.entries.push_back(std::move(none));
      continue;
    }
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
      if (!chosen.empty() && e.variant != chosen) e.message = "not chosen";
      e.verdict = e.message.empty() ? Verdict::kPass : Verdict::kSkipped;
      if (e.verdict == Verdict::kPass && !compile_error[v].empty()) {
        e.verdict = Verdict::kError;
        e.message = compile_error[v];
      }
    }

    // Judged and reported as soon as its last trial is done (skips are not reported).
    std::vector<bool> finished(entries.size(), false);
    auto finish = [this](EntryRecord& e) {
      judge(e);
      if (on_finished_ && e.verdict != Verdict::kSkipped) on_finished_(e);
    };
    // Every entry still to run becomes ERROR (device lost, inputs the driver refused).
    auto fail_remaining = [&entries](const std::string& why) {
      for (auto& e : entries)
        if (e.verdict != Verdict::kSkipped && e.verdict != Verdict::kError) {
          e.verdict = Verdict::kError;
          e.message = why;
        }
    };
    for (uint32_t trial = 0; trial < options_.trials; ++trial) {
      if (stop && *stop) break;
      if (ctx_->lost()) {
        fail_remaining("not run: the device was lost earlier (" + ctx_->lost_reason() + ")");
        break;
      }
      const uint64_t seed = trial_seed(problem.seed, trial);
      Inputs inputs = generate_inputs(problem.shape, problem.distribution, seed);
      ReferenceOutputs ref = reference::backward(problem.shape, inputs, problem.eps);
      std::optional<DeviceInputs> device_inputs_storage;
      try {
        device_inputs_storage.emplace(*ctx_, transfer, inputs);
      } catch (const vk::DeviceLostError& ex) {
        ctx_->mark_lost(std::string("uploading inputs: ") + ex.what());
        fail_remaining("device lost while uploading the inputs: " + std::string(ex.what()));
        break;
      } catch (const std::runtime_error& ex) {  // e.g. the driver refused an allocation
        if (dynamic_cast<const ConfigError*>(&ex)) throw;
        fail_remaining(std::string("inputs: ") + ex.what());
        break;
      }
      const DeviceInputs& device_inputs = *device_inputs_storage;
      InputGuard input_guard(transfer, device_inputs, inputs, problem.shape);
      if (trial == 0)
        dump([&] {
          std::vector<std::string> dumped;
          for (const auto& e : entries)
            if (e.verdict != Verdict::kSkipped) dumped.push_back(e.variant);
          dump_problem(*options_.dump_dir, problem, inputs, ref, dumped);
        });

      for (size_t v = 0; v < selected_.size(); ++v) {
        EntryRecord& e = entries[v];
        if (e.verdict == Verdict::kSkipped || e.verdict == Verdict::kError) continue;
        if (stop && *stop) break;
        if (ctx_->lost()) {
          e.verdict = Verdict::kError;
          e.message = "not run: the device was lost earlier (" + ctx_->lost_reason() + ")";
          continue;
        }
        progress(problem.name + " / " + e.variant +
                     (options_.trials > 1 ? " trial " + std::to_string(trial + 1) : ""),
                 records.entries.size() + v, total);
        try {
          VariantRunner runner(*ctx_, transfer, compiled[v], problem, device_inputs);
          GpuOutputs out = runner.run_once();
          VerificationResult check = verify(problem.shape, out, ref, problem.tolerances);
          InvariantResult inv = check_invariants(problem.shape, inputs, problem.eps, out);
          if (trial == 0 || worse(check, e.verification)) {
            e.verification = check;
            e.worst_trial = trial;
            e.invariants = inv;
          } else if (!inv.pass && e.invariants.pass) {
            e.invariants = inv;
          }
          ++e.trials;
          if (trial == 0) dump([&] { dump_outputs(*options_.dump_dir, problem, e.variant, out); });
          // Compared by hash, so that a second full copy of the outputs is never held.
          const uint64_t first = trial == 0 ? output_hash(out) : 0;
          if (trial == 0) {
            out = GpuOutputs{};
            e.bitwise_reproducible = first == output_hash(runner.run_once());
          }
          // Once per variant, not per timing sample: a read-back of the inputs costs about as
          // much as one run. Timed runs are checked after them (docs/robustness.md).
          input_guard.check_and_restore(e.input_write, "during its verification runs");
          if (trial == 0) {
            if (options_.timing) {
              const bool stages = options_.stage_times;
              auto batch = [&](bool cold) {
                const CacheFlush* f = cold ? flush.get() : nullptr;
                return [&runner, f, stages](uint32_t n) { return runner.sample(n, f, stages); };
              };
              const auto names = stages ? runner.stage_names() : std::vector<std::string>{};
              auto sample_mode = [&](bool cold) {
                SamplingOptions sampling = options_.sampling;
                if (!last_sampled || Clock::now() - *last_sampled > kIdleGap)
                  sampling.device_warmup_s = options_.device_warmup_s;
                TimingResult t = measure(batch(cold), sampling, names, cold ? "cold" : "hot");
                last_sampled = Clock::now();
                return t;
              };
              if (options_.cold) e.cold = sample_mode(true);
              if (options_.hot) e.hot = sample_mode(false);
              // The timed runs must have computed the same right answer: outputs bitwise
              // those verified need no second verification.
              GpuOutputs timed = runner.read_outputs();
              VerificationResult after =
                  output_hash(timed) == first
                      ? check
                      : verify(problem.shape, timed, ref, problem.tolerances);
              e.checked_after_timing = true;
              if (!after.pass && e.verification.pass) {
                e.verification = after;
                e.failed_after_timing = true;
              }
              input_guard.check_and_restore(e.input_write, "during its timed runs");
            }
          }
        } catch (const KernelTimeout& ex) {
          e.verdict = Verdict::kError;
          e.message = ex.what();
        } catch (const vk::DeviceLostError& ex) {
          ctx_->mark_lost(e.variant + " on " + problem.name + ": " + ex.what());
          e.verdict = Verdict::kError;
          e.message = std::string("device lost: ") + ex.what();
        } catch (const vk::SystemError& ex) {
          e.verdict = Verdict::kError;
          e.message = std::string("Vulkan error: ") + ex.what();
        } catch (const std::runtime_error& ex) {
          if (dynamic_cast<const ConfigError*>(&ex)) throw;
          e.verdict = Verdict::kError;
          e.message = ex.what();
        }
        if (e.verdict == Verdict::kError) restore_after_error(input_guard, e, *ctx_);
        if (trial + 1 == options_.trials) {
          finish(e);
          finished[v] = true;
        }
      }
    }
    for (size_t v = 0; v < entries.size(); ++v) {
      EntryRecord& e = entries[v];
      // Interrupted before it ran: left out, not judged (its empty verification would read as
      // a failure and turn a Ctrl-C into exit 1 with a bogus FAIL entry).
      if (e.trials == 0 && e.verdict == Verdict::kPass) continue;
      if (!chosen.empty() && e.variant != chosen) continue;  // --variant best: only the choice
      if (!finished[v]) finish(e);
      records.entries.push_back(std::move(e));
    }
    if (stop && *stop) {
      records.context.complete = false;
      break;
    }
  }
  if (probe && !(stop && *stop)) {
    progress("measuring copy bandwidth again", records.entries.size(), total);
    record_probe();
  }
  records.context.validation_messages = ctx_->validation_messages();
  ctx_->set_abandon_handler({});  // it refers to `records`, which ends here
  progress("done", records.entries.size(), total);
  return records;
}

}  // namespace gnbench
