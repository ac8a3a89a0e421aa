// The fastest verified variant of each problem: a line per problem under the run's table, an
// array in the results file (context.gnbench.best_variants), and the rows of the dispatch
// table `gnbench tune` writes.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "cli/bench/records.hpp"

namespace gnbench {

struct BestVariant {
  Problem problem;
  std::string mode;     // "hot" or "cold": whose medians were compared
  std::string variant;  // the lowest median among the PASS / XPASS entries timed in `mode`
  double median_ns = 0;
  std::string runner_up;  // the second lowest; empty when only one variant was timed
  double runner_up_ns = 0;
  size_t candidates = 0;  // entries compared
  // Every compared variant's median (its lowest, where the run timed it twice).
  std::map<std::string, double> medians_ns;
};

// "hot" when any entry has hot samples, else "cold"; "" when nothing was timed.
std::string best_mode(const RunRecords& records);
// One per problem that has a timed passing entry in `mode`, in the run's problem order.
// `mode` empty: best_mode(records).
std::vector<BestVariant> best_variants(const RunRecords& records, std::string mode = "");
nlohmann::json best_variants_json(const std::vector<BestVariant>& best);
void print_best_variants(std::ostream& out, const std::vector<BestVariant>& best);

}  // namespace gnbench
