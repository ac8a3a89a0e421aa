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

}  // namespace gnbench
