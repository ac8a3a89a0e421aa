#include "cli/report/stopping_json.hpp"

#include <cmath>

namespace gnbench {

void add_stopping_json(nlohmann::json& j, const TimingResult& t) {
  j["stop_reason"] = stop_reason_name(t.stop_reason);
  // Below 6 samples there is no interval: null rather than an infinity JSON cannot hold.
  j["median_ci_rel"] = std::isfinite(t.median_ci) ? nlohmann::json(t.median_ci) : nullptr;
  nlohmann::json modes = {{"bimodal", t.modes.bimodal}, {"coefficient", t.modes.coefficient}};
  if (t.modes.bimodal) {
    modes["low_ns"] = t.modes.low_ns;
    modes["high_ns"] = t.modes.high_ns;
    modes["low_fraction"] = t.modes.low_fraction;
  }
  j["modes"] = modes;
  j["warmup_s"] = t.warmup_s;
}

void read_stopping_json(const nlohmann::json& j, TimingResult& t) {
  t.stop_reason = t.noise_target_reached ? StopReason::kConverged : StopReason::kTimeout;
  if (j.contains("stop_reason") && j["stop_reason"].is_string())
    if (auto r = stop_reason_from_name(j["stop_reason"].get<std::string>())) t.stop_reason = *r;
  t.warmup_s = j.value("warmup_s", 0.0);
  const auto ci = j.find("median_ci_rel");
  t.median_ci = ci != j.end() && ci->is_number() ? ci->get<double>() : INFINITY;
  if (const auto m = j.find("modes"); m != j.end() && m->is_object()) {
    t.modes.bimodal = m->value("bimodal", false);
    t.modes.coefficient = m->value("coefficient", 0.0);
    t.modes.low_ns = m->value("low_ns", 0.0);
    t.modes.high_ns = m->value("high_ns", 0.0);
    t.modes.low_fraction = m->value("low_fraction", 0.0);
  }
}

std::string stop_label(const TimingResult& t) {
  return stop_reason_name(t.stop_reason) + (t.modes.bimodal ? " bimodal" : "");
}

}  // namespace gnbench
