#include "base/npy_writer.hpp"

#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>
#include <stdexcept>

#include "base/atomic_file.hpp"

namespace gnbench {
namespace {

// The data bytes are copied as they sit in memory and declared '<'.
static_assert(std::endian::native == std::endian::little,
              "npy_writer assumes a little-endian host");

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
constexpr size_t kAlignment = 64;

std::string shape_tuple(const std::vector<uint64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) s += ",";  // Python's one-element tuple
  return s + ")";
}

template <typename Array>
std::string encode(const Array& data, const std::vector<uint64_t>& shape, const char* descr) {
  uint64_t count = 1;
  for (uint64_t d : shape) count *= d;
  if (count != static_cast<uint64_t>(data.size()))
    throw std::invalid_argument("encode_npy: shape " + shape_tuple(shape) + " holds " +
                                std::to_string(count) + " elements, data has " +
                                std::to_string(data.size()));

  std::string header = std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': " + shape_tuple(shape) + ", }";
  // Preamble is magic + 2 version bytes + 2 length bytes; pad so data starts 64-aligned.
  const size_t preamble = kMagicSize + 4;
  const size_t total = (preamble + header.size() + 1 + kAlignment - 1) / kAlignment * kAlignment;
  header.append(total - preamble - header.size() - 1, ' ');
  header += '\n';
  if (header.size() > 0xFFFF) throw std::invalid_argument("encode_npy: header too long for 1.0");

  const size_t bytes = static_cast<size_t>(data.size()) * sizeof(typename Array::Scalar);
  std::string out;
  out.reserve(total + bytes);
  out.append(kMagic, kMagicSize);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(data.data()), bytes);
  return out;
}

[[noreturn]] void bad(const std::filesystem::path& path, const std::string& what) {
  throw std::runtime_error(path.string() + ": not a valid .npy file: " + what);
}

template <typename Array>
Array as(const NpyArray& a, const char* descr) {
  if (a.dtype != descr) throw std::runtime_error("npy dtype is " + a.dtype + ", expected " + descr);
  Array out(static_cast<Eigen::Index>(a.data.size() / sizeof(typename Array::Scalar)));
  std::memcpy(out.data(), a.data.data(), a.data.size());
  return out;
}

}  // namespace

std::string encode_npy(const Eigen::ArrayXf& data, const std::vector<uint64_t>& shape) {
  return encode(data, shape, "<f4");
}
std::string encode_npy(const Eigen::ArrayXd& data, const std::vector<uint64_t>& shape) {
  return encode(data, shape, "<f8");
}

void write_npy(const std::filesystem::path& path, const Eigen::ArrayXf& data,
               const std::vector<uint64_t>& shape) {
  write_file_atomically(path, encode_npy(data, shape));
}
void write_npy(const std::filesystem::path& path, const Eigen::ArrayXd& data,
               const std::vector<uint64_t>& shape) {
  write_file_atomically(path, encode_npy(data, shape));
}

Eigen::ArrayXf NpyArray::as_float32() const { return as<Eigen::ArrayXf>(*this, "<f4"); }
Eigen::ArrayXd NpyArray::as_float64() const { return as<Eigen::ArrayXd>(*this, "<f8"); }

NpyArray read_npy(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open for reading");
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

  if (file.size() < kMagicSize + 4 || file.compare(0, kMagicSize, kMagic, kMagicSize) != 0)
    bad(path, "missing \\x93NUMPY magic");
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(file[i]); };
  const int major = byte(6);
  size_t header_len = 0, header_start = 0;
  if (major == 1) {
    header_len = byte(8) | size_t{byte(9)} << 8;
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (file.size() < 12) bad(path, "truncated preamble");
    header_len = byte(8) | size_t{byte(9)} << 8 | size_t{byte(10)} << 16 | size_t{byte(11)} << 24;
    header_start = 12;
  } else {
    bad(path, "unsupported version " + std::to_string(major));
  }
  if (file.size() < header_start + header_len) bad(path, "truncated header");
  const std::string header = file.substr(header_start, header_len);

  NpyArray result;
  std::smatch m;
  if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([^']*)')")))
    bad(path, "no descr in header");
  result.dtype = m[1];
  if (!std::regex_search(header, m, std::regex(R"('fortran_order'\s*:\s*(True|False))")))
    bad(path, "no fortran_order in header");
  result.fortran_order = m[1] == "True";
  if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))")))
    bad(path, "no shape in header");
  const std::string dims = m[1];
  const std::regex number(R"(\d+)");
  for (auto it = std::sregex_iterator(dims.begin(), dims.end(), number);
       it != std::sregex_iterator(); ++it)
    result.shape.push_back(std::stoull(it->str()));

  // Item size is the number after the type letter ("<f4" -> 4); enough for numeric dtypes.
  if (!std::regex_match(result.dtype, m, std::regex(R"([<>|=][a-zA-Z](\d+))")))
    bad(path, "unsupported dtype " + result.dtype);
  uint64_t expected = std::stoull(m[1]);
  for (uint64_t d : result.shape) expected *= d;
  result.data = file.substr(header_start + header_len);
  if (result.data.size() != expected)
    bad(path, std::to_string(result.data.size()) + " data bytes, shape and dtype need " +
                  std::to_string(expected));
  return result;
}

}  // namespace gnbench
