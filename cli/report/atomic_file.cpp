#include "report/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <random>
#include <stdexcept>

#include "config/config_error.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& path, const std::string& what, int err) {
  throw std::runtime_error(path.string() + ": " + what + ": " + std::strerror(err));
}

// Hidden name next to the target; pid + counter + random tag keep concurrent writers (threads,
// processes, stale leftovers) apart, and O_EXCL guarantees we never reuse an existing file.
fs::path temp_name(const fs::path& path) {
  static std::atomic<uint64_t> counter{0};
  static const uint64_t tag = std::random_device{}();
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  // Built by append: GCC 12 warns falsely (-Wrestrict) on "." + std::string.
  std::string name(".");
  name += path.filename().string();
  name.append(".tmp.").append(std::to_string(::getpid()));
  name.append(".").append(std::to_string(counter++));
  name.append(".").append(std::to_string(tag % 1000000));
  return dir / name;
}

}  // namespace

void write_file_atomically(const fs::path& path, std::string_view contents) {
  if (!path.has_filename()) fail(path, "not a file name", EISDIR);

  fs::path temp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = temp_name(path);
    // 0666 so the file gets the umask's permissions, like any freshly created output.
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST)
      fail(path, "cannot create temporary file " + temp.string(), errno);
  }
  if (fd < 0) fail(path, "cannot create temporary file " + temp.string(), EEXIST);

  const auto abandon = [&](const std::string& what) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    ::unlink(temp.c_str());
    fail(path, what, err);
  };

  const char* data = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      abandon("write failed");
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  // fsync before rename: otherwise a crash can leave the new name pointing at empty data.
  if (::fsync(fd) != 0) abandon("fsync failed");
  const int closed = ::close(fd);
  fd = -1;
  if (closed != 0) abandon("close failed");
  if (::rename(temp.c_str(), path.c_str()) != 0) abandon("cannot replace");

  // Make the rename itself durable; best effort, the new contents are already in place.
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void ensure_writable_target(const fs::path& path, bool overwrite_allowed,
                            const std::string& flag_hint) {
  const std::string name = path.string();
  std::error_code ec;
  if (!path.has_filename() || fs::is_directory(path, ec))
    throw ConfigError(name + ": is a directory; expected a file path");

  const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
  const auto parent_status = fs::status(parent, ec);
  if (!fs::exists(parent_status))
    throw ConfigError(name + ": directory " + parent.string() + " does not exist");
  if (!fs::is_directory(parent_status))
    throw ConfigError(name + ": " + parent.string() + " is not a directory");

  // symlink_status: a dangling link is still something the write would replace.
  if (fs::exists(fs::symlink_status(path, ec)) && !overwrite_allowed)
    throw ConfigError(name + ": exists; pass " + flag_hint + " to replace it");
}

}  // namespace gnbench
