#include "cli/bench/records.hpp"

#include <algorithm>
#include <stdexcept>

namespace gnbench {

std::string verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kPass: return "PASS";
    case Verdict::kFail: return "FAIL";
    case Verdict::kXFail: return "XFAIL";
    case Verdict::kXPass: return "XPASS";
    case Verdict::kSkipped: return "SKIP";
    case Verdict::kError: return "ERROR";
  }
  return "?";
}

Verdict verdict_from_name(const std::string& name) {
  for (Verdict v : {Verdict::kPass, Verdict::kFail, Verdict::kXFail, Verdict::kXPass,
                    Verdict::kSkipped, Verdict::kError})
    if (verdict_name(v) == name) return v;
  throw std::invalid_argument("unknown verdict '" + name + "'");
}

std::vector<const TimingResult*> EntryRecord::timings() const {
  std::vector<const TimingResult*> out;
  for (const auto* t : {&cold, &hot})
    if (*t && (*t)->total.samples > 0) out.push_back(&**t);
  return out;
}

double EntryRecord::worst_scaled_error() const {
  double worst = 0;
  for (const auto& t : verification.tensors) worst = std::max(worst, t.max_scaled);
  return worst;
}

void derive_figures(RunRecords& records) {
  for (EntryRecord& e : records.entries) {
    const double copy = e.device.empty() ? records.context.copy_gbps : e.device_copy_gbps;
    for (auto* t : {&e.cold, &e.hot}) {
      if (!*t) continue;
      Throughput& f = (*t)->throughput;
      f = Throughput{};
      const double median = (*t)->total.median;
      if (!((*t)->total.samples > 0 && median > 0)) continue;
      f.gbps = double(e.required_bytes) / median;
      f.actual_gbps = double(e.actual_bytes) / median;
      if (copy > 0) {
        f.pct_copy = 100 * f.gbps / copy;
        f.pct_copy_actual = 100 * f.actual_gbps / copy;
      }
    }
  }
}

}  // namespace gnbench
