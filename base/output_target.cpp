#include "base/output_target.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "base/json_document.hpp"

namespace gnbench {

namespace {

namespace fs = std::filesystem;

std::string why_not_there(int err) {
  switch (err) {
    case ENOENT: return "does not exist";
    case ELOOP: return "is a symlink loop";
    case EACCES: return "permission denied";
    case ENOTDIR: return "a part of the path is not a directory";
    case ENAMETOOLONG: return "the name is too long";
    default: return std::strerror(err);
  }
}

// The folder a new or replaced file goes into must exist, be a folder and be writable.
void check_folder(const fs::path& file, const std::string& prefix) {
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0)
    throw ConfigError(prefix + "directory " + printable(dir.string()) + " " + why_not_there(errno));
  if (!S_ISDIR(st.st_mode))
    throw ConfigError(prefix + printable(dir.string()) + " is not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw ConfigError(prefix + "directory " + printable(dir.string()) + " is not writable (" +
                      why_not_there(errno) + ")");
}

// Absolute, with the symlinks and dot segments of its existing part resolved: weakly_canonical
// of a bare relative name ("x.json") would stay relative while "./x.json" would not. Symlinks
// first: "link/.." is the folder above link's target, not the folder link is in.
fs::path resolved(const fs::path& p) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(p, ec);
  const fs::path canonical = fs::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : canonical.lexically_normal();
}

}  // namespace

OutputTarget check_output_target(const std::string& flag, const std::string& path, bool force) {
  const std::string prefix = (flag.empty() ? "" : flag + " ") + printable(path) + ": ";
  OutputTarget t{flag, path, path, OutputTarget::Kind::kCreate, force};
  if (path.empty()) throw ConfigError(flag + " '': an empty path (use - for standard output)");
  if (path == "-") {
    t.kind = OutputTarget::Kind::kStdout;
    return t;
  }
  if (path.back() == '/') throw ConfigError(prefix + "is a directory; expected a file path");
  struct stat entry {};
  if (::lstat(path.c_str(), &entry) != 0) {
    if (errno != ENOENT) throw ConfigError(prefix + why_not_there(errno));
    check_folder(path, prefix);
    return t;
  }
  struct stat st = entry;
  if (S_ISLNK(entry.st_mode)) {
    if (::stat(path.c_str(), &st) != 0)
      throw ConfigError(prefix + "is a symlink to nothing usable (" + why_not_there(errno) + ")");
    std::error_code ec;
    t.file = fs::canonical(path, ec);
    if (ec) throw ConfigError(prefix + "cannot resolve the symlink: " + ec.message());
  }
  if (S_ISDIR(st.st_mode)) throw ConfigError(prefix + "is a directory; expected a file path");
  if (S_ISSOCK(st.st_mode)) throw ConfigError(prefix + "is a socket, not a file");
  if (!S_ISREG(st.st_mode)) {  // a device or FIFO: written through, never replaced
    if (::access(path.c_str(), W_OK) != 0)
      throw ConfigError(prefix + "cannot write to it (" + why_not_there(errno) + ")");
    t.kind = OutputTarget::Kind::kWriteThrough;
    return t;
  }
  if (!force) throw ConfigError(prefix + "exists; pass --force to replace it");
  check_folder(t.file, prefix);
  t.kind = OutputTarget::Kind::kReplace;
  return t;
}

void check_distinct_outputs(const std::vector<OutputTarget>& targets) {
  auto same = [](const OutputTarget& a, const OutputTarget& b) {
    if (a.kind == OutputTarget::Kind::kStdout || b.kind == OutputTarget::Kind::kStdout)
      return a.kind == b.kind;
    std::error_code ec;
    if (fs::equivalent(a.file, b.file, ec)) return true;  // both exist: same inode
    return resolved(a.file) == resolved(b.file);          // "x", "./x", "d/../x": one new file
  };
  for (size_t i = 0; i < targets.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (same(targets[i], targets[j]))
        throw ConfigError(targets[j].flag + " and " + targets[i].flag + " name the same file " +
                          printable(targets[i].path.string()) + "; give each its own path");
}

void write_output(const OutputTarget& target, std::string_view contents) {
  switch (target.kind) {
    case OutputTarget::Kind::kStdout:
      std::cout.write(contents.data(), static_cast<std::streamsize>(contents.size()));
      std::cout.flush();
      if (!std::cout) throw std::runtime_error(target.flag + " -: writing standard output failed");
      return;
    case OutputTarget::Kind::kCreate:
      if (target.force)  // replacing what appeared meanwhile is allowed
        write_file_atomically(target.file, contents);
      else
        write_new_file_atomically(target.file, contents);
      return;
    case OutputTarget::Kind::kReplace: {
      // Checked again: what was a regular file at the start may be a symlink or device now.
      struct stat st {};
      if (::lstat(target.file.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw std::runtime_error(target.file.string() +
                                 ": is no longer a regular file; not replaced");
      write_file_atomically(target.file, contents);
      return;
    }
    case OutputTarget::Kind::kWriteThrough: {
      // No O_CREAT, no O_TRUNC: a device or FIFO is written to, never made into a file.
      const int fd = ::open(target.path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
      if (fd < 0)
        throw std::runtime_error(target.path.string() + ": cannot open: " + std::strerror(errno));
      const char* data = contents.data();
      size_t left = contents.size();
      while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          const int err = n < 0 ? errno : EIO;
          ::close(fd);
          throw std::runtime_error(target.path.string() + ": write failed: " + std::strerror(err));
        }
        data += n;
        left -= static_cast<size_t>(n);
      }
      if (::close(fd) != 0)
        throw std::runtime_error(target.path.string() + ": close failed: " + std::strerror(errno));
      return;
    }
  }
}

void ensure_writable_target(const fs::path& path, bool overwrite_allowed,
                            const std::string& flag_hint) {
  (void)flag_hint;  // the messages say --force, the only flag that allows replacing
  check_output_target("", path.string(), overwrite_allowed);
}

}  // namespace gnbench
