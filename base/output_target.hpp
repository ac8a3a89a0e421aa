// Output paths given on the command line (--json, --csv, --md, -o, --update-baseline): checked
// before any work, written after it. The rules, in one place:
// - "" is refused; "-" is standard output (never a file named "-");
// - a path that exists and is not a regular file (a device, a FIFO, /dev/stdout) is written
//   through, never replaced, with or without --force;
// - a regular file is replaced (atomically) only with --force; through a symlink, the file it
//   points to is replaced and the symlink stays;
// - a new file is created exclusively: if another process creates it meanwhile, the write
//   fails instead of replacing that file;
// - one path given for two outputs is refused.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gnbench {

struct OutputTarget {
  enum class Kind { kStdout, kCreate, kReplace, kWriteThrough };
  std::string flag;            // "--json", for messages
  std::filesystem::path path;  // as given
  std::filesystem::path file;  // what is created, replaced or written (a symlink resolved)
  Kind kind = Kind::kCreate;
  bool force = false;
};

// Throws ConfigError "<flag> <path>: <why>" naming the true cause (missing folder, not a
// folder, permission, symlink loop, dangling symlink, directory, exists without --force).
OutputTarget check_output_target(const std::string& flag, const std::string& path, bool force);

// Throws ConfigError when two targets are one file (or both standard output).
void check_distinct_outputs(const std::vector<OutputTarget>& targets);

// Writes per the target's kind, checking it again (things change during a long run).
// Throws std::runtime_error naming the path and the system error.
void write_output(const OutputTarget& target, std::string_view contents);

// check_output_target for callers that only need the check; `flag_hint` names the flag that
// allows replacing ("--force").
void ensure_writable_target(const std::filesystem::path& path, bool overwrite_allowed,
                            const std::string& flag_hint);

}  // namespace gnbench
