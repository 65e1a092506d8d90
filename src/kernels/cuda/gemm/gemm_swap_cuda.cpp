// GemmFwdOp for a few tokens with a linear layer's layout, on Hopper tensor cores with the
// operands swapped (gemm_sm90_ws.cu with SWAP_AB): the weight [n, k] is wgmma's A, 128 or 64 of
// its rows a tile, and the tokens are B, one tile of 8 to 128 rows, so the call streams the
// weight once through TMA (evict-first) into a deep stage ring instead of padding 64-row tiles.
// The weight rows are split over the SMs by splitting K where they give too few tiles: the
// splits of a tile are the blocks of one thread-block cluster, whose partial sums meet in
// distributed shared memory (SPLIT_IN_CLUSTER), so the call needs no workspace and no counter
// reset.
//
// Dispatch takes it for m <= 32 from k = kMinDepth, where the H200 measured it as fast as the
// skinny kernel or faster (docs/perf/h200-cluster-split-2026-12-02), and for m up to 128 where
// the tile kernel would split K over 128-column tiles (docs/perf/h200-mid-m-swap-2026-12-04).
// TILEOPS_GEMM_SWAP=always serves every call it can, m up to 128 (the tests use that), =0 none.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>

#include <fmt/format.h>

#include "kernels/common/gemm_registration.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "kernels/cuda/gemm/gemm_sm90_ws_args.hpp"
#include "kernels/cuda/gemm/gemm_sm90_ws_choice.hpp"
#include "kernels/cuda/gemm/gemm_tail_boxes.hpp"
#include "kernels/cuda/gemm/gemm_tail_pointers.hpp"
#include "kernels/cuda/gemm/split_k_reduction.hpp"
#include "kernels/cuda/gemm/swap_plan.hpp"
#include "kernels/cuda/host/tensor_map.hpp"
#include "tileops/core/error.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {
namespace {

constexpr int kMaxM = 128;
// The most tokens for which dispatch takes this kernel unasked (TILEOPS_GEMM_SWAP unset) on every
// row from k = kMinDepth; above it, up to kMaxM, only where the tile kernel would split K over
// 128-column tiles (splits_wide_tiles) or with TILEOPS_GEMM_SWAP=always.
constexpr int kMeasuredMaxM = 32;
constexpr int kSmemBudget = 227 * 1024;
// The shortest K for which dispatch takes the swapped kernel over the skinny one. Measured on the
// H200 (bf16, L2 flushed, docs/perf/h200-cluster-split-2026-12-02): the skinny kernel is faster on
// the short rows of small weights (1x2048x2048 5.6 against 6.5 us, 1x4096x1024 5.3 against 6.5);
// from k = 4096 the swapped one is as fast or faster on every row measured (1x4096x4096 13.8
// against 14.1, 16x4096x7168 21.3 against 21.0, the down projection 1x4096x14336 34.0 against
// 37.8, 32x14336x4096 35.6 against 57.2, the LM head 1x128256x4096 261 against 279). K between
// them was not measured; the rule takes the swapped kernel from 3072.
constexpr int64_t kMinDepth = 3072;

// Whether the tile kernel, untuned, would split K over 64x128 tiles. There the splits of this
// kernel, which meet in a cluster's shared memory, were faster on every row measured on the H200
// between 33 and 128 tokens (docs/perf/h200-mid-m-swap-2026-12-04, 7 rows, 1.03-1.28x:
// 64x2112x7168 16.7 against 21.3 us, 128x1024x7168 17.7 against 18.7); where the tile kernel
// splits with narrower tiles or does not split, this kernel tied or lost (128x1024x4096 15.3
// against 11.1, 128x2112x7168 20.3 against 19.4, 64x4096x4096 16.4 against 13.7).
//
// Where the tile kernel reduces its splits in parallel (split_k_reduction.hpp), it beat this kernel
// on an H100 over more than 64 tokens or fewer than 2048 weight rows: 128x1024x7168 17.6 against
// 20.4 us, 72x1024x7168 16.8 against 19.2, 128x1024x14336 25.3 against 27.4, 128x1536x7168 20.8
// against 21.3 (docs/perf/h200-split-reduce-2026-12-05). Those rows stay with the tile kernel; up
// to 64 tokens over 2048 weight rows and more this kernel keeps them (64x2112x7168 21.3 against
// 22.4 there; 16.7 against 21.3 on the H200 before the parallel reduction).
bool splits_wide_tiles(const GemmCall& call, int sms) {
  if (sms <= 0) return false;  // facts of no device: the rule for 32 tokens and fewer stands
  const WsScoredChoice tile = ws_scored_choice(call, sms);
  if (tile.splits <= 1 || tile.bn < 128) return false;
  return !reduces_in_parallel(tile.splits, call.gated) || (call.m <= 64 && call.n >= 2048);
}

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

// Tokens a tile covers: 8 to 128 (a wgmma N the device library has). The plan takes the smallest
// that holds every token, so one tile column covers them and the weight is read once.
constexpr int kTokenTiles[] = {8, 16, 32, 64, 128};
int token_tile(int64_t m) {
  for (int bn : kTokenTiles) {
    if (m <= bn) return bn;
  }
  return kTokenTiles[std::size(kTokenTiles) - 1];
}

// TILEOPS_GEMM_SWAP_PLAN=<rows>x<splits>[t<tokens>] (128x1, 64x3, 128x3t64, ...), read at each
// dispatch: the calls an implementation built then serves take that cut where it is valid for
// them (swap_cut_valid), their clusters walking the tiles in as many waves as it takes. The
// token tile, where given, is one of kTokenTiles below the plan's and the weight is read once a
// tile column. For measuring cuts against the plan (bench/torch/swap_plan_sweep.py) and for
// testing cuts the plan does not pick; unset or malformed, the plan decides.
struct ForcedPlan {
  int bm = 0, splits = 0, tokens = 0;
  bool set() const { return bm != 0; }
};
ForcedPlan forced_plan() {
  ForcedPlan f;
  const char* v = std::getenv("TILEOPS_GEMM_SWAP_PLAN");
  if (v == nullptr) return ForcedPlan{};
  const int fields = std::sscanf(v, "%dx%dt%d", &f.bm, &f.splits, &f.tokens);
  if (fields < 2) return ForcedPlan{};
  if (fields == 2) f.tokens = 0;
  return f;
}

// The token tile for m tokens: the plan's, or a smaller one of kTokenTiles forced.
int token_tile_for(int64_t m, const ForcedPlan& forced) {
  const int plan = token_tile(m);
  for (int bn : kTokenTiles) {
    if (forced.set() && bn == forced.tokens && bn < plan) return bn;
  }
  return plan;
}

// Shared memory for a consumer's epilogue: what gemm_sm90_ws_cuda.cpp gives one, or more where a
// consumer's fp32 partial (the cluster split's, or the gated hand-over) needs it: bn / 2
// accumulators of 128 threads.
int epilogue_bytes(int bn) {
  return std::max(2 * 64 * 64 * 2, bn / 2 * 128 * 4);
}

unsigned threads_for(int bm) {
  return static_cast<unsigned>(128 * (1 + bm / 64));
}

// As many stages as fit beside the epilogue's buffers, at most 12.
int stages_for(int bm, int bn) {
  const int stage = (bm + bn) * kSwapKTile * 2 + 16;
  return std::min(12, (kSmemBudget - (bm / 64) * epilogue_bytes(bn) - 2048) / stage);
}

unsigned smem_bytes(int bm, int bn) {
  const int stages = stages_for(bm, bn);
  return static_cast<unsigned>(stages * (bm + bn) * kSwapKTile * 2 +
                               (bm / 64) * epilogue_bytes(bn) + 2 * stages * 8 + 1024);
}

// gated_act: -1, or the GatedActivation code of a gated call.
KernelSpec swap_spec(DType dtype, int bm, int bn, int gated_act) {
  return KernelSpec(
      "gemm/gemm_sm90_ws.cu", "gemm_sm90_ws_kernel",
      {KernelConstant::type_of("T", cuda_type(dtype)), KernelConstant::integer("BM", bm),
       KernelConstant::integer("BN", bn), KernelConstant::integer("BK", kSwapKTile),
       KernelConstant::integer("STAGES", stages_for(bm, bn)), KernelConstant::integer("GROUP_M", 8),
       KernelConstant::boolean("A_K_MAJOR", true), KernelConstant::boolean("B_K_MAJOR", true),
       KernelConstant::integer("GATED_ACT", gated_act), KernelConstant::integer("CLUSTER_M", 1),
       KernelConstant::integer("CLUSTER_N", 1),
       KernelConstant::integer("EPILOGUE_BYTES", epilogue_bytes(bn)),
       KernelConstant::boolean("SWAP_AB", true),
       KernelConstant::boolean("SPLIT_IN_CLUSTER", true)});
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
    if (mode == SwapSwitch::kMeasured && call.m > kMeasuredMaxM && call.gated) {
      return fmt::format(
          "m = {} > {} on a gated call: not measured against the tile kernel "
          "(TILEOPS_GEMM_SWAP=always serves it)",
          call.m, kMeasuredMaxM);
    }
    if (mode == SwapSwitch::kMeasured && call.m > kMeasuredMaxM &&
        !splits_wide_tiles(call, facts.sm_count)) {
      return fmt::format(
          "m = {} > {} and the tile kernel would not split K over 128-column tiles, or would "
          "sum the splits in parallel on a row it won: it was as fast or faster on such rows "
          "measured (TILEOPS_GEMM_SWAP=always serves it)",
          call.m, kMeasuredMaxM);
    }
    if (call.k == 0) return std::string("k == 0: nothing to multiply");
    if (call.k % 8 != 0) {
      return fmt::format("k = {} is not a multiple of 8 (16-byte rows, which TMA needs)", call.k);
    }
    if (!call.aligned16) return std::string("a or b does not start on a 16-byte boundary (TMA)");
    if (call.b_columns() >= (int64_t{1} << 31) || call.k >= (int64_t{1} << 31) ||
        swap_tile_count(call, 64) * 16 >= (int64_t{1} << 31)) {
      return std::string("a dimension reaches 2^31");
    }
    if (mode == SwapSwitch::kMeasured && call.k < kMinDepth) {
      return fmt::format(
          "k = {} < {}: the skinny kernel streams rows this short faster (measured on the H200)",
          call.k, kMinDepth);
    }
    return std::nullopt;
  }

