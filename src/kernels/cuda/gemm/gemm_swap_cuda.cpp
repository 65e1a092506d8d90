// GemmFwdOp for a few tokens (m <= 32) with a linear layer's layout, on Hopper tensor cores with
// the operands swapped (gemm_sm90_ws.cu with SWAP_AB): the weight [n, k] is wgmma's A, 128 of
// its rows a tile, and the tokens are B, one tile of 8, 16 or 32 rows, so the call streams the
// weight once through TMA (evict-first) into a deep stage ring instead of padding 64-row tiles. The
// weight rows are split over the SMs by splitting K where they give too few tiles (the partial
// sums through the caller-owned workspace).
//
// It outranks the skinny kernel only where the H200 measured it faster: where each block streams
// at least kMinBlockDepth of K (docs/perf/h200-swap-ab-2026-12-02). TILEOPS_GEMM_SWAP=always serves
// every call it can (the tests use that), =0 none.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "kernels/common/gemm_registration.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "kernels/cuda/gemm/gemm_tail_pointers.hpp"
#include "kernels/cuda/gemm/split_k_workspace.hpp"
#include "kernels/cuda/host/tensor_map.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {
namespace {

constexpr int kMaxM = 32;
constexpr int kBM = 128;  // weight rows a tile reads (two 64-row consumers)
constexpr int kBK = 64;
constexpr int kEpilogueBytes = 2 * 64 * 64 * 2;  // per consumer, as gemm_sm90_ws_cuda.cpp
constexpr int kSmemBudget = 227 * 1024;
constexpr int kMinKTilesPerSplit = 4;
// K elements each block must stream (k over the splits) for the swapped kernel to beat the
// skinny one. Measured on the H200 (bf16, L2 flushed): 5120 deep (1x13824x5120, no split) 42.1
// against 43.9 us; 4096 (the gate-up 1x28672x4096, no split) 66.5 against 77.9; 3584
// (1x4096x14336, 4 splits) 34.9 + 1.1 (the counters' memset) against 37.3; 1792 (16x4096x7168)
// 23.0 against 21.1; 1024 (1x4096x4096) 15.8 against 14.2.
constexpr int64_t kMinBlockDepth = 3072;

enum class SwapSwitch { kMeasured, kAlways, kOff };
// TILEOPS_GEMM_SWAP, read at each dispatch: unset the measured rule, "always"/"1" every call the
// kernel can serve, "0"/"off" none.
SwapSwitch swap_switch() {
  const char* v = std::getenv("TILEOPS_GEMM_SWAP");
  if (v == nullptr || *v == '\0') return SwapSwitch::kMeasured;
  if (std::strcmp(v, "always") == 0 || std::strcmp(v, "1") == 0) return SwapSwitch::kAlways;
  if (std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0) return SwapSwitch::kOff;
  return SwapSwitch::kMeasured;
}

// Tokens a tile covers: 8, 16 or 32 (the wgmma N the device library has), so one tile column
// holds every token and the weight is read once.
int token_tile(int64_t m) {
  return m <= 8 ? 8 : m <= 16 ? 16 : 32;
}

// As many stages as fit beside the epilogue's buffers, at most 12.
int stages_for(int bn) {
  const int stage = (kBM + bn) * kBK * 2 + 16;
  return std::min(12, (kSmemBudget - 2 * kEpilogueBytes - 2048) / stage);
}

unsigned smem_bytes(int bn, int stages) {
  return static_cast<unsigned>(stages * (kBM + bn) * kBK * 2 + 2 * kEpilogueBytes + 2 * stages * 8 +
                               1024);
}

// gated_act: -1, or the GatedActivation code of a gated call.
KernelSpec swap_spec(DType dtype, int bn, int gated_act) {
  return KernelSpec(
      "gemm/gemm_sm90_ws.cu", "gemm_sm90_ws_kernel",
      {KernelConstant::type_of("T", cuda_type(dtype)), KernelConstant::integer("BM", kBM),
       KernelConstant::integer("BN", bn), KernelConstant::integer("BK", kBK),
       KernelConstant::integer("STAGES", stages_for(bn)), KernelConstant::integer("GROUP_M", 8),
       KernelConstant::boolean("A_K_MAJOR", true), KernelConstant::boolean("B_K_MAJOR", true),
       KernelConstant::integer("GATED_ACT", gated_act), KernelConstant::integer("CLUSTER_M", 1),
       KernelConstant::integer("EPILOGUE_BYTES", kEpilogueBytes),
       KernelConstant::boolean("SWAP_AB", true)});
}

// Output columns a tile covers: 128, or 64 gated (64 gate rows over their 64 up rows).
int out_columns(const GemmCall& call) {
  return call.gated ? kBM / 2 : kBM;
}
int64_t tile_count(const GemmCall& call) {
  return call.batch * ((call.n + out_columns(call) - 1) / out_columns(call));
}

// K splits: as many as keep every unit of work on a block of its own (tiles * splits <= SMs),
// each at least kMinKTilesPerSplit k-tiles deep; one where the tiles alone fill the SMs. (Where
// blocks walked several split units each, per-unit costs made 1x13824x5120 take 66 us against
// the skinny kernel's 44; with one unit a block it takes 42.1: docs/perf/h200-swap-ab-2026-12-02.)
int splits_for(const GemmCall& call, int sms) {
  const int64_t tiles = tile_count(call), k_tiles = (call.k + kBK - 1) / kBK;
  int64_t s =
      std::min<int64_t>({sms / std::max<int64_t>(tiles, 1), k_tiles / kMinKTilesPerSplit, 16});
  return static_cast<int>(std::max<int64_t>(s, 1));
}

// Split-K workspace: one slot per tile and consumer (two 64-row consumers a tile), a partial of
// 64 weight rows by the tile's tokens.
SplitKLayout workspace_for(const GemmCall& call, int splits) {
  return split_k_layout_of(tile_count(call) * 2, splits, token_tile(call.m));
}

class GemmSwapCuda final : public GemmKernel {
 public:
  using Interface = GemmKernel;
  static constexpr DeviceType devices[] = {kCUDA};
  static constexpr int supported_archs[] = {90};
  static constexpr std::string_view preferred_over[] = {"gemm_skinny_cuda", "gemm_sm90_ws",
                                                        "gemm_cublaslt"};

