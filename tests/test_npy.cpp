#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "base/npy_writer.hpp"

namespace gnbench {
namespace {

namespace fs = std::filesystem;

class NpyWriter : public ::testing::Test {
 protected:
  void SetUp() override {
    dir =
        fs::temp_directory_path() / ("gnbench_npy_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  // 0..n-1 scaled: values exact in float32 and easy to recompute in Python.
  static Eigen::ArrayXf ramp(Eigen::Index n) {
    return Eigen::ArrayXf::LinSpaced(n, 0, static_cast<float>(n - 1)) * 0.25f - 1.0f;
  }

  fs::path dir;
};

TEST_F(NpyWriter, RoundTripFloat32) {
  const Eigen::ArrayXf data = ramp(24);
  write_npy(dir / "a.npy", data, {2, 3, 4});
  const NpyArray a = read_npy(dir / "a.npy");
  EXPECT_EQ(a.dtype, "<f4");
  EXPECT_FALSE(a.fortran_order);
  EXPECT_EQ(a.shape, (std::vector<uint64_t>{2, 3, 4}));
  EXPECT_TRUE((a.as_float32() == data).all());
  EXPECT_THROW(a.as_float64(), std::runtime_error);
}

TEST_F(NpyWriter, RoundTripFloat64AndOddShapes) {
  const Eigen::ArrayXd data = Eigen::ArrayXd::Random(7) * 1e300;
  write_npy(dir / "b.npy", data, {7});
  const NpyArray b = read_npy(dir / "b.npy");
  EXPECT_EQ(b.dtype, "<f8");
  EXPECT_EQ(b.shape, std::vector<uint64_t>{7});
  EXPECT_TRUE((b.as_float64() == data).all());

  write_npy(dir / "scalar.npy", Eigen::ArrayXd(Eigen::ArrayXd::Constant(1, 3.5)), {});
  const NpyArray s = read_npy(dir / "scalar.npy");
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(s.as_float64()(0), 3.5);

  write_npy(dir / "empty.npy", Eigen::ArrayXf(0), {0, 5});
  const NpyArray e = read_npy(dir / "empty.npy");
  EXPECT_EQ(e.shape, (std::vector<uint64_t>{0, 5}));
  EXPECT_TRUE(e.data.empty());
}

TEST_F(NpyWriter, HeaderBytes) {
  for (const auto& shape : {std::vector<uint64_t>{2, 3, 4}, std::vector<uint64_t>{24},
                            std::vector<uint64_t>{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 24}}) {
    const std::string bytes = encode_npy(ramp(24), shape);
    ASSERT_GE(bytes.size(), 10u);
    EXPECT_EQ(bytes.substr(0, 6), std::string("\x93NUMPY"));
    EXPECT_EQ(bytes[6], '\x01');
    EXPECT_EQ(bytes[7], '\x00');
    const size_t header_len =
        static_cast<uint8_t>(bytes[8]) | static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8;
    EXPECT_EQ((10 + header_len) % 64, 0u);
    EXPECT_EQ(bytes.size(), 10 + header_len + 24 * sizeof(float));
    EXPECT_EQ(bytes[10 + header_len - 1], '\n');
    EXPECT_EQ(bytes.substr(10, 39), "{'descr': '<f4', 'fortran_order': False");
  }
  const std::string header = encode_npy(ramp(24), {2, 3, 4}).substr(10, 64);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }", 0), 0u)
      << header;
  EXPECT_NE(encode_npy(ramp(24), {24}).find("'shape': (24,), }"), std::string::npos);
}

TEST_F(NpyWriter, ShapeMismatchThrows) {
  EXPECT_THROW(encode_npy(ramp(24), {5, 5}), std::invalid_argument);
  EXPECT_THROW(write_npy(dir / "x.npy", ramp(24), {25}), std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir / "x.npy"));
}

TEST_F(NpyWriter, ReaderRejectsGarbage) {
  std::ofstream(dir / "bad.npy") << "not numpy at all";
  EXPECT_THROW(read_npy(dir / "bad.npy"), std::runtime_error);
  EXPECT_THROW(read_npy(dir / "missing.npy"), std::runtime_error);
  std::string truncated = encode_npy(ramp(24), {24});
  truncated.pop_back();
  std::ofstream(dir / "short.npy", std::ios::binary) << truncated;
  EXPECT_THROW(read_npy(dir / "short.npy"), std::runtime_error);
}

TEST_F(NpyWriter, NumpyLoadsOurFilesAndWeReadNumpys) {
  if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 with numpy not available";

  write_npy(dir / "f4.npy", ramp(24), {2, 3, 4});
  write_npy(dir / "f8.npy", Eigen::ArrayXd(ramp(6).cast<double>() / 3.0), {6});
  const std::string check =
      "/usr/bin/python3 -c '"
      "import numpy as np, sys\n"
      "d = sys.argv[1]\n"
      "a = np.load(d + \"/f4.npy\")\n"
      "assert a.dtype == np.float32 and a.shape == (2, 3, 4), (a.dtype, a.shape)\n"
      "assert (a == (np.arange(24, dtype=np.float32) * 0.25 - 1).reshape(2, 3, 4)).all(), a\n"
      "b = np.load(d + \"/f8.npy\")\n"
      "assert b.dtype == np.float64 and b.shape == (6,), (b.dtype, b.shape)\n"
      "assert (b == (np.arange(6, dtype=np.float32) * 0.25 - 1).astype(np.float64) / 3).all(), b\n"
      "np.save(d + \"/from_numpy.npy\", np.arange(12, dtype=\"<f8\").reshape(3, 4) / 7)\n"
      "' " +
      dir.string();
  ASSERT_EQ(std::system(check.c_str()), 0) << check;

  const NpyArray n = read_npy(dir / "from_numpy.npy");
  EXPECT_EQ(n.dtype, "<f8");
  EXPECT_EQ(n.shape, (std::vector<uint64_t>{3, 4}));
  EXPECT_TRUE((n.as_float64() == Eigen::ArrayXd::LinSpaced(12, 0, 11) / 7).all());
}

}  // namespace
}  // namespace gnbench
