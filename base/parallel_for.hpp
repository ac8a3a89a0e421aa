// body(i) for every i in [0, count), spread over the machine's cores: each index runs exactly
// once, on whichever thread takes it next, so a body that writes only its own slot gives
// results independent of the thread count. Small jobs (work_items below kMinParallelWork)
// run on the calling thread: starting threads would cost more than they save.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace gnbench {

inline constexpr uint64_t kMinParallelWork = uint64_t{1} << 16;
// work_items for indices that are each heavy work (a shader compile): always spread.
inline constexpr uint64_t kHeavyWork = UINT64_MAX;

// Threads for `work_items` units of work spread over `count` indices.
inline unsigned parallel_threads(int64_t count, uint64_t work_items) {
  if (count < 2 || work_items < kMinParallelWork) return 1;
  const unsigned cores = std::clamp(std::thread::hardware_concurrency(), 1u, 64u);
  return static_cast<unsigned>(std::min<int64_t>(count, cores));
}

template <typename Body>
void parallel_for(int64_t count, uint64_t work_items, const Body& body) {
  std::atomic<int64_t> next{0};
  const auto worker = [&] {
    for (int64_t i = next++; i < count; i = next++) body(i);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < parallel_threads(count, work_items); ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();
}

// body(begin, size) for consecutive slices of [0, total), each at most `chunk` long (the last
// may be shorter), spread like parallel_for over `work_items` units of work.
template <typename Body>
void parallel_chunks(uint64_t total, uint64_t chunk, uint64_t work_items, const Body& body) {
  const auto chunks = static_cast<int64_t>((total + chunk - 1) / chunk);
  parallel_for(chunks, work_items, [&](int64_t c) {
    const uint64_t begin = static_cast<uint64_t>(c) * chunk;
    body(begin, std::min(chunk, total - begin));
  });
}

}  // namespace gnbench
