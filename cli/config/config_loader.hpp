// JSON problem configurations -> validated Problems. Every rejection throws ConfigError
// with "<file>: problem '<name>': field '<field>' = <value>: <rule>".
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "base/problem.hpp"

namespace gnbench {

// Reads and validates a config file (see docs/config.md for the format).
std::vector<Problem> load_config_file(const std::string& path);

// Same, from text already read; `source` names it in messages.
std::vector<Problem> parse_config_text(const std::string& text, const std::string& source);

// Same, from parsed JSON.
std::vector<Problem> parse_config(const nlohmann::json& doc, const std::string& source);

// Shape rules that need no device: sizes > 0, channels % groups == 0,
// N*C*HW < 2^32 (kernels index with u32). Throws ConfigError naming `source` and the problem.
void validate_shape(const Shape& shape, const std::string& source, const std::string& problem);

// A problem name becomes a directory name: [A-Za-z0-9_.-]+, not "." or "..", bounded length.
// Throws ConfigError "<what> '<name>': <rule>" (what: e.g. "--name").
void validate_problem_name(const std::string& name, const std::string& what);

// eps finite and > 0 (and representable as a normal float32).
void validate_eps(double eps, const std::string& source, const std::string& problem);

}  // namespace gnbench
