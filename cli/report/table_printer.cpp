#include "cli/report/table_printer.hpp"

#include <algorithm>
#include <iomanip>

namespace gnbench {

void print_aligned(std::ostream& out, const SummaryTable& t) {
  std::vector<size_t> width(t.titles.size());
  for (size_t i = 0; i < t.titles.size(); ++i) {
    width[i] = t.titles[i].size();
    for (const auto& r : t.rows) width[i] = std::max(width[i], r[i].size());
  }
  auto print_row = [&](const std::vector<std::string>& cells) {
    for (size_t i = 0; i < cells.size(); ++i) {
      const bool last = i + 1 == cells.size();
      const bool pad = !(last && t.left_aligned[i]);  // no trailing spaces
      out << (t.left_aligned[i] ? std::left : std::right)
          << std::setw(pad ? static_cast<int>(width[i]) : 0) << cells[i] << (last ? "\n" : "  ");
    }
  };
  print_row(t.titles);
  for (const auto& r : t.rows) print_row(r);
}

void print_table(std::ostream& out, const RunRecords& records, const TableOptions& options) {
  out << summary_header(records.context) << "\n";
  print_aligned(out, summary_table(records, options));
  out << "\n";
  for (const auto& note : summary_notes(records, options)) out << note << "\n";
}

void print_pipeline_statistics(std::ostream& out, const RunRecords& records) {
  const auto& stats = records.context.pipeline_statistics;
  if (stats.empty()) {
    out << "\npipeline statistics: the device reports none "
           "(no VK_KHR_pipeline_executable_properties)\n";
    return;
  }
  out << "\npipeline statistics (as the driver reports them):\n";
  for (const auto& [variant, stages] : stats.items())
    for (const auto& [stage, values] : stages.items()) {
      out << "  " << variant << " / " << stage << ":";
      for (const auto& [name, value] : values.items()) out << "  " << name << " " << value.dump();
      out << "\n";
    }
}

}  // namespace gnbench
