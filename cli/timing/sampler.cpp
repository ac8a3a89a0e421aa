#include "cli/timing/sampler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

namespace gnbench {

namespace {

constexpr double kSettledRel = 0.02;    // consecutive warm-up batch medians this close
constexpr double kWarmupBatchS = 0.01;  // GPU seconds per warm-up batch
constexpr double kWarmupMaxWallS = 0.5;

double batch_median(const std::vector<SampleTimes>& got) {
  std::vector<double> t;
  for (const auto& s : got) t.push_back(s.total_ns);
  return summarize(std::move(t)).median;
}

// Samples per batch so that a batch takes about `target_s`: sized by the larger of a sample's
// GPU time and its wall time (on a CPU driver the cold flush makes a sample cost far more wall
// time than GPU time, and a batch sized by GPU time alone overshoots every budget).
uint32_t batch_for(double target_s, double gpu_per_sample_s, double wall_per_sample_s) {
  const double per_sample = std::max({gpu_per_sample_s, wall_per_sample_s, 1e-9});
  return static_cast<uint32_t>(std::clamp(target_s / per_sample, 1.0, 256.0));
}

// Keeps the kernel running for `min_gpu_s` of GPU time and until its time settles, for at
// most `max_wall_s`.
void settle(const SampleBatch& run, double min_gpu_s, double max_wall_s) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto wall = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  double previous = 0, gpu_s = 0;
  uint32_t batch = 1, runs = 0;
  while (wall() < max_wall_s) {
    const auto got = run(batch);
    runs += batch;
    for (const auto& s : got) gpu_s += s.total_ns * s.runs * 1e-9;
    const double median = batch_median(got);
    if (gpu_s >= min_gpu_s && previous > 0 && std::abs(median - previous) <= kSettledRel * previous)
      return;
    previous = median;
    const double elapsed = wall(), per_run = elapsed / runs;
    batch = std::min(batch_for(kWarmupBatchS, median * 1e-9, per_run),
                     batch_for(max_wall_s - elapsed, 0, per_run));  // >= 1 even when over
  }
}

// Runs the kernel in batches of about 50 ms for `wall_s` seconds of wall time; returns them.
double keep_busy(const SampleBatch& run, double wall_s) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto wall = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  uint32_t batch = 1, runs = 0;
  while (wall() < wall_s) {
    const auto got = run(batch);
    runs += batch;
    batch = batch_for(0.05, batch_median(got) * 1e-9, wall() / runs);
  }
  return wall();
}

}  // namespace

TimingResult measure(const SampleBatch& run, const SamplingOptions& options,
                     const std::vector<std::string>& stage_names, const std::string& mode) {
  // Outside the entry's --timeout, which is for this entry's own warm-up and samples.
  const double device_s = options.device_warmup_s > 0 ? keep_busy(run, options.device_warmup_s) : 0;
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  auto wall = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };

  if (options.warmup) run(options.warmup);
  // A quarter of the entry's budget at most, so that sampling keeps the rest.
  if (options.warmup_time_s > 0)
    settle(run, options.warmup_time_s, std::min(kWarmupMaxWallS, options.timeout_s / 4));
  const double warmup_s = wall();
  std::vector<SampleTimes> samples;
  std::vector<double> totals;
  double gpu_s = 0;
  bool met_early = false;  // the interval was narrow enough before the minimums held
  std::optional<StopReason> reason;
  // Batches grow so that each submission holds about 50 ms of GPU work: few host round
  // trips for small kernels, quick reaction to the criterion for slow ones.
  uint32_t batch = 1;
  while (!reason) {
    uint32_t want = batch;
    if (options.fixed_samples)
      want = std::min<uint32_t>(batch, *options.fixed_samples - samples.size());
    auto got = run(want);
    for (auto& s : got) {
      gpu_s += s.total_ns * s.runs * 1e-9;  // --min-time and batch sizes count the GPU's time
      totals.push_back(s.total_ns);
    }
    samples.insert(samples.end(), got.begin(), got.end());

    if (options.fixed_samples) {
      if (samples.size() >= *options.fixed_samples) reason = StopReason::kFixed;
    } else if (median_ci_rel_halfwidth(totals) <= options.max_noise) {
      if (samples.size() >= options.min_samples && gpu_s >= options.min_time_s)
        reason = met_early ? StopReason::kMinTime : StopReason::kConverged;
      else
        met_early = true;
    }
    if (!reason && !options.fixed_samples && wall() > options.timeout_s && samples.size() >= 2)
      reason = StopReason::kTimeout;
    const double n = static_cast<double>(samples.size()), elapsed = wall();
    const double wall_per_sample = (elapsed - warmup_s) / n;
    batch = batch_for(0.05, gpu_s / n, wall_per_sample);
    if (!options.fixed_samples)  // the last batch ends near the timeout, not far past it
      batch = std::min(batch, batch_for(options.timeout_s - elapsed, 0, wall_per_sample));
  }

  TimingResult r;
  r.mode = mode;
  r.stage_names = stage_names;
  r.stop_reason = *reason;
  r.noise_target_reached = *reason != StopReason::kTimeout;
  r.median_ci = median_ci_rel_halfwidth(totals);
  r.modes = find_modes(totals);
  r.samples_ns = std::move(totals);
  r.total = summarize(r.samples_ns);
  for (size_t st = 0; st < stage_names.size(); ++st) {
    std::vector<double> v;
    for (const auto& s : samples) v.push_back(s.stage_ns.at(st));
    r.stages.push_back(summarize(v));
  }
  r.wall_s = device_s + wall();
  r.warmup_s = device_s + warmup_s;
  return r;
}

}  // namespace gnbench
