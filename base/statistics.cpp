#include "base/statistics.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace gnbench {

namespace {
double quantile(const std::vector<double>& sorted, double q) {
  double pos = q * static_cast<double>(sorted.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}
}  // namespace

Statistics summarize(std::vector<double> values) {
  Statistics s;
  s.samples = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  Eigen::Map<const Eigen::ArrayXd> v(values.data(), static_cast<Eigen::Index>(values.size()));
  s.min = values.front();
  s.max = values.back();
  s.median = quantile(values, 0.5);
  s.q1 = quantile(values, 0.25);
  s.q3 = quantile(values, 0.75);
  s.mean = v.mean();
  s.stdev =
      values.size() > 1 ? std::sqrt((v - s.mean).square().sum() / double(values.size() - 1)) : 0.0;
  s.rel_noise = s.mean > 0 ? s.stdev / s.mean : 0.0;
  return s;
}

nlohmann::json to_json(const Statistics& s) {
  return {{"samples", s.samples}, {"median", s.median}, {"q1", s.q1},
          {"q3", s.q3},           {"min", s.min},       {"max", s.max},
          {"mean", s.mean},       {"stdev", s.stdev},   {"rel_noise", s.rel_noise}};
}

Statistics statistics_from_json(const nlohmann::json& j) {
  Statistics s;
  s.samples = j.value("samples", uint64_t{0});
  s.median = j.value("median", 0.0);
  s.q1 = j.value("q1", 0.0);
  s.q3 = j.value("q3", 0.0);
  s.min = j.value("min", 0.0);
  s.max = j.value("max", 0.0);
  s.mean = j.value("mean", 0.0);
  s.stdev = j.value("stdev", 0.0);
  s.rel_noise = j.value("rel_noise", 0.0);
  return s;
}

}  // namespace gnbench
