#include "cli/report/coverage_table.hpp"

#include <algorithm>
#include <iomanip>

namespace gnbench {
namespace {

const char* cell_text(CoverageCell c) {
  switch (c) {
    case CoverageCell::kVerified: return "PASS";
    case CoverageCell::kFailed: return "FAIL";
    case CoverageCell::kNotApplicable: return "n/a";
    case CoverageCell::kGap: return "NEVER";
  }
  return "?";
}

}  // namespace

void print_coverage(std::ostream& out, const CoverageReport& report, const ReproContext& repro) {
  const auto& list = regimes();
  size_t name_width = 7;
  for (const auto& v : report.variants) name_width = std::max(name_width, v.variant.size());
  out << "\nCoverage: PASS = verified there, FAIL = run there and never passed, n/a = the "
         "variant's `when` (or the device) excludes every shape there, NEVER = it could run "
         "there but nothing verified it\n";
  out << std::left << std::setw(static_cast<int>(name_width)) << "variant";
  auto width = [](const Regime& r) { return static_cast<int>(std::max<size_t>(r.id.size(), 5)); };
  for (const Regime& r : list) out << "  " << std::setw(width(r)) << r.id;
  out << "\n";
  for (const auto& v : report.variants) {
    out << std::setw(static_cast<int>(name_width)) << v.variant;
    for (size_t i = 0; i < list.size(); ++i)
      out << "  " << std::setw(width(list[i])) << cell_text(v.cells[i]);
    out << "\n";
  }
  constexpr size_t kMaxListed = 20;
  size_t listed = 0;
  for (const auto& v : report.variants)
    for (size_t i = 0; i < list.size(); ++i)
      if (v.cells[i] == CoverageCell::kGap && v.example[i] && listed++ < kMaxListed)
        out << "never verified: " << v.variant << " in " << list[i].id << " ("
            << list[i].description << "), e.g. " << one_off_command(*v.example[i], v.variant, repro)
            << "\n";
  if (listed > kMaxListed) out << "... and " << listed - kMaxListed << " more never verified\n";
  out << "coverage: " << report.variants.size() << " variants x " << list.size()
      << " regimes: " << report.count(CoverageCell::kVerified) << " verified, "
      << report.count(CoverageCell::kNotApplicable) << " not applicable, "
      << report.count(CoverageCell::kGap) << " never verified, "
      << report.count(CoverageCell::kFailed) << " failed\n";
}

}  // namespace gnbench
