#include "cli/report/progress_log.hpp"

#include <algorithm>
#include <cmath>

#include "base/format.hpp"

namespace gnbench {

std::string duration_label(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  if (s < 60) return std::to_string(s) + " s";
  if (s < 3600) return std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
  return std::to_string(s / 3600) + " h " + std::to_string(s % 3600 / 60) + " min";
}

std::string progress_line(const EntryRecord& e, size_t done, size_t total, double elapsed_s) {
  std::string line = "[";  // appended: GCC 12 warns (falsely) about "literal" + std::string
  line.append(std::to_string(done)).append("/").append(std::to_string(total)).append("] ");
  line.append(e.name()).append("  ").append(verdict_name(e.verdict));
  if (e.verdict == Verdict::kFail || e.verdict == Verdict::kError || e.verdict == Verdict::kXPass) {
    std::string message = e.message;
    std::replace(message.begin(), message.end(), '\n', ' ');
    line += ": " + message;
  }
  for (const TimingResult* t : e.timings())
    line += "  " + t->mode + " " + format("%.2f", t->total.median / 1e3) + " us";
  line += "  (" + duration_label(elapsed_s) + " elapsed";
  if (done > 0 && done < total)
    line += ", about " + duration_label(elapsed_s / double(done) * double(total - done)) + " left";
  return line + ")";
}

ProgressLog::ProgressLog(std::ostream& out, size_t total)
    : out_(out), total_(total), start_(std::chrono::steady_clock::now()) {}

void ProgressLog::finished(const EntryRecord& e) {
  ++done_;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // Flushed: a log read while the run goes on shows every finished entry.
  out_ << "gnbench: " << progress_line(e, done_, std::max(total_, done_), elapsed) << std::endl;
}

}  // namespace gnbench
