#include "timing/sampler.hpp"

#include <algorithm>
#include <chrono>

namespace gnbench {

TimingResult measure(const SampleBatch& run, const SamplingOptions& options,
                     const std::vector<std::string>& stage_names, const std::string& mode) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  auto wall = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };

  if (options.warmup) run(options.warmup);
  std::vector<SampleTimes> samples;
  double gpu_s = 0;
  bool reached = false;
  // Batches grow so that each submission holds about 50 ms of GPU work: few host round
  // trips for small kernels, quick reaction to the criterion for slow ones.
  uint32_t batch = 1;
  for (;;) {
    uint32_t want = batch;
    if (options.fixed_samples)
      want = std::min<uint32_t>(batch, *options.fixed_samples - samples.size());
    auto got = run(want);
    for (auto& s : got) gpu_s += s.total_ns * 1e-9;
    samples.insert(samples.end(), got.begin(), got.end());

    if (options.fixed_samples) {
      if (samples.size() >= *options.fixed_samples) {
        reached = true;
        break;
      }
    } else if (samples.size() >= options.min_samples && gpu_s >= options.min_time_s) {
      std::vector<double> totals;
      for (const auto& s : samples) totals.push_back(s.total_ns);
      if (summarize(totals).rel_noise <= options.max_noise) {
        reached = true;
        break;
      }
    }
    if (!options.fixed_samples && wall() > options.timeout_s && samples.size() >= 2) break;
    double per_sample = gpu_s / static_cast<double>(samples.size());
    batch = static_cast<uint32_t>(std::clamp(0.05 / std::max(per_sample, 1e-9), 1.0, 256.0));
  }

  TimingResult r;
  r.mode = mode;
  r.stage_names = stage_names;
  r.noise_target_reached = reached;
  for (const auto& s : samples) r.samples_ns.push_back(s.total_ns);
  r.total = summarize(r.samples_ns);
  for (size_t st = 0; st < stage_names.size(); ++st) {
    std::vector<double> v;
    for (const auto& s : samples) v.push_back(s.stage_ns.at(st));
    r.stages.push_back(summarize(v));
  }
  r.wall_s = wall();
  return r;
}

}  // namespace gnbench
