// Results files may be stored gzip-compressed (results/**.json.gz): the bytes of a file are
// inflated with zlib when they start with the gzip magic number, else returned as they are.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

namespace gnbench {

// Throws ConfigError naming `source` for a corrupt stream, bytes after the last gzip member
// (several members are one text, as gzip -d reads them), or a text past `max_bytes` (a zip bomb
// must not fill memory).
std::string gunzip_if_compressed(std::string bytes, const std::string& source, size_t max_bytes);

// The text as it is stored at `path`: gzip-compressed when the name ends in ".gz" (a results
// file named x.json.gz is what its name says), else unchanged.
std::string gzip_if_named(const std::filesystem::path& path, std::string text);

}  // namespace gnbench
