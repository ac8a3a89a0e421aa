// Progress for logs (stderr not a terminal: CI, pipes, files): one line per entry as it
// finishes, so that a log shows the work as it happens instead of everything at the end.
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

#include "cli/bench/records.hpp"

namespace gnbench {

// "[3/40] p/v  PASS  cold 12.34 us  (5 s elapsed, about 1 min 2 s left)"; a failure's
// message follows its verdict.
std::string progress_line(const EntryRecord& e, size_t done, size_t total, double elapsed_s);

// "42 s", "3 min 5 s", "2 h 7 min".
std::string duration_label(double seconds);

class ProgressLog {
 public:
  // `total`: the entries that will run (skipped ones are not reported).
  ProgressLog(std::ostream& out, size_t total);
  void finished(const EntryRecord& e);

 private:
  std::ostream& out_;
  size_t total_, done_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace gnbench
