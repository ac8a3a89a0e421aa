// Reading a user-named input file (config, manifest, shader) without ever blocking or running
// away: a FIFO with no writer reads as empty instead of hanging, a directory is refused, and a
// file larger than `max_bytes` (/dev/zero, a wrong file) is refused instead of filling memory.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace gnbench {

// The most bytes gnbench reads from one config, manifest or shader, and from one results
// file (its text, after gunzip: a merge of several full runs fits, a zip bomb does not).
inline constexpr size_t kMaxInputBytes = size_t{64} << 20;
inline constexpr size_t kMaxResultsBytes = size_t{256} << 20;

// Throws ConfigError "<path>: cannot read <what>: <reason>".
std::string read_input_file(const std::filesystem::path& path, const std::string& what,
                            size_t max_bytes = kMaxInputBytes);

}  // namespace gnbench