  static std::optional<std::string> refusal(const GemmCall& call, const DeviceFacts& facts) {
    const SwapSwitch mode = swap_switch();
    if (mode == SwapSwitch::kOff) return std::string("switched off by TILEOPS_GEMM_SWAP");
    if (call.dtype != DType::kBFloat16 && call.dtype != DType::kFloat16) {
      return fmt::format("dtype {}: wgmma takes 16-bit inputs here", dtype_name(call.dtype));
    }
    if (call.trans_a || !call.trans_b) {
      return std::string("needs a as [m, k] and b as [n, k] (trans_a=false, trans_b=true)");
    }
    if (call.m > kMaxM) return fmt::format("m = {} > {}: the tile kernel serves it", call.m, kMaxM);
    if (call.k == 0) return std::string("k == 0: nothing to multiply");
    if (call.k % 8 != 0) {
      return fmt::format("k = {} is not a multiple of 8 (16-byte rows, which TMA needs)", call.k);
    }
    if (!call.aligned16) return std::string("a or b does not start on a 16-byte boundary (TMA)");
    if (call.b_columns() >= (int64_t{1} << 31) || call.k >= (int64_t{1} << 31) ||
        tile_count(call) * 16 >= (int64_t{1} << 31)) {
      return std::string("a dimension reaches 2^31");
    }
    const int splits = splits_for(call, facts.sm_count);
    if (mode == SwapSwitch::kMeasured && call.k / splits < kMinBlockDepth) {
      return fmt::format(
          "k = {} over {} split(s) is {} deep a block, under {}: the skinny kernel streams it "
          "faster (measured on the H200)",
          call.k, splits, call.k / splits, kMinBlockDepth);
    }
    return std::nullopt;
  }

