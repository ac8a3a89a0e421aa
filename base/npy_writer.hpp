// NumPy .npy files (format 1.0, little-endian, C order) for tensors a run dumps, so they load
// with a plain numpy.load().
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gnbench {

// The encoded file: 10-byte preamble + header dict padded with spaces to end in '\n' at a
// multiple of 64 bytes, then the raw data. Throws std::invalid_argument when the product of
// `shape` (1 for an empty shape, i.e. a 0-d array) differs from data.size().
std::string encode_npy(const Eigen::ArrayXf& data, const std::vector<uint64_t>& shape);
std::string encode_npy(const Eigen::ArrayXd& data, const std::vector<uint64_t>& shape);

// encode_npy() written through write_file_atomically() (report/atomic_file.hpp).
void write_npy(const std::filesystem::path& path, const Eigen::ArrayXf& data,
               const std::vector<uint64_t>& shape);
void write_npy(const std::filesystem::path& path, const Eigen::ArrayXd& data,
               const std::vector<uint64_t>& shape);

struct NpyArray {
  std::vector<uint64_t> shape;
  std::string dtype;  // the header's descr, e.g. "<f4", "<f8"
  bool fortran_order = false;
  std::string data;  // the raw element bytes, as stored

  // The data as floats; throw std::runtime_error unless dtype is "<f4" / "<f8" respectively.
  Eigen::ArrayXf as_float32() const;
  Eigen::ArrayXd as_float64() const;
};

// Reads format 1.0, 2.0 and 3.0 files. Throws std::runtime_error naming the path on a missing
// file, a bad magic or header, or a data size that does not match shape and dtype.
NpyArray read_npy(const std::filesystem::path& path);

}  // namespace gnbench
