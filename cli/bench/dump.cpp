#include "cli/bench/dump.hpp"

#include <nlohmann/json.hpp>

#include "base/atomic_file.hpp"
#include "base/build_info.hpp"
#include "base/npy_writer.hpp"
#include "reference/group_norm.hpp"

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

// What a reader needs to rebuild the problem elsewhere (e.g. PyTorch's native_group_norm
// and its backward) without gnbench's config files.
nlohmann::json meta(const Problem& p, const std::vector<std::string>& variants) {
  const Shape& s = p.shape;
  return {{"problem", p.name},
          {"shape", {{"batch", s.batch}, {"channels", s.channels}, {"spatial", s.spatial}}},
          {"groups", s.groups},
          {"eps", p.eps},
          {"seed", p.seed},
          {"distribution", {{"kind", p.distribution.kind}, {"param", p.distribution.param}}},
          {"layout",
           "x, grad_out, grad_input: [N, C, HW] float32 (NCHW with H*W flattened); mean, rstd: "
           "[N, G] float64; reference/: float64"},
          {"variants", variants},
          {"gnbench_version", GNBENCH_VERSION},
          {"git_revision", git_revision()}};
}
}  // namespace

void dump_problem(const fs::path& dir, const Problem& problem, const Inputs& inputs,
                  const ReferenceOutputs& reference, const std::vector<std::string>& variants) {
  const Shape& s = problem.shape;
  fs::path base = dir / problem.name;
  fs::create_directories(base);
  write_file_atomically(base / "meta.json", meta(problem, variants).dump(1) + "\n");
  write_npy(base / "x.npy", inputs.x, {s.batch, s.channels, s.spatial});
  write_npy(base / "grad_out.npy", inputs.grad_out, {s.batch, s.channels, s.spatial});
  write_npy(base / "weight.npy", inputs.weight, {s.channels});
  // The reference's own statistics (the same float64 two-pass mean and variance it uses).
  const auto stats = reference::group_stats(s, inputs.x.cast<double>(), double(problem.eps));
  write_npy(base / "mean.npy", stats.mean, {s.batch, s.groups});
  write_npy(base / "rstd.npy", stats.inv_std, {s.batch, s.groups});
  write_gradients(base / "reference", s, reference);
}

void dump_outputs(const fs::path& dir, const Problem& problem, const std::string& variant,
                  const GpuOutputs& outputs) {
  write_gradients(dir / problem.name / variant, problem.shape, outputs);
}

}  // namespace gnbench
