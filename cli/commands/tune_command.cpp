// gnbench tune: time every variant on the configs' problems (or read a results file) and
// write the fastest verified variant per shape as a dispatch table (docs/performance.md).
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/message_text.hpp"
#include "base/output_target.hpp"
#include "cli/commands/commands.hpp"
#include "cli/dispatch/dispatch_table.hpp"
#include "cli/report/best_variants.hpp"
#include "cli/report/results_json.hpp"

namespace gnbench {

namespace {

// The --from (or --fill-from) files as one table: a shape in several takes the last file's
// measurement; all from one device.
DispatchTable table_from_files(const std::vector<std::filesystem::path>& files,
                               const std::string& mode, bool print) {
  std::optional<DispatchTable> table;
  for (const auto& path : files) {
    const RunRecords records = read_results_file(path);
    if (print) print_best_variants(std::cout, best_variants(records, mode));
    DispatchTable t = table_from_records(records, mode, path.string());
    if (table)
      merge_tables(*table, std::move(t), path.string());
    else
      table = std::move(t);
  }
  return std::move(*table);
}

// Stored files may time builds this gnbench no longer has; `run --variant best` could not
// select them.
void keep_built(DispatchTable& table, const TuneCommand& cmd, const std::string& source) {
  const auto dropped = keep_built_variants(table, cmd.run.bench.kernel_folders, source);
  if (!dropped.empty())
    std::cout << source << ": left out (not built by this gnbench): " << join_bounded(dropped, 64)
              << "\n";
}

}  // namespace

int tune_command(TuneCommand cmd, const std::atomic<bool>* stop) {
  ensure_writable_target(cmd.table_out, cmd.run.force, "--force");
  std::optional<DispatchTable> fill;  // read before a run, so a bad file costs no run
  std::vector<std::string> fill_names;
  for (const auto& f : cmd.fill_from) fill_names.push_back(f.string());
  const std::string fill_source = "--fill-from " + join_bounded(fill_names, 3);
  if (!cmd.fill_from.empty()) {
    fill = table_from_files(cmd.fill_from, cmd.mode, false);
    keep_built(*fill, cmd, fill_source);
  }
  if (cmd.run.json_out)  // the table and the run's results file: never one file
    check_distinct_outputs({check_output_target("--json", cmd.table_out.string(), true),
                            check_output_target("--results", cmd.run.json_out->string(), true)});
  auto write_table_file = [&](DispatchTable table) {
    size_t filled = 0;
    if (fill) filled = fill_table(table, *fill, fill_source);
    write_file_atomically(cmd.table_out, table_to_json(table).dump(1) + "\n");
    std::cout << "\ndispatch table"
              << (table.complete ? "" : " (incomplete: the run was interrupted)") << ": "
              << table.entries.size() << " shape(s)";
    if (fill) std::cout << " (" << filled << " timed on " << fill->device << ")";
    std::cout << ", " << table.timing_mode << " medians, written to " << cmd.table_out.string()
              << "\n";
  };
  auto write_table = [&](const RunRecords& records, const std::string& source) {
    write_table_file(table_from_records(records, cmd.mode, source));
  };
  if (!cmd.from.empty()) {
    DispatchTable table = table_from_files(cmd.from, cmd.mode, true);
    keep_built(table, cmd, "tune --from");
    write_table_file(std::move(table));
    return 0;
  }
  cmd.run.bench.timing = true;
  cmd.run.bench.hot = cmd.mode == "hot";
  cmd.run.bench.cold = cmd.mode == "cold";
  // Variants are ranked against each other: the copy probe's seconds buy nothing here.
  cmd.run.bench.measure_copy_bandwidth = false;
  // Written from what the run finished, even when it was interrupted or a variant failed
  // (failed entries are never chosen); the run's exit code stands.
  std::optional<ConfigError> no_table;
  cmd.run.on_records = [&](const RunRecords& records) {
    try {
      write_table(records, "this run");
    } catch (const ConfigError& e) {
      no_table = e;
    }
  };
  const int code = run_command(cmd.run, stop);
  if (no_table && code == kExitInterrupted) {  // stopped before any entry was timed
    std::cerr << "gnbench: warning: no dispatch table written: " << no_table->what() << "\n";
    return code;
  }
  if (no_table) throw *no_table;
  return code;
}

}  // namespace gnbench
