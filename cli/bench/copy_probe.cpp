#include "cli/bench/copy_probe.hpp"

#include <algorithm>

namespace gnbench {

void CopyProbe::measure(RunContext& context) {
  const auto start = std::chrono::steady_clock::now();
  if (!probe_) probe_.emplace(ctx_, kernels_folder_);
  probes_.push_back(probe_->measure());
  last_end_ = std::chrono::steady_clock::now();
  last_took_ = last_end_ - start;
  auto best = std::max_element(
      probes_.begin(), probes_.end(),
      [](const CopyBandwidth& a, const CopyBandwidth& b) { return a.gbps < b.gbps; });
  nlohmann::json readings = nlohmann::json::array(), pairs = nlohmann::json::array();
  for (const auto& p : probes_) {
    readings.push_back(p.gbps);
    pairs.push_back(p.pairs_gbps);
  }
  context.copy_gbps = best->gbps;
  context.copy_bandwidth = {{"gbps", best->gbps},
                            {"source", "measured"},
                            {"bytes_per_copy", best->bytes_per_copy},
                            {"time_ns", to_json(best->time_ns)},
                            {"probes_gbps", readings},
                            {"pairs_gbps", pairs}};
}

bool CopyProbe::due(std::optional<double> gap_s) const {
  using namespace std::chrono;
  if (probes_.empty()) return false;
  const auto since = steady_clock::now() - last_end_;
  if (gap_s) return since >= duration<double>(*gap_s);
  return since >= std::max<steady_clock::duration>(minutes(1), 50 * last_took_);
}

}  // namespace gnbench
