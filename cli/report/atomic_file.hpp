// Output files that are either absent, the old version or the complete new version: never a
// truncated mix, even when the process dies mid-write.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace gnbench {

// Writes `contents` to a uniquely named temporary file in path's directory, fsyncs it and
// renames it over `path`. On failure removes the temporary file and throws std::runtime_error
// naming the path and the system error. The parent directory must exist.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

// Up-front check of an output path given on the command line, before any work is done. Throws
// gnbench::ConfigError when `path` is a directory, its parent directory does not exist (or is
// not a directory), or it exists and !overwrite_allowed; the message names `flag_hint` (e.g.
// "--force") as the way to replace an existing file.
void ensure_writable_target(const std::filesystem::path& path, bool overwrite_allowed,
                            const std::string& flag_hint);

}  // namespace gnbench
