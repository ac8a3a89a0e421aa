// Output files that are either absent, the old version or the complete new version: never a
// truncated mix, even when the process dies mid-write.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "base/output_target.hpp"  // ensure_writable_target, for its callers

namespace gnbench {

// Writes `contents` to a uniquely named temporary file in path's directory, fsyncs it and
// renames it over `path`. On failure removes the temporary file and throws std::runtime_error
// naming the path and the system error. The parent directory must exist.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

// Same, but never replaces anything: the file appears complete under `path` only if nothing
// was there (link(2) of the temporary file); otherwise throws std::runtime_error. For
// outputs given without --force, so that two runs writing one new path cannot both succeed.
void write_new_file_atomically(const std::filesystem::path& path, std::string_view contents);

}  // namespace gnbench
