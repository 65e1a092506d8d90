// Loads the acme backend and runs RMSNormFwdOp on the CPU, on acme:0 (the backend's kernel) and
// on acme:1 (the backend's graph-engine target), checking that all three agree.
//   acme_demo [path/to/libtileops_acme.so]
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include <fmt/format.h>

#include "tileops/op/backend.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"
#include "tileops/reference/check.hpp"

namespace {

// Acme memory is host memory (see acme_backend.cpp), so a host copy moves a tensor there.
tileops::Tensor to_device(const tileops::Tensor& host, tileops::Device device) {
  tileops::Tensor t = tileops::Tensor::empty(host.shape(), host.dtype(), device);
  std::memcpy(t.data(), host.data(), host.nbytes());
  return t;
}

// The same memory seen as a CPU tensor, for comparing.
tileops::Tensor host_view(const tileops::Tensor& t) {
  return tileops::Tensor::from_blob(t.data(), t.shape(), t.strides(), t.dtype(),
                                    tileops::Device::cpu());
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
      const tileops::Tensor y = op(to_device(x, device), to_device(w, device));
      const tileops::Comparison c = tileops::compare(
          host_view(y), expected, tileops::default_tolerance(tileops::DType::kFloat32));
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
