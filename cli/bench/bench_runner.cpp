#include "cli/bench/bench_runner.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <iostream>
#include <optional>
#include <set>

#include "base/errors.hpp"
#include "base/parallel_for.hpp"
#include "cli/bench/copy_probe.hpp"
#include "cli/bench/dump.hpp"
#include "cli/bench/entry_error.hpp"
#include "cli/bench/entry_verdict.hpp"
#include "cli/bench/input_guard.hpp"
#include "cli/bench/output_hash.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/config/device_fit.hpp"
#include "cli/config/name_patterns.hpp"
#include "cli/inputs/input_generator.hpp"
#include "kernels/runtime/cache_flush.hpp"
#include "kernels/runtime/variant_checks.hpp"
#include "kernels/runtime/variant_runner.hpp"
#include "kernels/runtime/vulkan_context.hpp"
#include "reference/group_norm.hpp"

namespace gnbench {

namespace {

// "zero" scratch is zero-filled before poisoned runs only, so a variant must leave it zero
// (docs/kernels.md): otherwise its next hot sample would start from a stale count.
void require_zero_scratch(VariantRunner& runner, const std::string& when) {
  const auto dirty = runner.dirty_zero_scratch();
  if (dirty.empty()) return;
  throw std::runtime_error("scratch buffer '" + dirty.front() +
                           "' (\"zero\": true) is not zero after " + when +
                           ": a variant must leave its zero-filled scratch zero (docs/kernels.md)");
}

using Clock = std::chrono::steady_clock;
// A timed entry after the GPU sat idle this long (the run's first, or one after a long
// CPU-side step) keeps it busy first: an idle H200 drops its clocks within ~3 s.
constexpr std::chrono::seconds kIdleGap{2};

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

// Every entry still to run becomes ERROR (device lost, inputs the driver refused).
void fail_remaining(std::vector<EntryRecord>& entries, const std::string& why) {
  for (auto& e : entries)
    if (e.verdict != Verdict::kSkipped && e.verdict != Verdict::kError) {
      e.verdict = Verdict::kError;
      e.message = why;
    }
}

}  // namespace

// --dump: a write that fails (disk full, permissions) is reported as that, once; it is not
// the kernel's failure and the run goes on without dumping. (Outside the anonymous namespace:
// RunState, a member type of BenchRunner, holds one.)
class Dumper {
 public:
  Dumper(const std::optional<std::filesystem::path>& dir, RunContext& context)
      : dir_(dir), context_(context) {}
  void operator()(const std::function<void(const std::filesystem::path&)>& write) {
    if (!dir_) return;
    try {
      write(*dir_);
    } catch (const std::exception& ex) {
      dir_.reset();
      context_.dump_error = ex.what();
      std::cerr << "gnbench: error: --dump: " << ex.what() << " (no more dumps; the run goes on)\n";
    }
  }

