// Random numbers that are the same on every platform and standard library: std::mt19937_64
// is fully specified by the standard, std::*_distribution are not, so draws are made here from
// its raw bits. Shared by the inputs, the random problems and the output hash.
#pragma once

#include <cstdint>
#include <random>

namespace gnbench {

// splitmix64's finalizer: a bijection on 64 bits with full avalanche.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
inline constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;

class PortableRandom {
 public:
  explicit PortableRandom(uint64_t seed) : engine_(seed) {}
  uint64_t bits() { return engine_(); }
  // [0, 1) with 53 random bits (exact: a shift and a power-of-two scale).
  double uniform01() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  // Unbiased integer in [0, n) by rejection (n > 0).
  uint64_t below(uint64_t n) {
    const uint64_t threshold = (0 - n) % n;  // 2^64 mod n
    for (;;)
      if (const uint64_t r = engine_(); r >= threshold) return r % n;
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace gnbench
