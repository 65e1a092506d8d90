// GemmFwdOp on CUDA: a simple tiled kernel (correct for every shape and transpose; a fast
// Hopper GEMM is later work). General, so a specialised kernel added later outranks it.
#include <fmt/format.h>

#include "kernels/cuda/cuda_kernel.hpp"
#include "tileops/op/implementation.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"

namespace tileops::cuda {
namespace {

KernelSource gemm_source(DType dtype, bool trans_a, bool trans_b) {
  return specialise(
      fmt::format("gemm_tiled_{}_{}{}", cuda_type(dtype), trans_a ? 't' : 'n', trans_b ? 't' : 'n'),
      "gemm/gemm_tiled.cu",
      fmt::format("typedef {} T;\nconstexpr bool TRANS_A = {};\nconstexpr bool TRANS_B = {};",
                  cuda_type(dtype), trans_a, trans_b));
}

class GemmTiledCuda final : public GemmKernel {
 public:
  using Interface = GemmKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  static constexpr bool general = true;

  GemmTiledCuda(DType dtype, bool ta, bool tb)
      : fn_(gemm_source(dtype, ta, tb), "gemm_tiled_kernel") {}

  static BuildPlan entry_for(const GemmCall& call, const DeviceFacts&) {
    const DType dtype = call.dtype;
    const bool ta = call.trans_a, tb = call.trans_b;
    return {fmt::format("{},{},{}", dtype_name(dtype), ta, tb),
            [=] { return std::make_unique<GemmTiledCuda>(dtype, ta, tb); }};
  }

  void run(const GemmCall& call, const Tensor& a, const Tensor& b, const Tensor& d) override {
    const int device = device_of(a);
    const void* ap = a.data();
    const void* bp = b.data();
    void* dp = d.data();
    int64_t m = call.m, n = call.n, k = call.k;
    launch(fn_.get(device), device, static_cast<unsigned>((n + 63) / 64),
           static_cast<unsigned>((m + 63) / 64), 256, 0, {&ap, &bp, &dp, &m, &n, &k});
  }

  std::string config() const override { return "tile=64x64x16"; }

 private:
  CudaFunction fn_;
};

const StaticKernelRegistration<GemmTiledCuda> kRegistration("GemmFwdOp", "gemm_tiled_cuda");
const bool kVariants = [] {
  register_cuda_variants("gemm_tiled", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      for (bool ta : {false, true}) {
        for (bool tb : {false, true}) v.push_back(gemm_source(d, ta, tb));
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
