#include "cli/bench/input_guard.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <span>
#include <vector>

#include "base/parallel_for.hpp"
#include "cli/verify/metrics.hpp"
#include "kernels/runtime/variant_runner.hpp"

namespace gnbench {

namespace {

// Read back in chunks: the host holds one chunk, not a second copy of a 134 MB tensor.
constexpr uint64_t kChunkElements = uint64_t{16} << 20;

struct Difference {
  uint64_t changed = 0;
  uint64_t first = 0;
};

// memcmp over slices on the thread pool.
bool same_bytes(const float* a, const float* b, uint64_t count) {
  std::atomic<bool> same{true};
  parallel_chunks(count, uint64_t{1} << 20, count, [&](uint64_t begin, uint64_t size) {
    if (std::memcmp(a + begin, b + begin, size * sizeof(float)) != 0) same = false;
  });
  return same;
}

Difference compare_with_device(Transfer& transfer, const GpuBuffer& buffer,
                               const Eigen::ArrayXf& host, std::vector<float>& chunk) {
  Difference d;
  const uint64_t total = static_cast<uint64_t>(host.size());
  if (chunk.size() < std::min(total, kChunkElements)) chunk.resize(std::min(total, kChunkElements));
  const uint64_t step = std::max<uint64_t>(chunk.size(), 1);
  for (uint64_t begin = 0; begin < total; begin += step) {
    const uint64_t count = std::min<uint64_t>(step, total - begin);
    transfer.download(buffer, begin * sizeof(float),
                      std::as_writable_bytes(std::span(chunk.data(), count)));
    const float* expected = host.data() + begin;
    if (same_bytes(chunk.data(), expected, count)) continue;
    for (uint64_t i = 0; i < count; ++i)  // bitwise: a NaN written over a NaN counts too
      if (std::memcmp(&chunk[i], &expected[i], sizeof(float)) != 0) {
        if (d.changed++ == 0) d.first = begin + i;
      }
  }
  return d;
}

ElementLocation location(const std::string& tensor, const Shape& shape, uint64_t index) {
  ElementLocation loc;
  if (tensor == "weight") {
    loc.c = static_cast<int64_t>(index);
    return loc;
  }
  loc.hw = static_cast<int64_t>(index % shape.spatial);
  loc.c = static_cast<int64_t>(index / shape.spatial % shape.channels);
  loc.n = static_cast<int64_t>(index / shape.spatial / shape.channels);
  return loc;
}

}  // namespace

InputGuard::InputGuard(Transfer& transfer, const DeviceInputs& device, const Inputs& inputs,
                       const Shape& shape)
    : transfer_(transfer), device_(device), inputs_(inputs), shape_(shape) {}

bool InputGuard::check_and_restore(std::string& first_write, const std::string& when) {
  const std::pair<const char*, const Eigen::ArrayXf*> tensors[] = {
      {"x", &inputs_.x}, {"grad_out", &inputs_.grad_out}, {"weight", &inputs_.weight}};
  std::string found;
  for (const auto& [name, host] : tensors) {
    const GpuBuffer& buffer = device_.tensor(name);
    const Difference d = compare_with_device(transfer_, buffer, *host, chunk_);
    if (d.changed == 0) continue;
    transfer_.upload(buffer, 0, std::as_bytes(std::span(host->data(), host->size())));
    found += std::string(found.empty() ? "wrote into input " : "; input ") + name + ": " +
             std::to_string(d.changed) + " of " + std::to_string(host->size()) +
             " elements changed, first at " + location(name, shape_, d.first).str();
  }
  if (found.empty()) return false;
  if (first_write.empty()) first_write = found + ", " + when;
  return true;
}

}  // namespace gnbench
