// What gnbench spends on the CPU per problem: drawing inputs, the float64 reference, the error
// metrics and invariants, and expanding configs. Sizes are elements of one tensor; 1 << 25
// (33.5M) is the size of the largest standard shapes (sd_vae_*). These run on every core
// (base/parallel_for.hpp), so times are wall clock and `per_thread` is elements per
// second divided by the threads used.
#include <benchmark/benchmark.h>

#include "base/parallel_for.hpp"
#include "cli/config/config_loader.hpp"
#include "cli/inputs/input_generator.hpp"
#include "cli/verify/invariants.hpp"
#include "cli/verify/metrics.hpp"
#include "reference/group_norm.hpp"

namespace {

using namespace gnbench;

// (N, C, HW, G) with N*C*HW = range(0) elements: a UNet-like shape scaled by HW.
Shape shape_for(int64_t elements) {
  return Shape{8, 320, static_cast<uint32_t>(elements / (8 * 320)), 32};
}

// Elements per second, and per second per thread, for a benchmark over `s`.
void count_elements(benchmark::State& state, const Shape& s) {
  const double elements =
      static_cast<double>(state.iterations()) * static_cast<double>(s.elements());
  const unsigned threads = parallel_threads(int64_t{s.batch} * s.groups, s.elements());
  state.SetItemsProcessed(static_cast<int64_t>(elements));
  state.counters["threads"] = threads;
  state.counters["per_thread"] =
      benchmark::Counter(elements / threads, benchmark::Counter::kIsRate);
}

void BM_GenerateInputs(benchmark::State& state) {
  Shape s = shape_for(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(generate_inputs(s, {"normal", 0}, 1));
  count_elements(state, s);
}
BENCHMARK(BM_GenerateInputs)
    ->Arg(1 << 18)
    ->Arg(1 << 25)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_Reference(benchmark::State& state) {
  Shape s = shape_for(state.range(0));
  Inputs in = generate_inputs(s, {"normal", 0}, 1);
  for (auto _ : state) benchmark::DoNotOptimize(reference::backward(s, in, 1e-5f));
  count_elements(state, s);
}
BENCHMARK(BM_Reference)->Arg(1 << 18)->Arg(1 << 25)->Unit(benchmark::kMillisecond)->UseRealTime();

// Metrics and invariants on GPU-like outputs: the reference rounded to float32.
struct Checked {
  Shape shape;
  Inputs inputs;
  ReferenceOutputs ref;
  GpuOutputs gpu;
  explicit Checked(int64_t elements) : shape(shape_for(elements)) {
    inputs = generate_inputs(shape, {"normal", 0}, 1);
    ref = reference::backward(shape, inputs, 1e-5f);
    gpu = {ref.grad_input.cast<float>(), ref.grad_weight.cast<float>(),
           ref.grad_bias.cast<float>()};
  }
};

void BM_Verify(benchmark::State& state) {
  Checked c(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(verify(c.shape, c.gpu, c.ref, Tolerances{}));
  count_elements(state, c.shape);
}
BENCHMARK(BM_Verify)->Arg(1 << 18)->Arg(1 << 25)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Invariants(benchmark::State& state) {
  Checked c(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(check_invariants(c.shape, c.inputs, 1e-5f, c.gpu));
  count_elements(state, c.shape);
}
BENCHMARK(BM_Invariants)->Arg(1 << 18)->Arg(1 << 25)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ExpandAxes(benchmark::State& state) {
  // 8 x 8 x 8 x 4 = 2048 generated problems.
  const std::string text = R"({"axes": [{"batch": [1,2,3,4,5,6,7,8],
    "channels": [32,64,96,128,160,192,224,256], "spatial": [1,7,49,64,256,1024,3136,4096],
    "groups": [1,2,4,8]}]})";
  for (auto _ : state) benchmark::DoNotOptimize(parse_config_text(text, "bench"));
  state.SetItemsProcessed(state.iterations() * 2048);
}
BENCHMARK(BM_ExpandAxes)->Unit(benchmark::kMillisecond);

}  // namespace
