// Loads the acme backend and runs RMSNormFwdOp on the CPU, on acme:0 (the backend's kernel) and
// on acme:1 (the backend's graph-engine target), checking that all three agree.
//   acme_demo [path/to/libtileops_acme.so]
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>

#include <fmt/format.h>

#include "tileops/framework/backend.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"
#include "tileops/reference/check.hpp"

namespace {

// Tensors move between the host and acme through the copier the backend installed.
tileops::Tensor copy_to(const tileops::Tensor& t, tileops::Device device) {
  tileops::Tensor out = tileops::Tensor::empty(t.shape(), t.dtype(), device);
  out.copy_from(t);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : ACME_BACKEND_PATH;
  if (!tileops::load_backend(path)) {
    for (const auto& f : tileops::load_failures()) {
      std::cerr << fmt::format("acme_demo: backend {} failed to load: {}\n", f.path, f.reason);
    }
    return EXIT_FAILURE;
  }
  try {
    const tileops::Tensor x = tileops::random_tensor({16, 1024}, tileops::DType::kFloat32, 7);
    const tileops::Tensor w = tileops::random_tensor({1024}, tileops::DType::kFloat32, 8);
    tileops::RMSNormFwdOp on_cpu({.normalized_shape = {1024}});
    const tileops::Tensor expected = on_cpu(x, w);
    std::cout << fmt::format("cpu:    served by {}\n", on_cpu.last_call()->served_by);
    bool ok = true;
    for (const char* name : {"acme:0", "acme:1"}) {
      const tileops::Device device = tileops::Device::parse(name);
      tileops::RMSNormFwdOp op({.normalized_shape = {1024}});
      const tileops::Tensor y = op(copy_to(x, device), copy_to(w, device));
      const tileops::Comparison c =
          tileops::compare(copy_to(y, tileops::Device::cpu()), expected,
                           tileops::default_tolerance(tileops::DType::kFloat32));
      std::cout << fmt::format("{}: served by {} (target {}); {} vs cpu: {}\n", name,
                               op.last_call()->served_by, op.serving_target().value_or("?"),
                               y.str(), c.str());
      ok = ok && c.ok();
    }
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
  } catch (const std::exception& e) {
    std::cerr << "acme_demo: " << e.what() << '\n';
    return EXIT_FAILURE;
  }
}
