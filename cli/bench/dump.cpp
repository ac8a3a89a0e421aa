#include "bench/dump.hpp"

#include "report/npy_writer.hpp"

namespace gnbench {

namespace fs = std::filesystem;

namespace {
template <typename Gradients>
void write_gradients(const fs::path& dir, const Shape& s, const Gradients& g) {
  fs::create_directories(dir);
  write_npy(dir / "grad_input.npy", g.grad_input, {s.batch, s.channels, s.spatial});
  write_npy(dir / "grad_weight.npy", g.grad_weight, {s.channels});
  write_npy(dir / "grad_bias.npy", g.grad_bias, {s.channels});
}
}  // namespace

void dump_problem(const fs::path& dir, const Problem& problem, const Inputs& inputs,
                  const ReferenceOutputs& reference) {
  const Shape& s = problem.shape;
  fs::path base = dir / problem.name;
  fs::create_directories(base);
  write_npy(base / "x.npy", inputs.x, {s.batch, s.channels, s.spatial});
  write_npy(base / "grad_out.npy", inputs.grad_out, {s.batch, s.channels, s.spatial});
  write_npy(base / "weight.npy", inputs.weight, {s.channels});
  write_gradients(base / "reference", s, reference);
}

void dump_outputs(const fs::path& dir, const Problem& problem, const std::string& variant,
                  const GpuOutputs& outputs) {
  write_gradients(dir / problem.name / variant, problem.shape, outputs);
}

}  // namespace gnbench
