#include "cli/report/best_variants.hpp"

#include <algorithm>
#include <map>

#include "base/format.hpp"

namespace gnbench {

namespace {

const TimingResult* timing_in(const EntryRecord& e, const std::string& mode) {
  const auto& t = mode == "hot" ? e.hot : e.cold;
  return t && t->total.samples > 0 ? &*t : nullptr;
}

bool eligible(const EntryRecord& e) {
  return e.verdict == Verdict::kPass || e.verdict == Verdict::kXPass;
}

}  // namespace

std::string best_mode(const RunRecords& records) {
  bool cold = false;
  for (const auto& e : records.entries) {
    if (timing_in(e, "hot")) return "hot";
    cold = cold || timing_in(e, "cold");
  }
  return cold ? "cold" : "";
}

std::vector<BestVariant> best_variants(const RunRecords& records, std::string mode) {
  if (mode.empty()) mode = best_mode(records);
  std::vector<BestVariant> out;
  if (mode.empty()) return out;
  std::map<std::string, size_t> index;  // problem name -> position in out
  for (const auto& e : records.entries) {
    const TimingResult* t = timing_in(e, mode);
    if (!eligible(e) || !t) continue;
    auto [it, fresh] = index.emplace(e.problem.name, out.size());
    if (fresh) out.push_back({e.problem, mode, "", 0, "", 0, 0, {}});
    BestVariant& b = out[it->second];
    const double ns = t->total.median;
    ++b.candidates;
    auto [m, first] = b.medians_ns.emplace(e.variant, ns);
    if (!first) m->second = std::min(m->second, ns);
    if (b.variant.empty() || ns < b.median_ns) {
      b.runner_up = b.variant;
      b.runner_up_ns = b.median_ns;
      b.variant = e.variant;
      b.median_ns = ns;
    } else if (b.runner_up.empty() || ns < b.runner_up_ns) {
      b.runner_up = e.variant;
      b.runner_up_ns = ns;
    }
  }
  return out;
}

nlohmann::json best_variants_json(const std::vector<BestVariant>& best) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& b : best) {
    nlohmann::json j{{"problem", b.problem.name},
                     {"batch", b.problem.shape.batch},
                     {"channels", b.problem.shape.channels},
                     {"spatial", b.problem.shape.spatial},
                     {"groups", b.problem.shape.groups},
                     {"mode", b.mode},
                     {"variant", b.variant},
                     {"median_us", b.median_ns / 1e3},
                     {"candidates", b.candidates}};
    if (!b.runner_up.empty()) {
      j["runner_up"] = b.runner_up;
      j["runner_up_us"] = b.runner_up_ns / 1e3;
    }
    out.push_back(std::move(j));
  }
  return out;
}

void print_best_variants(std::ostream& out, const std::vector<BestVariant>& best) {
  if (best.empty()) return;
  out << "\nbest variant per problem (" << best.front().mode << " median of the verified ones):\n";
  size_t width = 0;
  for (const auto& b : best) width = std::max(width, b.problem.name.size());
  for (const auto& b : best) {
    out << "  " << b.problem.name << std::string(width - b.problem.name.size(), ' ') << "  "
        << b.variant << "  " << format("%.2f", b.median_ns / 1e3) << " us";
    if (!b.runner_up.empty())
      out << "  (next " << b.runner_up << " " << format("%.2f", b.runner_up_ns / 1e3) << " us, "
          << format("%.2fx", b.runner_up_ns / b.median_ns) << ")";
    out << "\n";
  }
}

}  // namespace gnbench
