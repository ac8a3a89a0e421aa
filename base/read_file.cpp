#include "base/read_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/errors.hpp"

namespace gnbench {

std::string read_input_file(const std::filesystem::path& path, const std::string& what,
                            size_t max_bytes) {
  const std::string prefix = path.string() + ": cannot read " + what + ": ";
  // O_NONBLOCK: opening a FIFO that has no writer would otherwise wait for one forever.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) throw ConfigError(prefix + "no such file");
    throw ConfigError(prefix + std::strerror(errno));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw ConfigError(prefix + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw ConfigError(prefix + "it is a directory");
  // A device (/dev/zero, /dev/urandom, a terminal) or a socket is never a file gnbench reads;
  // refusing it up front beats reading 64 MiB of zeros or waiting on a terminal.
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
    throw ConfigError(prefix + "it is a device or socket, not a file");
  // Back to blocking reads: a pipe with a writer (e.g. bash's <(...)) delivers its data; one
  // without reads as end of file.
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::string text;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw ConfigError(prefix + std::strerror(errno));
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > max_bytes)
      throw ConfigError(prefix + "larger than " +
                        (max_bytes >= (size_t{1} << 20) ? std::to_string(max_bytes >> 20) + " MiB"
                                                        : std::to_string(max_bytes) + " bytes") +
                        " (not a " + what + "?)");
  }
  return text;
}

}  // namespace gnbench