 private:
  std::optional<std::filesystem::path> dir_;
  RunContext& context_;
};

struct BenchRunner::RunState {
  RunRecords& records;
  const Progress& progress;
  const std::atomic<bool>* stop;
  Transfer transfer;
  std::unique_ptr<CacheFlush> flush;  // cold timing: one buffer, allocated before the problems'
  Dumper dump;
  std::optional<Clock::time_point> last_sampled;
  size_t total = 0;
  bool stopped() const { return stop && *stop; }
};

struct BenchRunner::Trial {
  uint32_t index = 0;
  const Problem& problem;
  const Inputs& inputs;
  const ReferenceOutputs& reference;
  const DeviceInputs& device_inputs;
  InputGuard& guard;
};

RunRecords BenchRunner::run(const std::vector<Problem>& problems, const Progress& progress,
                            const std::atomic<bool>* stop,
                            const std::function<void(const RunRecords&)>& on_abandon) {
  RunRecords records;
  records.context = run_context();
  ctx_->set_abandon_handler([&] {
    RunRecords partial = records;
    partial.context.complete = false;
    derive_figures(partial);
    partial.context.validation_messages = ctx_->validation_messages();
    if (on_abandon) on_abandon(partial);
  });
  // Shaders first: a shader that does not compile is a configuration error, found before the
  // seconds the copy-bandwidth probe takes.
  if (!compile_variants(stop)) {
    records.context.complete = false;  // stopped before any problem ran
    ctx_->set_abandon_handler({});
    return records;
  }
  for (const CompiledVariant& c : compiled_)
    for (size_t s = 0; s < c.stages.size(); ++s)
      if (!c.stages[s]->statistics().empty())
        records.context.pipeline_statistics[c.spec->name][c.spec->stages[s].name] =
            c.stages[s]->statistics();

  // --copy-bandwidth GBPS stands in for the probe (sweeps need not pay for it at every point).
  const bool probe = options_.timing && options_.measure_copy_bandwidth && !options_.copy_gbps;
  if (options_.timing && options_.copy_gbps) {
    records.context.copy_gbps = *options_.copy_gbps;
    records.context.copy_bandwidth = {{"gbps", *options_.copy_gbps}, {"source", "given"}};
  }
  CopyProbe copy_probe(*ctx_, options_.kernel_folders.front());
  if (probe) {
    progress("measuring copy bandwidth", 0, problems.size() * selected_.size());
    copy_probe.measure(records.context);
  }

  RunState state{records,         progress, stop,
                 Transfer(*ctx_), nullptr,  Dumper(options_.dump_dir, records.context),
                 std::nullopt};
  if (options_.timing && options_.cold)
    state.flush =
        std::make_unique<CacheFlush>(*ctx_, options_.kernel_folders.front(), options_.flush);
  // --variant best records one entry per problem (the choice), not one per variant.
  state.total = problems.size() * (options_.choose ? 1 : selected_.size());
  for (const Problem& problem : problems) {
    if (probe && &problem != &problems.front() && copy_probe.due(options_.copy_probe_gap_s)) {
      progress("measuring copy bandwidth between problems", records.entries.size(), state.total);
      copy_probe.measure(records.context);
    }
    const std::string chosen = choose_for(problem, records.context.dispatch_choices);
    if (chosen == kNoChoice) {
      EntryRecord none;
      none.problem = problem;
      none.variant = "best";
      none.message = "no variant of the dispatch table admits this shape on this device";
      records.entries.push_back(std::move(none));
      continue;
    }
    std::vector<EntryRecord> entries = new_entries(problem, chosen);
    run_problem(problem, entries, state);
    for (EntryRecord& e : entries) {
      // Interrupted before it ran: left out, not judged (its empty verification would read as
      // a failure and turn a Ctrl-C into exit 1 with a bogus FAIL entry).
      // Stopped between trials: fewer trials than asked for are no PASS (run_problem judged
      // those a trial had already failed).
      if (e.trials < options_.trials && e.verdict == Verdict::kPass) continue;
      if (!chosen.empty() && e.variant != chosen) continue;  // --variant best: only the choice
      records.entries.push_back(std::move(e));
    }
    if (state.stopped()) {
      records.context.complete = false;
      break;
    }
    if (on_problem_) on_problem_(records);
  }
  if (probe && !state.stopped()) {
    progress("measuring copy bandwidth again", records.entries.size(), state.total);
    copy_probe.measure(records.context);
  }
  records.context.validation_messages = ctx_->validation_messages();
  derive_figures(records);  // after the last copy probe: the % of copy is against the best one
  ctx_->set_abandon_handler({});  // it refers to `records`, which ends here
  progress("done", records.entries.size(), state.total);
  return records;
}

// Every trial: fresh inputs and their reference, then every entry on them. An entry is judged
// and reported as soon as its last trial is done (skips are not reported).
void BenchRunner::run_problem(const Problem& problem, std::vector<EntryRecord>& entries,
                              RunState& run) {
  std::vector<bool> finished(entries.size(), false);
  auto finish = [&](size_t v) {
    judge(entries[v]);
    finished[v] = true;
    if (on_finished_ && entries[v].verdict != Verdict::kSkipped) on_finished_(entries[v]);
  };
  for (uint32_t trial = 0; trial < options_.trials && !run.stopped(); ++trial) {
    if (ctx_->lost()) {
      fail_remaining(entries, "not run: the device was lost earlier (" + ctx_->lost_reason() + ")");
      break;
    }
    const Inputs inputs =
        generate_inputs(problem.shape, problem.distribution, trial_seed(problem.seed, trial));
    const ReferenceOutputs ref = reference::backward(problem.shape, inputs, problem.eps);
    std::optional<DeviceInputs> device_inputs;
    try {
      device_inputs.emplace(*ctx_, run.transfer, inputs);
    } catch (...) {
      fail_remaining(entries, "inputs: " + entry_error_message(std::current_exception(), *ctx_,
                                                               "uploading inputs"));
      break;
    }
    InputGuard guard(run.transfer, *device_inputs, inputs, problem.shape);
    if (trial == 0)
      run.dump([&](const std::filesystem::path& dir) {
        std::vector<std::string> dumped;
        for (const auto& e : entries)
          if (e.verdict != Verdict::kSkipped) dumped.push_back(e.variant);
        dump_problem(dir, problem, inputs, ref, dumped);
      });
    const Trial t{trial, problem, inputs, ref, *device_inputs, guard};
    for (size_t v = 0; v < entries.size() && !run.stopped(); ++v) {
      EntryRecord& e = entries[v];
      if (e.verdict == Verdict::kSkipped || e.verdict == Verdict::kError) continue;
      if (ctx_->lost()) {
        e.verdict = Verdict::kError;
        e.message = "not run: the device was lost earlier (" + ctx_->lost_reason() + ")";
        continue;
      }
      run.progress(problem.name + " / " + e.variant +
                       (options_.trials > 1 ? " trial " + std::to_string(trial + 1) : ""),
                   run.records.entries.size() + (options_.choose ? 0 : v), run.total);
      run_entry(e, v, t, run);
      if (trial + 1 == options_.trials) finish(v);
    }
  }
  // Stopped before an entry's last trial: judged when a trial already failed it; an entry
  // that passed the trials it ran is left out (the caller drops it, as one that never ran).
  for (size_t v = 0; v < entries.size(); ++v) {
    if (finished[v] || (entries[v].trials == 0 && entries[v].verdict == Verdict::kPass)) continue;
    EntryRecord so_far = entries[v];
    so_far.problem.expect = {};  // judged on its own: a partial pass is no XPASS either
    judge(so_far);
    if (so_far.verdict != Verdict::kPass) finish(v);
  }
}

// One trial of one entry: run, verify, check invariants and bitwise reproducibility, and on
// the first trial time it. Whatever it throws is that entry's ERROR.
void BenchRunner::run_entry(EntryRecord& e, size_t v, const Trial& t, RunState& run) {
  const Problem& problem = t.problem;
  try {
    VariantRunner runner(*ctx_, run.transfer, compiled_[v], problem, t.device_inputs);
    GpuOutputs out = runner.run_once();
    require_zero_scratch(runner, "a run");
    VerificationResult check = verify(problem.shape, out, t.reference, problem.tolerances);
    InvariantResult inv = check_invariants(problem.shape, t.inputs, problem.eps, out);
    if (t.index == 0 || worse(check, e.verification)) {
      e.verification = check;
      e.worst_trial = t.index;
      e.invariants = inv;
    } else if (!inv.pass && e.invariants.pass) {
      e.invariants = inv;
    }
    ++e.trials;
    if (t.index == 0)
      run.dump(
          [&](const std::filesystem::path& dir) { dump_outputs(dir, problem, e.variant, out); });
    // Compared by hash, so that a second full copy of the outputs is never held.
    const uint64_t first = t.index == 0 ? output_hash(out) : 0;
    if (t.index == 0) {
      out = GpuOutputs{};
      e.bitwise_reproducible = first == output_hash(runner.run_once());
    }
    // Once per variant, not per timing sample: a read-back of the inputs costs about as
    // much as one run. Timed runs are checked after them (docs/robustness.md).
    t.guard.check_and_restore(e.input_write, "during its verification runs");
    if (t.index == 0 && options_.timing) time_entry(e, runner, first, check, t, run);
  } catch (...) {
    e.verdict = Verdict::kError;
    e.message =
        entry_error_message(std::current_exception(), *ctx_, e.variant + " on " + problem.name);
    restore_after_error(t.guard, e, *ctx_);
  }
}

// Cold and/or hot samples, then the timed runs' outputs checked: they must be the verified
// answer (bitwise the same needs no second verification) and must have left the inputs alone.
void BenchRunner::time_entry(EntryRecord& e, VariantRunner& runner, uint64_t verified_hash,
                             const VerificationResult& verified, const Trial& t, RunState& run) {
  const bool stages = options_.stage_times;
  const auto names = stages ? runner.stage_names() : std::vector<std::string>{};
  auto sample_mode = [&](bool cold) {
    const CacheFlush* f = cold ? run.flush.get() : nullptr;
    SamplingOptions sampling = options_.sampling;
    if (!run.last_sampled || Clock::now() - *run.last_sampled > kIdleGap)
      sampling.device_warmup_s = options_.device_warmup_s;
    const uint32_t calls = cold ? 1 : options_.hot_batch;
    TimingResult timing = measure([&](uint32_t n) { return runner.sample(n, f, stages, calls); },
                                  sampling, names, cold ? "cold" : "hot");
    run.last_sampled = Clock::now();
    return timing;
  };
  if (options_.cold) e.cold = sample_mode(true);
  if (options_.hot) e.hot = sample_mode(false);
  require_zero_scratch(runner, "its timed runs");
  GpuOutputs timed = runner.read_outputs();
  VerificationResult after =
      output_hash(timed) == verified_hash
          ? verified
          : verify(t.problem.shape, timed, t.reference, t.problem.tolerances);
  e.checked_after_timing = true;
  if (!after.pass && e.verification.pass) {
    e.verification = after;
    e.failed_after_timing = true;
  }
  t.guard.check_and_restore(e.input_write, "during its timed runs");
}

}  // namespace gnbench
