// GemmFwdOp for decode and small batches (m <= 32) with a linear layer's layout (a [m, k], b the
// weight [n, k]): gemm_skinny.cu streams the weight once with 16-byte loads into mma.sync, so the
// call runs at the speed of reading the weight. Preferred over the tile kernel, whose 64- or
// 128-row tiles would mostly multiply padding here.
#include <fmt/format.h>

#include "kernels/common/gemm_registration.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"

namespace tileops::cuda {
namespace {

constexpr int kMaxM = 32;
constexpr int kWarps = 8;

// Chunks in flight per warp: as many as keep two 256-thread blocks resident on an SM (about 120
// registers) with the x fragments of `groups` held too. (One 16-warp block per SM measured
// slower on the H200: docs/perf/h200-gemm-2026-11-30.) With one group, the burst is sized so a
// warp's chunks (ceil(k / 32) over the warps) fill whole bursts: with k = 5120 a warp has 20
// chunks, and bursts of 5 stream the weight 14% faster than 8 + 8 + 4 (the sweep in
// docs/perf/h200-gemv-sweep-2026-11-30).
int unroll_for(int groups, int64_t k) {
  if (groups > 1) return groups == 2 ? 4 : groups <= 4 ? 2 : 1;
  const int64_t chunks = ((k + 31) / 32 + kWarps - 1) / kWarps;
  int best = 8;
  int64_t best_waste = INT64_MAX;
  for (int unroll = 8; unroll >= 5; --unroll) {
    const int64_t waste = (chunks + unroll - 1) / unroll * unroll - chunks;
    if (waste < best_waste) {
      best = unroll;
      best_waste = waste;
    }
  }
  return best;
}

// gated_act: -1, or the GatedActivation code of a gated call.
KernelSpec skinny_spec(DType dtype, int groups, int unroll, int gated_act) {
  return KernelSpec(
      "gemm/gemm_skinny.cu", "gemm_skinny_kernel",
      {KernelConstant::type_of("T", cuda_type(dtype)), KernelConstant::integer("MT", groups),
       KernelConstant::integer("WARPS", kWarps), KernelConstant::integer("UNROLL", unroll),
       KernelConstant::integer("GATED_ACT", gated_act)});
}

class GemmSkinnyCuda final : public GemmKernel {
 public:
  using Interface = GemmKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  static constexpr int supported_archs[] = {90};
  static constexpr std::string_view preferred_over[] = {"gemm_sm90_ws", "gemm_cublaslt"};

  static std::optional<std::string> refusal(const GemmCall& call, const DeviceFacts&) {
    if (call.dtype != DType::kBFloat16 && call.dtype != DType::kFloat16) {
      return fmt::format("dtype {}: mma.sync takes 16-bit inputs here", dtype_name(call.dtype));
    }
    if (call.trans_a || !call.trans_b) {
      return std::string("needs a as [m, k] and b as [n, k] (trans_a=false, trans_b=true)");
    }
    if (call.m > kMaxM) return fmt::format("m = {} > {}: the tile kernel serves it", call.m, kMaxM);
    if (call.k % 8 != 0) {
      return fmt::format("k = {} is not a multiple of 8 (rows are read 16 bytes at a time)",
                         call.k);
    }
    if (!call.aligned16) return std::string("a or b does not start on a 16-byte boundary");
    if (call.b_columns() >= (int64_t{1} << 31) || call.k >= (int64_t{1} << 31)) {
      return std::string("a dimension reaches 2^31");
    }
    return std::nullopt;
  }

  static BuildPlan entry_for(const GemmCall& call, const DeviceFacts&) {
    const DType dtype = call.dtype;
    const int groups = static_cast<int>(std::max<int64_t>(1, (call.m + 7) / 8));
    const int gated = call.gated ? static_cast<int>(call.activation) : -1;
    const int unroll = unroll_for(groups, call.k);
    return {fmt::format("{},mt{},u{},{}", dtype_name(dtype), groups, unroll, gated),
            [=] { return std::make_unique<GemmSkinnyCuda>(dtype, groups, unroll, gated); }};
  }

  GemmSkinnyCuda(DType dtype, int groups, int unroll, int gated)
      : unroll_(unroll),
        out_rows_(gated >= 0 ? 8 : 16),
        fn_(skinny_spec(dtype, groups, unroll, gated)) {}

  void run(const GemmCall& call, const Tensor& a, const Tensor& b, const Tensor& d,
           const GemmTail& tail, const Tensor& /*workspace*/) override {
    if (call.m == 0 || call.n == 0 || call.batch == 0) return;
    const int device = device_of(a);
    const void* ap = a.data();
    const void* bp = b.data();
    void* dp = d.data();
    const void* bias = call.bias ? tail.bias.data() : nullptr;
    const void* residual = call.residual ? tail.residual.data() : nullptr;
    int m = static_cast<int>(call.m), n = static_cast<int>(call.n), k = static_cast<int>(call.k);
    int64_t batch = call.batch;
    // One block per out_rows_ columns, the columns spread evenly over them. A persistent grid of
    // two blocks per SM, and grids of more, smaller blocks, both measured slower on the H200
    // (docs/perf/h200-gemv-sweep-2026-11-30).
    launch(fn_.get(device), device, static_cast<unsigned>((n + out_rows_ - 1) / out_rows_),
           static_cast<unsigned>(std::min<int64_t>(batch, 65535)), kWarps * 32, 0,
           {&ap, &bp, &dp, &m, &n, &k, &bias, &residual, &batch});
  }

  std::string config() const override {
    return fmt::format("rows={},warps={},unroll={}", out_rows_, kWarps, unroll_);
  }

 private:
  int unroll_;
  int out_rows_;  // output columns a block covers: 16, or 8 gate rows over 8 up rows when gated
  CudaFunction fn_;
};

const StaticGemmRegistration<GemmSkinnyCuda> kRegistration("gemm_skinny_cuda");
const bool kVariants = [] {
  register_cuda_variants("gemm_skinny", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16}) {
      for (int groups = 1; groups <= kMaxM / 8; ++groups) {
        // One group takes bursts of 5 to 8 chunks (unroll_for); more groups one fixed burst.
        const int lo = groups == 1 ? 5 : unroll_for(groups, 0), hi = groups == 1 ? 8 : lo;
        for (int unroll = lo; unroll <= hi; ++unroll) {
          for (int gated = -1; gated < 3; ++gated)
            v.push_back(skinny_spec(d, groups, unroll, gated).source());
        }
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
