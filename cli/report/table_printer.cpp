#include "report/table_printer.hpp"

#include <algorithm>
#include <iomanip>
#include <vector>

#include "report/format.hpp"

namespace gnbench {

namespace {

struct Column {
  std::string title;
  bool left;
};

std::vector<std::string> row(const EntryRecord& e, double copy_gbps) {
  const TimingResult* t = e.headline();
  bool timed = t && t->total.samples > 0;
  double gbps = timed ? double(e.required_bytes) / t->total.median : 0;  // bytes/ns = GB/s
  std::string det = !e.bitwise_reproducible ? "-" : *e.bitwise_reproducible ? "yes" : "NO";
  std::string noise = timed ? format("%.1f%%", 100 * t->total.rel_noise) + (t->noise_target_reached ? "" : "*") : "-";
  return {e.problem.name,
          shape_label(e.problem.shape),
          e.problem.distribution.kind,
          e.variant,
          verdict_name(e.verdict),
          e.verification.tensors.empty() ? "-" : format("%.1e", e.worst_scaled_error()),
          e.invariants.failure.empty() && e.trials ? "ok" : e.trials ? "FAIL" : "-",
          det,
          timed ? format("%.2f", t->total.median / 1e3) : "-",
          noise,
          timed ? format("%.1f", gbps) : "-",
          timed && copy_gbps > 0 ? format("%.1f%%", 100 * gbps / copy_gbps) : "-"};
}

}  // namespace

void print_table(std::ostream& out, const RunRecords& records) {
  const RunContext& c = records.context;
  out << "gnbench " << c.gnbench_version << " (" << c.git_revision << ", " << c.build_type << ") on "
      << c.device.value("name", "?") << " [" << c.device.value("driver_name", "?") << " "
      << c.device.value("driver_version", "?") << "]";
  if (c.copy_gbps > 0) out << ", copy bandwidth " << format("%.1f", c.copy_gbps) << " GB/s";
  out << ", timing " << c.timing_mode << "\n";

  const std::vector<Column> columns{{"problem", true}, {"NxCxHW/G", true}, {"inputs", true}, {"variant", true},
                                    {"verdict", true}, {"max err", false}, {"invar", true},  {"repro", true},
                                    {"median us", false}, {"noise", false}, {"GB/s", false}, {"% copy", false}};
  std::vector<std::vector<std::string>> rows;
  for (const auto& e : records.entries) rows.push_back(row(e, c.copy_gbps));
  std::vector<size_t> width(columns.size());
  for (size_t i = 0; i < columns.size(); ++i) {
    width[i] = columns[i].title.size();
    for (const auto& r : rows) width[i] = std::max(width[i], r[i].size());
  }
  auto print_row = [&](const std::vector<std::string>& cells) {
    for (size_t i = 0; i < cells.size(); ++i) {
      out << (columns[i].left ? std::left : std::right) << std::setw(static_cast<int>(width[i])) << cells[i]
          << (i + 1 < cells.size() ? "  " : "\n");
    }
  };
  std::vector<std::string> titles;
  for (const auto& col : columns) titles.push_back(col.title);
  print_row(titles);
  for (const auto& r : rows) print_row(r);

  bool notes = false;
  for (const auto& e : records.entries) {
    if (e.verdict == Verdict::kPass || e.message.empty()) continue;
    if (!notes) out << "\n";
    notes = true;
    out << verdict_name(e.verdict) << " " << e.name() << ": " << e.message << "\n";
  }
  bool unconverged = std::any_of(records.entries.begin(), records.entries.end(), [](const EntryRecord& e) {
    return e.headline() && !e.headline()->noise_target_reached;
  });
  out << "\n";
  if (unconverged) out << "* noise target not reached before --timeout\n";
  out << "max err: largest |gpu - ref| / rms(ref over its group); GB/s: required traffic (read x, grad_out, "
         "weight; write 3 outputs) / median GPU time\n";
  if (c.build_type != "Release" && c.build_type != "RelWithDebInfo")
    out << "warning: gnbench was built as " << c.build_type << ", not Release\n";
  if (c.validation) out << "warning: Vulkan validation layers were on: times are not representative\n";
  if (!c.complete) out << "warning: run interrupted; the results are incomplete\n";
}

}  // namespace gnbench
