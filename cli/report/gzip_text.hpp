// Results files may be stored gzip-compressed (results/**.json.gz): the bytes of a file are
// inflated with zlib when they start with the gzip magic number, else returned as they are.
#pragma once

#include <cstddef>
#include <string>

namespace gnbench {

// Throws ConfigError naming `source` for a corrupt stream or one that inflates past
// `max_bytes` (a zip bomb must not fill memory).
std::string gunzip_if_compressed(std::string bytes, const std::string& source,
                                 size_t max_bytes = size_t{1} << 30);

}  // namespace gnbench
