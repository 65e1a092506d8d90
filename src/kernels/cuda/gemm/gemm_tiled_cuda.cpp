// The "gemm" interface on CUDA cores: a simple tiled kernel, correct for every shape, transpose,
// dtype and tail (the fallback dispatch names for what the tensor-core kernels refuse). General,
// so a specialised kernel outranks it. Its tile configurations are tuning candidates
// (docs/design/tuning.md).
#include <array>

#include <fmt/format.h>

#include "kernels/common/gemm_registration.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "kernels/cuda/gemm/gemm_tail_pointers.hpp"
#include "kernels/cuda/gemm/gemm_tuning.hpp"
#include "kernels/cuda/host/kernel_spec.hpp"
#include "runtime/tuning/tuner.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {
namespace {

struct GemmTile {
  int bm, bn, bk, tm, tn;  // block tile, k-step, per-thread micro-tile; 256 threads each
  std::string name() const { return fmt::format("{}x{}x{}/{}x{}", bm, bn, bk, tm, tn); }
};
constexpr std::array<GemmTile, 6> kTiles{{{64, 64, 16, 4, 4},
                                          {128, 64, 16, 8, 4},
                                          {64, 128, 16, 4, 8},
                                          {128, 128, 8, 8, 8},
                                          {32, 64, 16, 2, 4},
                                          {64, 32, 16, 4, 2}}};
constexpr int kDefaultTile = 0;
constexpr unsigned kThreads = 256;
constexpr int64_t kMaxGridZ = 65535;  // more problems than this loop inside the kernel

KernelSpec tiled_spec(DType dtype, bool trans_a, bool trans_b, const GemmTile& t) {
  return KernelSpec(
      "gemm/gemm_tiled.cu", "gemm_tiled_kernel",
      {KernelConstant::type_of("T", cuda_type(dtype)), KernelConstant::boolean("TRANS_A", trans_a),
       KernelConstant::boolean("TRANS_B", trans_b), KernelConstant::integer("BM", t.bm),
       KernelConstant::integer("BN", t.bn), KernelConstant::integer("BK", t.bk),
       KernelConstant::integer("TM", t.tm), KernelConstant::integer("TN", t.tn)});
}

std::vector<std::string> tile_names() {
  std::vector<std::string> names;
  for (const GemmTile& t : kTiles) names.push_back(t.name());
  return names;
}

class GemmTiledCuda final : public GemmKernel {
 public:
  using Interface = GemmKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  static constexpr bool general = true;

  GemmTiledCuda(DType dtype, bool ta, bool tb) : tuner_("gemm_tiled_cuda", tile_names()) {
    for (const GemmTile& t : kTiles) {
      fns_.push_back(std::make_unique<CudaFunction>(tiled_spec(dtype, ta, tb, t)));
    }
  }

  static BuildPlan entry_for(const GemmCall& call, const DeviceFacts&) {
    const DType dtype = call.dtype;
    const bool ta = call.trans_a, tb = call.trans_b;
    return {fmt::format("{},{},{}", dtype_name(dtype), ta, tb),
            [=] { return std::make_unique<GemmTiledCuda>(dtype, ta, tb); }};
  }

  void run(const GemmCall& call, const Tensor& a, const Tensor& b, const Tensor& d,
           const GemmTail& tail, const Tensor& /*workspace*/) override {
    const int device = device_of(a);
    const TailPointers tp = tail_pointers(call, tail);
    const int tile = tuner_.tuned() ? tuned_tile(call, device, a, b, d, tp) : kDefaultTile;
    last_tile_.store(tile, std::memory_order_relaxed);
    enqueue(tile, call, device, a.data(), b.data(), d.data(), tp);
  }

  std::string config() const override {
    return "tile=" + kTiles[last_tile_.load(std::memory_order_relaxed)].name();
  }
  bool tunable() const override { return true; }
  void request_tune(const TuneOptions& options) override { tuner_.enter_tuned_mode(options); }

 private:
  void enqueue(int tile, const GemmCall& call, int device, const void* ap, const void* bp, void* dp,
               const TailPointers& tp) {
    if (call.m == 0 || call.n == 0) return;
    const GemmTile& t = kTiles[tile];
    int64_t m = call.m, n = call.n, k = call.k;
    int act = call.gated ? static_cast<int>(call.activation) : -1;
    const void* bias = tp.bias;
    const void* residual = tp.residual;
    int64_t batch = call.batch;
    launch_ex(
        fns_[tile]->get(device), device,
        {static_cast<unsigned>((n + t.bn - 1) / t.bn), static_cast<unsigned>((m + t.bm - 1) / t.bm),
         kThreads, 0, 1, static_cast<unsigned>(std::min<int64_t>(batch, kMaxGridZ))},
        {&ap, &bp, &dp, &m, &n, &k, &act, &bias, &residual, &batch});
  }

  int tuned_tile(const GemmCall& call, int device, const Tensor& a, const Tensor& b,
                 const Tensor& d, const TailPointers& tp) {
    return choose_gemm_candidate(
        tuner_, "gemm_tiled_cuda", call, kDefaultTile, a, b, d, 0,
        [this, call, device, tp](int c, const void* ap, const void* bp, void* dp, void*) {
          enqueue(c, call, device, ap, bp, dp, tp);
        });
  }

  std::vector<std::unique_ptr<CudaFunction>> fns_;
  tuning::Tuner tuner_;
  std::atomic<int> last_tile_{kDefaultTile};
};

const StaticGemmRegistration<GemmTiledCuda> kRegistration("gemm_tiled_cuda");
const bool kVariants = [] {
  register_cuda_variants("gemm_tiled", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      for (bool ta : {false, true}) {
        for (bool tb : {false, true}) {
          for (const GemmTile& t : kTiles) v.push_back(tiled_spec(d, ta, tb, t).source());
        }
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