  static BuildPlan entry_for(const GemmCall& call, const DeviceFacts&) {
    const DType dtype = call.dtype;
    const int bn = token_tile(call.m);
    const int gated = call.gated ? static_cast<int>(call.activation) : -1;
    return {fmt::format("{},bn{},{}", dtype_name(dtype), bn, gated),
            [=] { return std::make_unique<GemmSwapCuda>(dtype, bn, gated); }};
  }

  GemmSwapCuda(DType dtype, int bn, int gated) : bn_(bn), fn_(swap_spec(dtype, bn, gated)) {}

  int64_t workspace_bytes(const GemmCall& call) const override {
    return workspace_for(call, splits_for(call, sm_count(call.device.index))).total();
  }

  void run(const GemmCall& call, const Tensor& a, const Tensor& b, const Tensor& d,
           const GemmTail& tail, const Tensor& workspace) override {
    if (call.m == 0 || call.n == 0 || call.batch == 0) return;
    const int device = device_of(a);
    const int sms = sm_count(device);
    int splits = splits_for(call, sms);
    const SplitKBuffers buffers =
        split_k_buffers("gemm_swap_sm90", workspace_for(call, splits),
                        workspace.defined() ? workspace.data() : nullptr, device);
    int* counters = buffers.counters;
    float* partials = buffers.partials;
    last_splits_.store(splits, std::memory_order_relaxed);
    const uint64_t rows = uint64_t(call.b_columns()), k = uint64_t(call.k);
    const uint64_t m64 = uint64_t(call.m), batch64 = uint64_t(call.batch);
    // The weight is the kernel's A (boxes of 128 rows, or 64 gate and 64 up rows gated); the
    // tokens its B (one box of the tile's token rows).
    const TensorMapBits map_w = encode_tensor_map_sw128_batched(
        {b.data(), call.dtype, rows, k, k, batch64, rows * k}, call.gated ? 64 : kBM, kBK);
    const TensorMapBits map_x = encode_tensor_map_sw128_batched(
        {a.data(), call.dtype, m64, k, k, batch64, m64 * k}, static_cast<unsigned>(bn_), kBK);
    const TailPointers tp = tail_pointers(call, tail);
    void* dp = d.data();
    int out_cols = static_cast<int>(call.n), tokens = static_cast<int>(call.m);
    int kk = static_cast<int>(call.k), vec_stores = 0, tma_store = 0, stream_weight = 1;
    int batch = static_cast<int>(call.batch);
    const void* bias = tp.bias;
    const void* residual = tp.residual;
    const int64_t units = tile_count(call) * splits;
    const int stages = stages_for(bn_);
    launch_ex(
        fn_.get(device), device,
        {.grid_x = static_cast<unsigned>(std::min<int64_t>(units, sms)),
         .block = 3 * 128,
         .smem = smem_bytes(bn_, stages)},
        {const_cast<TensorMapBits*>(&map_w), const_cast<TensorMapBits*>(&map_x),
         const_cast<TensorMapBits*>(&map_w), &dp, &out_cols, &tokens, &kk, &vec_stores, &tma_store,
         &splits, &partials, &counters, &bias, &residual, &batch, &stream_weight});
  }

  std::string config() const override {
    const int splits = last_splits_.load(std::memory_order_relaxed);
    return fmt::format("tile=128x{}x64/s{}{}", bn_, stages_for(bn_),
                       splits > 1 ? fmt::format(",split_k={}", splits) : "");
  }

 private:
  int bn_;
  CudaFunction fn_;
  std::atomic<int> last_splits_{1};
};

const StaticGemmRegistration<GemmSwapCuda> kRegistration("gemm_swap_sm90");
const bool kVariants = [] {
  register_cuda_variants("gemm_swap_sm90", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16}) {
      for (int bn : {8, 16, 32}) {
        for (int gated = -1; gated < 3; ++gated) v.push_back(swap_spec(d, bn, gated).source());
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
