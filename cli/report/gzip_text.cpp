#include "cli/report/gzip_text.hpp"

#include <zlib.h>

#include <stdexcept>

#include "base/errors.hpp"

namespace gnbench {

std::string gunzip_if_compressed(std::string bytes, const std::string& source, size_t max_bytes) {
  if (bytes.size() < 2 || static_cast<unsigned char>(bytes[0]) != 0x1f ||
      static_cast<unsigned char>(bytes[1]) != 0x8b)
    return bytes;
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)  // 16: expect a gzip header
    throw ConfigError(source + ": cannot inflate: zlib initialisation failed");
  struct End {
    z_stream* z;
    ~End() { inflateEnd(z); }
  } end{&z};
  z.next_in = reinterpret_cast<Bytef*>(bytes.data());
  z.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char buf[1 << 16];
  auto gzip_magic = [](const Bytef* p, uInt n) { return n >= 2 && p[0] == 0x1f && p[1] == 0x8b; };
  for (int rc = Z_OK;;) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END)
      throw ConfigError(source + ": corrupt gzip data (" + (z.msg ? z.msg : "truncated") + ")");
    out.append(buf, sizeof buf - z.avail_out);
    if (out.size() > max_bytes)
      throw ConfigError(source + ": inflates to more than " + std::to_string(max_bytes >> 20) +
                        " MiB (the most gnbench reads from one file)");
    if (rc == Z_STREAM_END) {
      if (z.avail_in == 0) break;
      // Another member (gzip -d reads concatenated members as one text), or garbage, which
      // would otherwise be dropped without a word.
      if (!gzip_magic(z.next_in, z.avail_in))
        throw ConfigError(source + ": " + std::to_string(z.avail_in) +
                          " bytes after the end of the gzip data");
      inflateReset(&z);
      continue;
    }
    if (z.avail_in == 0 && z.avail_out != 0)
      throw ConfigError(source + ": corrupt gzip data (truncated)");
  }
  return out;
}

std::string gzip_if_named(const std::filesystem::path& path, std::string text) {
  if (path.extension() != ".gz") return text;
  z_stream z{};
  // 16: write a gzip header and trailer; level 6, zlib's default.
  if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error(path.string() + ": cannot compress: zlib initialisation failed");
  struct End {
    z_stream* z;
    ~End() { deflateEnd(z); }
  } end{&z};
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(text.data());
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END)
    throw std::runtime_error(path.string() + ": cannot compress");
  out.resize(out.size() - z.avail_out);
  return out;
}

}  // namespace gnbench
