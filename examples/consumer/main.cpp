// Uses an installed tileops: RMSNorm over a random tensor, then the call's roofline.
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"
#include "tileops/reference/check.hpp"

int main() {
  try {
    tileops::RMSNormFwdOp op({.normalized_shape = {4096}});
    const tileops::Tensor x = tileops::random_tensor({8, 4096}, tileops::DType::kFloat32, 1);
    const tileops::Tensor weight = tileops::random_tensor({4096}, tileops::DType::kFloat32, 2);
    const tileops::Tensor y = op(x, weight);
    const tileops::RooflineValue roofline = op.eval_roofline();
    std::cout << fmt::format("{} -> {}; served by {}; roofline: {} flops, {} bytes\n", x.str(),
                             y.str(), op.last_call()->served_by, roofline.flops, roofline.bytes);
  } catch (const std::exception& e) {
    std::cerr << "tileops_consumer: " << e.what() << '\n';
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