  static BuildPlan entry_for(const GemmCall& call, const DeviceFacts&) {
    const DType dtype = call.dtype;
    const ForcedPlan forced = forced_plan();
    const int bn = token_tile_for(call.m, forced);
    const int gated = call.gated ? static_cast<int>(call.activation) : -1;
    const bool tail_boxes = !tail_boxes_switched_off();
    return {fmt::format("{},bn{},{}{}{}", dtype_name(dtype), bn, gated,
                        forced.set() ? fmt::format(",cut{}x{}", forced.bm, forced.splits) : "",
                        tail_boxes ? "" : ",no-tail-boxes"),
            [=] { return std::make_unique<GemmSwapCuda>(dtype, bn, gated, forced, tail_boxes); }};
  }

  GemmSwapCuda(DType dtype, int bn, int gated, ForcedPlan forced, bool tail_boxes)
      : bn_(bn),
        forced_(forced),
        tail_boxes_(tail_boxes),
        fns_{std::make_unique<CudaFunction>(swap_spec(dtype, 128, bn, gated)),
             gated >= 0 ? nullptr
                        : std::make_unique<CudaFunction>(swap_spec(dtype, 64, bn, gated))} {}

  void run(const GemmCall& call, const Tensor& a, const Tensor& b, const Tensor& d,
           const GemmTail& tail, const Tensor& /*workspace*/) override {
    if (call.m == 0 || call.n == 0 || call.batch == 0) return;
    const int device = device_of(a);
    const int sms = sm_count(device);
    SwapPlan plan = swap_plan_for(
        call, sms, [&](int bm, int splits) { return cluster_slots(device, bm, splits); });
    // A forced token tile (token_tile_for) leaves the plan's 128-row, unsplit cut unless a cut is
    // forced with it.
    if (bn_ < token_tile(call.m)) plan = {128, 1, swap_tile_count(call, 128, bn_), sms};
    if (forced_.set() && swap_cut_valid(call, forced_.bm, forced_.splits)) {
      const int64_t fit =
          forced_.splits == 1 ? sms : cluster_slots(device, forced_.bm, forced_.splits);
      if (fit > 0) {
        plan = {forced_.bm, forced_.splits, swap_tile_count(call, forced_.bm, bn_), fit};
      }
    }
    const int bm = plan.bm;
    const CUfunction fn = function(bm).get(device);
    const int splits = plan.splits;
    const int64_t waves = (plan.tiles + plan.slots - 1) / plan.slots;
    last_plan_.store(static_cast<int>(std::min<int64_t>(waves, 1 << 20) * 4096 + bm * 16 + splits),
                     std::memory_order_relaxed);
    const uint64_t rows = uint64_t(call.b_columns()), k = uint64_t(call.k);
    const uint64_t m64 = uint64_t(call.m), batch64 = uint64_t(call.batch);
    const TailPointers tp = tail_pointers(call, tail);
    // The kernel's M is the output's columns and its N the tokens; its splits meet in the cluster
    // (no workspace); the epilogue stores the transpose row by row (no TMA stores).
    WsKernelArgs args{.d = d.data(),
                      .m = static_cast<int>(call.n),
                      .n = static_cast<int>(call.m),
                      .k = static_cast<int>(call.k),
                      .splits = splits,
                      .bias = tp.bias,
                      .residual = tp.residual,
                      .batch = static_cast<int>(call.batch),
                      .stream_weight = 1};
    // The weight is the kernel's A (boxes of the tile's rows, or 64 gate and 64 up rows gated); the
    // tokens its B (one box of the tile's token rows).
    args.map_a =
        encode_tensor_map_sw128_batched({b.data(), call.dtype, rows, k, k, batch64, rows * k},
                                        call.gated ? 64 : static_cast<unsigned>(bm), kSwapKTile);
    args.map_b =
        encode_tensor_map_sw128_batched({a.data(), call.dtype, m64, k, k, batch64, m64 * k},
                                        static_cast<unsigned>(bn_), kSwapKTile);
    // The last tile of weight rows (not gated) and the last token tile load only their rows.
    args.a_tail_rows = tail_boxes_ && !call.gated ? tail_box_rows(call.n, bm) : 0;
    args.b_tail_rows = tail_boxes_ ? tail_box_rows(call.m, bn_) : 0;
    if (args.a_tail_rows > 0) {
      args.map_a_tail =
          encode_tensor_map_sw128_batched({b.data(), call.dtype, rows, k, k, batch64, rows * k},
                                          static_cast<unsigned>(args.a_tail_rows), kSwapKTile);
    }
    if (args.b_tail_rows > 0) {
      args.map_b_tail =
          encode_tensor_map_sw128_batched({a.data(), call.dtype, m64, k, k, batch64, m64 * k},
                                          static_cast<unsigned>(args.b_tail_rows), kSwapKTile);
    }
    auto pointers = args.pointers();
    launch_ex(fn, device,
              {.grid_x = static_cast<unsigned>(std::min(plan.tiles, plan.slots) * splits),
               .block = threads_for(bm),
               .smem = smem_bytes(bm, bn_),
               .cluster_x = static_cast<unsigned>(splits)},
              pointers);
  }

