// The stopping rule's record of one timing in the results file: which rule stopped it, the
// median's interval at the stop and, when seen, the two modes of the samples.
#pragma once

#include <nlohmann/json.hpp>

#include "cli/timing/sampler.hpp"

namespace gnbench {

void add_stopping_json(nlohmann::json& timing, const TimingResult& t);
// Files written before these fields existed read as converged or timeout by
// noise_target_reached, with no interval and no modes.
void read_stopping_json(const nlohmann::json& timing, TimingResult& t);

// "converged", "timeout", ...; with " bimodal" appended when the samples have two modes.
std::string stop_label(const TimingResult& t);

}  // namespace gnbench
