#include "cli/report/csv_printer.hpp"

#include <algorithm>
#include <sstream>

namespace gnbench {

namespace {
// RFC 4180: quote fields holding a comma, quote or newline; double inner quotes.
std::string field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// With --stage-times: stageI_name, stageI_median_ns for I up to the most stages of any row.
size_t stage_columns(const RunRecords& records) {
  size_t n = 0;
  for (const auto& e : records.entries)
    for (const TimingResult* t : e.timings()) n = std::max(n, t->stages.size());
  return n;
}

// One row: the entry's verification, and the timing of one mode (empty cells when t is null).
void write_row(std::ostream& out, const EntryRecord& e, const TimingResult* t, size_t stages) {
  const Problem& p = e.problem;
  out << field(p.name) << "," << field(e.variant) << "," << p.shape.batch << "," << p.shape.channels
      << "," << p.shape.spatial << "," << p.shape.groups << "," << p.distribution.kind << ","
      << p.distribution.param << "," << verdict_name(e.verdict) << "," << e.trials;
  for (size_t i = 0; i < 3; ++i) {
    if (i < e.verification.tensors.size())
      out << "," << e.verification.tensors[i].l2_rel << "," << e.verification.tensors[i].max_scaled;
    else
      out << ",,";
  }
  out << "," << (e.trials ? (e.invariants.pass ? "true" : "false") : "") << ","
      << (e.bitwise_reproducible ? (*e.bitwise_reproducible ? "true" : "false") : "");
  if (t) {
    const Statistics& s = t->total;
    out << "," << t->mode << "," << s.samples << "," << s.median << "," << s.q1 << "," << s.q3
        << "," << s.min << "," << s.max << "," << s.mean << "," << s.stdev << "," << s.rel_noise
        << "," << e.required_bytes << "," << e.actual_bytes << "," << t->throughput.gbps << ","
        << t->throughput.pct_copy << "," << stop_reason_name(t->stop_reason) << ","
        << (t->modes.bimodal ? "true" : "false");
  } else {
    out << ",,,,,,,,,,," << e.required_bytes << "," << e.actual_bytes << ",,,,";
  }
  out << "," << field(e.message);
  for (size_t i = 0; i < stages; ++i) {
    if (t && i < t->stages.size() && i < t->stage_names.size())
      out << "," << field(t->stage_names[i]) << "," << t->stages[i].median;
    else
      out << ",,";
  }
  out << "\n";
}
}  // namespace

std::string csv_report(const RunRecords& records) {
  std::ostringstream out;
  out.precision(10);
  out << "problem,variant,batch,channels,spatial,groups,distribution,param,verdict,trials,"
         "grad_input_l2_rel,grad_input_max_scaled,grad_weight_l2_rel,grad_weight_max_scaled,"
         "grad_bias_l2_rel,grad_bias_max_scaled,invariants_pass,bitwise_reproducible,mode,samples,"
         "median_ns,q1_ns,q3_ns,min_ns,max_ns,mean_ns,stdev_ns,rel_noise,required_bytes,"
         "actual_bytes,gbps_required,pct_copy,stop_reason,bimodal,message";
  const size_t stages = stage_columns(records);
  for (size_t i = 1; i <= stages; ++i) out << ",stage" << i << "_name,stage" << i << "_median_ns";
  out << "\n";
  for (const auto& e : records.entries) {
    // One row per timing mode measured, cold first; one row without timing if none was.
    const auto timings = e.timings();
    for (const TimingResult* t : timings) write_row(out, e, t, stages);
    if (timings.empty()) write_row(out, e, nullptr, stages);
  }
  return out.str();
}

}  // namespace gnbench