  std::string config() const override {
    const int plan = last_plan_.load(std::memory_order_relaxed);
    const int waves = plan / 4096, bm = plan % 4096 / 16, splits = plan % 16;
    return fmt::format("tile={}x{}x64/s{}{}{}", bm, bn_, stages_for(bm, bn_),
                       splits > 1 ? fmt::format(",split_k={} (cluster)", splits) : "",
                       waves > 1 ? fmt::format(",waves={}", waves) : "");
  }

 private:
  static constexpr size_t kMaxDevices = 16;

  CudaFunction& function(int bm) { return *fns_[bm == 128 ? 0 : 1]; }

  // How many clusters of `splits` blocks of bm-row tiles fit the device at once, asked once per
  // device; 0 where the call cannot take that tile (gated calls take only 128 rows).
  int64_t cluster_slots(int device, int bm, int splits) {
    const size_t b = bm == 128 ? 0 : 1;
    if (fns_[b] == nullptr) return 0;
    std::atomic<int>& slot =
        cluster_slots_[static_cast<size_t>(device) % kMaxDevices][b][static_cast<size_t>(splits)];
    int n = slot.load(std::memory_order_relaxed);
    if (n == 0) {
      const unsigned smem = smem_bytes(bm, bn_);
      n = max_active_clusters(
          fns_[b]->get(device), device,
          {.block = threads_for(bm), .smem = smem, .cluster_x = static_cast<unsigned>(splits)});
      // None fit (a device with less shared memory): -1, so the plan skips it without asking again.
      slot.store(n > 0 ? n : -1, std::memory_order_relaxed);
    }
    return n > 0 ? n : 0;
  }

  int bn_;
  ForcedPlan forced_;  // TILEOPS_GEMM_SWAP_PLAN when this implementation was built
  bool tail_boxes_;    // TILEOPS_GEMM_TAIL_BOXES then
  std::array<std::unique_ptr<CudaFunction>, 2> fns_;  // 128-row tiles, 64-row tiles (not gated)
  // waves * 4096 + bm * 16 + splits of the last call
  std::atomic<int> last_plan_{4096 + 128 * 16 + 1};
  std::array<std::array<std::array<std::atomic<int>, kSwapMaxSplits + 1>, 2>, kMaxDevices>
      cluster_slots_{};
};

const StaticGemmRegistration<GemmSwapCuda> kRegistration("gemm_swap_sm90");
const bool kVariants = [] {
  register_cuda_variants("gemm_swap_sm90", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16}) {
      for (int bn : kTokenTiles) {
        for (int gated = -1; gated < 3; ++gated) v.push_back(swap_spec(d, 128, bn, gated).source());
        v.push_back(swap_spec(d, 64, bn, -1).source());
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
