// The one JSON reader for everything a user hands gnbench (configs, kernel manifests, results
// files): the same limits and the same one-line messages everywhere.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "base/message_text.hpp"  // printable(), for messages built from what was parsed

namespace gnbench {

// Parses `text` strictly: refuses NUL bytes (nlohmann would stop at one and accept what
// precedes it), trailing garbage, duplicate keys in an object (nlohmann keeps the last
// silently), nesting deeper than 64 levels and numbers too large for a double (1e400).
// Throws ConfigError "<source>:<line>:<column>: <what>".
nlohmann::json parse_json_document(const std::string& text, const std::string& source);

// Reads `path` with read_input_file (bounded, never blocks) and parses it as above.
nlohmann::json read_json_file(const std::string& path, const std::string& what);

}  // namespace gnbench
