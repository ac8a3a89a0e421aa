#include "cli/report/markdown_printer.hpp"

#include <sstream>

#include "cli/report/summary_rows.hpp"

namespace gnbench {

std::string markdown_report(const RunRecords& records, const TableOptions& options) {
  std::ostringstream out;
  out << summary_header(records.context) << "\n\n";
  SummaryTable t = summary_table(records, options);
  auto print_row = [&](const std::vector<std::string>& cells) {
    out << "|";
    for (const auto& c : cells) out << " " << c << " |";
    out << "\n";
  };
  print_row(t.titles);
  out << "|";
  for (bool left : t.left_aligned) out << (left ? "---|" : "---:|");
  out << "\n";
  for (const auto& r : t.rows) print_row(r);
  out << "\n";
  for (const auto& note : summary_notes(records, options)) out << "- " << note << "\n";
  return out.str();
}

}  // namespace gnbench
