#include "base/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <random>
#include <stdexcept>

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

// Writes `contents` to a fresh temporary file next to `path`, fsynced; returns its name.
fs::path write_temp_file(const fs::path& path, std::string_view contents) {
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
  return temp;
}

// Make the rename or link itself durable; best effort, the new contents are already in place.
void sync_parent(const fs::path& path) {
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace

void write_file_atomically(const fs::path& path, std::string_view contents) {
  const fs::path temp = write_temp_file(path, contents);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    fail(path, "cannot replace", err);
  }
  sync_parent(path);
}

void write_new_file_atomically(const fs::path& path, std::string_view contents) {
  const fs::path temp = write_temp_file(path, contents);
  // link() fails with EEXIST where rename() would replace: of two runs creating the same new
  // file, exactly one succeeds, and the other's results are not lost silently.
  const int linked = ::link(temp.c_str(), path.c_str());
  const int err = errno;
  ::unlink(temp.c_str());
  if (linked != 0) {
    if (err == EEXIST)
      throw std::runtime_error(path.string() +
                               ": was created by someone else while gnbench ran; not replaced "
                               "(pass --force to replace it)");
    fail(path, "cannot create", err);
  }
  sync_parent(path);
}

}  // namespace gnbench
