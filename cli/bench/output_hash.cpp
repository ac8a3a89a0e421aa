#include "cli/bench/output_hash.hpp"

#include <cstring>
#include <vector>

#include "base/deterministic_random.hpp"
#include "base/parallel_for.hpp"

namespace gnbench {

namespace {

// Four independent lanes (the multiply chains overlap), each word mixed with its position.
uint64_t hash_floats(const float* p, size_t n, uint64_t seed) {
  uint64_t lane[4] = {seed, seed ^ 1, seed ^ 2, seed ^ 3};
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w[4];
    std::memcpy(w, p + i, sizeof w);
    for (int k = 0; k < 4; ++k) lane[k] = mix64(lane[k] ^ w[k]) + i;
  }
  uint64_t h = mix64(lane[0] ^ mix64(lane[1] ^ mix64(lane[2] ^ mix64(lane[3] ^ n))));
  for (; i < n; ++i) {
    uint32_t w;
    std::memcpy(&w, p + i, sizeof w);
    h = mix64(h ^ w ^ (uint64_t{i} << 32));
  }
  return h;
}

// Chunks hashed on the thread pool, then their hashes in order: the value does not depend on
// the thread count (a 134 MB tensor took ~30 ms on one thread, for every variant).
uint64_t hash_floats(const Eigen::ArrayXf& a, uint64_t seed) {
  constexpr uint64_t kChunk = uint64_t{1} << 20;
  const auto n = static_cast<uint64_t>(a.size());
  std::vector<uint64_t> parts((n + kChunk - 1) / kChunk);
  parallel_chunks(n, kChunk, n, [&](uint64_t begin, uint64_t size) {
    parts[begin / kChunk] = hash_floats(a.data() + begin, size, seed + begin / kChunk);
  });
  uint64_t h = mix64(seed ^ n);
  for (uint64_t part : parts) h = mix64(h ^ part);
  return h;
}

}  // namespace

uint64_t output_hash(const GpuOutputs& out) {
  uint64_t h = hash_floats(out.grad_input, 0x6772616449ull);
  h = hash_floats(out.grad_weight, h);
  return hash_floats(out.grad_bias, h);
}

}  // namespace gnbench
