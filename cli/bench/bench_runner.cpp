#include "bench/bench_runner.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "bench/dump.hpp"
#include "config/config_error.hpp"
#include "config/config_loader.hpp"
#include "config/name_patterns.hpp"
#include "inputs/input_generator.hpp"
#include "reference/group_norm.hpp"
#include "runtime/bandwidth_probe.hpp"
#include "runtime/variant_runner.hpp"
#include "runtime/vulkan_context.hpp"

namespace gnbench {

namespace {

bool bitwise_equal(const GpuOutputs& a, const GpuOutputs& b) {
  auto same = [](const Eigen::ArrayXf& x, const Eigen::ArrayXf& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
  };
  return same(a.grad_input, b.grad_input) && same(a.grad_weight, b.grad_weight) &&
         same(a.grad_bias, b.grad_bias);
}

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

// Expected failures turn FAIL into XFAIL, and PASS into XPASS unless declared may_fail.
void apply_expectation(EntryRecord& e) {
  if (!e.problem.expect.applies_to(e.variant)) return;
  if (e.verdict == Verdict::kFail) {
    e.verdict = Verdict::kXFail;
    e.message = "expected failure (" + e.problem.expect.reason + "): " + e.message;
  } else if (e.verdict == Verdict::kPass &&
             e.problem.expect.outcome == Expectation::Outcome::kFail) {
    e.verdict = Verdict::kXPass;
    e.message = "unexpected pass: declared expected to fail (" + e.problem.expect.reason + ")";
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

void BenchRunner::check_problems(const std::vector<Problem>& problems,
                                 const std::string& source) const {
  std::set<std::string> names;
  for (const auto& p : problems) {
    if (!names.insert(p.name).second)
      throw ConfigError(source + ": problem '" + p.name + "' appears twice");
    uint64_t extra = 0;
    for (const VariantSpec* v : selected_)
      if (not_applicable_reason(*v, p.shape, ctx_->info()).empty())
        extra =
            std::max(extra, variant_extra_bytes(*v, p.shape, ctx_->info().limits.subgroup_size));
    validate_against_device(p, ctx_->info().limits, extra, source);
  }
}

RunRecords BenchRunner::run(const std::vector<Problem>& problems, const Progress& progress,
                            const std::atomic<bool>* stop) {
  RunRecords records;
  records.context.device = ctx_->info().to_json();
  records.context.device_fingerprint = ctx_->info().fingerprint();
  records.context.validation = ctx_->validation_enabled();
  records.context.timing_mode = !options_.timing                ? "none"
                                : options_.cold && options_.hot ? "cold+hot"
                                : options_.cold                 ? "cold"
                                                                : "hot";
  // Stage timestamps add pipeline drains to the totals: such totals are not like for like.
  if (options_.timing && options_.stage_times) records.context.timing_mode += "+stage-times";

  // Shaders first: a shader that does not compile is a configuration error, found before the
  // seconds the copy-bandwidth probe takes.
  std::vector<CompiledVariant> compiled;
  for (const VariantSpec* v : selected_) compiled.push_back(compile_variant(*ctx_, *v));
  for (const CompiledVariant& c : compiled)
    for (size_t s = 0; s < c.stages.size(); ++s)
      if (!c.stages[s]->statistics().empty())
        records.context.pipeline_statistics[c.spec->name][c.spec->stages[s].name] =
            c.stages[s]->statistics();

  // The copy probe runs before the entries and again after them, each over several fresh
  // buffer pairs; the highest reading counts (nothing copies faster than the device can).
  // On the H200 a copy runs at ~4200 or ~1720 GB/s, changing between buffer pairs and
  // probes (runs 12-19); a single reading could not tell that from a slow device.
  const bool probe = options_.timing && options_.measure_copy_bandwidth;
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
                                      {"bytes_per_copy", best->bytes_per_copy},
                                      {"time_ns", to_json(best->time_ns)},
                                      {"probes_gbps", readings},
                                      {"pairs_gbps", pairs}};
  };
  if (probe) {
    progress("measuring copy bandwidth", 0, problems.size() * selected_.size());
    record_probe();
  }

  Transfer transfer(*ctx_);
  const size_t total = problems.size() * selected_.size();
  for (const Problem& problem : problems) {
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
      e.verdict = e.message.empty() ? Verdict::kPass : Verdict::kSkipped;
    }

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
      if (trial == 0 && options_.dump_dir) {
        std::vector<std::string> dumped;
        for (const auto& e : entries)
          if (e.verdict != Verdict::kSkipped) dumped.push_back(e.variant);
        dump_problem(*options_.dump_dir, problem, inputs, ref, dumped);
      }

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
          if (trial == 0 && options_.dump_dir)
            dump_outputs(*options_.dump_dir, problem, e.variant, out);
          if (trial == 0) {
            e.bitwise_reproducible = bitwise_equal(out, runner.run_once());
            if (options_.timing) {
              const bool stages = options_.stage_times;
              auto batch = [&](bool cold) {
                return
                    [&runner, cold, stages](uint32_t n) { return runner.sample(n, cold, stages); };
              };
              const auto names = stages ? runner.stage_names() : std::vector<std::string>{};
              if (options_.cold) e.cold = measure(batch(true), options_.sampling, names, "cold");
              if (options_.hot) e.hot = measure(batch(false), options_.sampling, names, "hot");
              // The timed runs must have computed the same right answer.
              VerificationResult after =
                  verify(problem.shape, runner.read_outputs(), ref, problem.tolerances);
              e.checked_after_timing = true;
              if (!after.pass && e.verification.pass) {
                e.verification = after;
                e.failed_after_timing = true;
              }
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
      }
    }
    for (auto& e : entries) {
      // Interrupted before it ran: left out, not judged (its empty verification would read as
      // a failure and turn a Ctrl-C into exit 1 with a bogus FAIL entry).
      if (e.trials == 0 && e.verdict == Verdict::kPass) continue;
      if (e.verdict == Verdict::kPass) {
        bool ok = e.verification.pass && e.invariants.pass;
        if (!ok) {
          e.verdict = Verdict::kFail;
          e.message = !e.verification.pass ? (e.failed_after_timing ? "after timing: " : "") +
                                                 e.verification.summary()
                                           : "invariant violated: " + e.invariants.failure;
        } else if (e.bitwise_reproducible == false && e.declared_deterministic) {
          e.verdict = Verdict::kFail;
          e.message = "declared deterministic, but two runs on the same inputs differ bitwise";
        }
      }
      apply_expectation(e);
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
  progress("done", records.entries.size(), total);
  return records;
}

}  // namespace gnbench
