// Where cuBLASLt sits in GEMM dispatch, decided from the call spec and an H200's facts alone (no
// GPU needed): tileops's own kernels outrank it, it outranks the CUDA-core fallback when the
// library loads, and TILEOPS_CUBLASLT=0 or a call it cannot serve leaves the fallback.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernels/cuda/gemm/gemm_sm90_ws_choice.hpp"
#include "runtime/cuda/cublaslt_api.hpp"
#include "support/scoped_state.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/framework/dispatch_trace.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"

namespace tileops {
namespace {

using testing::ScopedDeviceFacts;
using testing::ScopedEnv;

const DeviceFacts kH200{90, 132, "h200", 232448};

class GemmSelection final : public gen::GemmFwdOpBase {
 public:
  GemmSelection() : GemmFwdOpBase({}, GemmFwdOp::decl(), {}) {}
  std::string key(const GemmCall& call) const { return key_for<GemmKernel>(call); }

 private:
  void forward(const Tensor&, const Tensor&, Tensor&) override {}
};

GemmCall call_of(DType dtype, int64_t m, int64_t n, int64_t k, bool aligned16 = true) {
  GemmCall c;
  c.device = Device::cuda(0);
  c.dtype = dtype;
  c.m = m;
  c.n = n;
  c.k = k;
  c.aligned16 = aligned16;
  return c;
}

struct Decision {
  std::string winner;
  std::map<std::string, std::string> dropped;
};

Decision decide(const GemmCall& call) {
  GemmSelection op;
  DispatchTrace trace;
  Decision d{op.key(call), {}};
  for (const auto& [k, why] : trace.decisions().back().dropped) d.dropped[k] = why;
  return d;
}

TEST(GemmDispatch, OwnTensorCoreKernelsOutrankCublasLt) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  ScopedEnv on("TILEOPS_CUBLASLT", "1");
  const Decision big = decide(call_of(DType::kBFloat16, 4096, 4096, 4096));
  EXPECT_EQ(big.winner, "gemm_sm90_ws");
  const Decision decode = decide(call_of(DType::kBFloat16, 1, 2048, 2048));
  EXPECT_EQ(decode.winner, "gemm_skinny_cuda");
  if (cuda::cublaslt_available()) {
    EXPECT_EQ(big.dropped.at("gemm_cublaslt"), "outranked by gemm_sm90_ws (preferred_over)");
    EXPECT_EQ(decode.dropped.at("gemm_cublaslt"), "outranked by gemm_skinny_cuda (preferred_over)");
  } else {
    EXPECT_EQ(big.dropped.at("gemm_cublaslt"), "refused: " + cuda::cublaslt_unavailable_reason());
  }
  // A leading dimension TMA cannot address (k = 100): cuBLASLt when it loads.
  const Decision odd = decide(call_of(DType::kBFloat16, 64, 512, 100));
  EXPECT_EQ(odd.winner, cuda::cublaslt_available() ? "gemm_cublaslt" : "gemm_tiled_cuda");
}

TEST(GemmDispatch, Float32GoesToCublasLtWhenItLoadsElseTheFallback) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  ScopedEnv on("TILEOPS_CUBLASLT", "1");
  const Decision d = decide(call_of(DType::kFloat32, 512, 512, 512));
  if (cuda::cublaslt_available()) {
    EXPECT_EQ(d.winner, "gemm_cublaslt");
  } else {
    EXPECT_EQ(d.winner, "gemm_tiled_cuda");
    EXPECT_EQ(d.dropped.at("gemm_cublaslt"), "refused: " + cuda::cublaslt_unavailable_reason());
    EXPECT_NE(cuda::cublaslt_unavailable_reason(), "");
  }
}

TEST(GemmDispatch, SwitchedOffOrUnservableCallsTakeTheFallback) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  {
    ScopedEnv off("TILEOPS_CUBLASLT", "0");
    const Decision d = decide(call_of(DType::kFloat32, 512, 512, 512));
    EXPECT_EQ(d.winner, "gemm_tiled_cuda");
    EXPECT_EQ(d.dropped.at("gemm_cublaslt"), "refused: switched off by TILEOPS_CUBLASLT");
  }
  ScopedEnv on("TILEOPS_CUBLASLT", "1");
  const Decision misaligned = decide(call_of(DType::kFloat32, 64, 64, 64, /*aligned16=*/false));
  EXPECT_EQ(misaligned.winner, "gemm_tiled_cuda");
  EXPECT_EQ(misaligned.dropped.at("gemm_cublaslt"),
            "refused: a or b does not start on a 16-byte boundary");
  EXPECT_EQ(decide(call_of(DType::kFloat32, 64, 64, 0)).dropped.at("gemm_cublaslt"),
            "refused: k == 0: nothing to multiply");
  GemmCall gated = call_of(DType::kFloat32, 64, 64, 64);
  gated.gated = true;
  EXPECT_EQ(decide(gated).dropped.at("gemm_cublaslt"),
            "refused: a gated activation is not in cuBLASLt's epilogues");
}

// The swapped-operand kernel takes the decode and small-batch rows from k = 3072, where the
// H200 measured it as fast as the skinny kernel or faster, and leaves the shorter rows to it.
TEST(GemmDispatch, SwappedKernelTakesTheDecodeRowsItWasMeasuredFasterOn) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  ScopedEnv measured("TILEOPS_GEMM_SWAP", nullptr);
  EXPECT_EQ(decide(call_of(DType::kBFloat16, 1, 13824, 5120)).winner, "gemm_swap_sm90");
  EXPECT_EQ(decide(call_of(DType::kBFloat16, 1, 4096, 14336)).winner, "gemm_swap_sm90");
  EXPECT_EQ(decide(call_of(DType::kFloat16, 32, 4096, 14336)).winner, "gemm_swap_sm90");
  EXPECT_EQ(decide(call_of(DType::kBFloat16, 1, 4096, 4096)).winner, "gemm_swap_sm90");
  EXPECT_EQ(decide(call_of(DType::kBFloat16, 16, 4096, 7168)).winner, "gemm_swap_sm90");
  EXPECT_EQ(decide(call_of(DType::kBFloat16, 7, 1000, 3072)).winner, "gemm_swap_sm90");
  GemmCall gate_up = call_of(DType::kBFloat16, 1, 14336, 4096);
  gate_up.gated = true;
  EXPECT_EQ(decide(gate_up).winner, "gemm_swap_sm90");
  const Decision shallow = decide(call_of(DType::kBFloat16, 1, 2048, 2048));
  EXPECT_EQ(shallow.winner, "gemm_skinny_cuda");
  EXPECT_EQ(shallow.dropped.at("gemm_swap_sm90"),
            "refused: k = 2048 < 3072: the skinny kernel streams rows this short faster "
            "(measured on the H200)");
  EXPECT_EQ(decide(call_of(DType::kBFloat16, 1, 4096, 1024)).winner, "gemm_skinny_cuda");
  EXPECT_EQ(decide(call_of(DType::kBFloat16, 32, 17, 8)).winner, "gemm_skinny_cuda");
  // More than 32 tokens where the tile kernel would not split K over 128-column tiles (unless
  // asked for), a gated call above 32 tokens, or a layout other than a linear layer's, is not its.
  const Decision mid = decide(call_of(DType::kBFloat16, 33, 13824, 5120));
  EXPECT_NE(mid.winner, "gemm_swap_sm90");
  EXPECT_EQ(mid.dropped.at("gemm_swap_sm90"),
            "refused: m = 33 > 32 and the tile kernel would not split K over 128-column tiles, "
            "or would sum the splits in parallel on a row it won: it was as fast or faster on "
            "such rows measured (TILEOPS_GEMM_SWAP=always serves it)");
  GemmCall gated_mid = call_of(DType::kBFloat16, 64, 2112, 7168);
  gated_mid.gated = true;
  EXPECT_EQ(decide(gated_mid).dropped.at("gemm_swap_sm90"),
            "refused: m = 64 > 32 on a gated call: not measured against the tile kernel "
            "(TILEOPS_GEMM_SWAP=always serves it)");
  GemmCall nn = call_of(DType::kBFloat16, 1, 13824, 5120);
  nn.trans_b = false;
  EXPECT_NE(decide(nn).winner, "gemm_swap_sm90");
}

// Between 33 and 128 tokens the swapped kernel takes the rows the tile kernel would split K over
// 64x128 tiles, except those where the tile kernel sums 5 or more splits in parallel over more
// than 64 tokens or fewer than 2048 weight rows. Every row of the H200 sweeps
// (docs/perf/h200-mid-m-swap-2026-12-04) against the side that won there by more than 3%, the rows
// within 3% going either way, and the rows the parallel reduction moved, against the side that won
// on an H100 (docs/perf/h200-split-reduce-2026-12-05): 128x1024x7168, 72x1024x7168 and
// 128x1024x14336. The rule misses two rows, left out here: 80x2112x7168 and 96x2112x7168, where
// the tile kernel's unsplit 64x32 tiles over a part-filled second row of tiles lost (26.4 and 22.0
// against 22.2 and 20.8 us) before the tail boxes.
TEST(GemmDispatch, SwappedKernelTakesTheMidMRowsItWasMeasuredFasterOn) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  ScopedEnv measured("TILEOPS_GEMM_SWAP", nullptr);
  struct Row {
    int64_t m, n, k;
    bool swapped_won;
  };
  const Row rows[] = {
      {64, 2112, 7168, true},   {64, 2560, 7168, true},    {64, 2048, 14336, true},
      {40, 2112, 7168, true},   {48, 2112, 7168, true},    {128, 1024, 7168, false},
      {72, 1024, 7168, false},  {128, 1024, 14336, false}, {128, 2112, 7168, false},
      {128, 4096, 7168, false}, {64, 4096, 7168, false},   {96, 4096, 4096, false},
      {128, 1024, 4096, false}, {128, 7168, 2048, false},  {128, 14336, 4096, false},
      {48, 4096, 4096, false},  {64, 576, 7168, false},    {64, 1024, 4096, false},
      {64, 3072, 4096, false},  {64, 3584, 7168, false},   {64, 4096, 4096, false},
  };
  for (const Row& r : rows) {
    const std::string winner = decide(call_of(DType::kBFloat16, r.m, r.n, r.k)).winner;
    EXPECT_EQ(winner == "gemm_swap_sm90", r.swapped_won)
        << r.m << "x" << r.n << "x" << r.k << " went to " << winner;
  }
}

// The tile kernel's untuned choice on the H200's 132 SMs, with the serial-split cap and without
// it (TILEOPS_GEMM_SERIAL_SPLITS_FIRST=0): the cap moves a few tokens over 1024 weight rows and
// deep K from wide tiles at 5-14 parallel splits to narrow ones at 4 serial splits (the choices
// the H100 runs of docs/perf/h200-cluster-split-k-2026-12-06 reported), and leaves alone the rows
// no serial split fills (128x1536x7168), the rows that do not split, and gated calls.
TEST(GemmDispatch, SerialSplitCapTakesNarrowTilesWhereTheyFillTheDevice) {
  struct Row {
    int64_t m, n, k;
    bool gated;
    cuda::WsScoredChoice capped, uncapped;  // bm, bn, bk, splits
  };
  const Row rows[] = {
      {128, 1024, 7168, false, {64, 64, 128, 4}, {64, 128, 64, 7}},
      {72, 1024, 7168, false, {64, 64, 128, 4}, {64, 128, 64, 7}},
      {64, 1024, 7168, false, {64, 32, 128, 4}, {64, 64, 128, 7}},
      {128, 1024, 14336, false, {64, 64, 128, 4}, {128, 128, 64, 14}},
      {128, 5120, 7168, false, {128, 128, 64, 3}, {128, 256, 64, 6}},
      {128, 1536, 7168, false, {64, 128, 64, 5}, {64, 128, 64, 5}},
      {128, 4096, 7168, false, {64, 64, 128, 1}, {64, 64, 128, 1}},
      {4096, 4096, 4096, false, {128, 256, 64, 1}, {128, 256, 64, 1}},
  };
  auto same = [](const cuda::WsScoredChoice& a, const cuda::WsScoredChoice& b) {
    return a.bm == b.bm && a.bn == b.bn && a.bk == b.bk && a.splits == b.splits;
  };
  auto text = [](const cuda::WsScoredChoice& c) {
    return std::to_string(c.bm) + "x" + std::to_string(c.bn) + "x" + std::to_string(c.bk) +
           " split " + std::to_string(c.splits);
  };
  for (const Row& r : rows) {
    const GemmCall call = call_of(DType::kBFloat16, r.m, r.n, r.k);
    const std::string what =
        std::to_string(r.m) + "x" + std::to_string(r.n) + "x" + std::to_string(r.k);
    const cuda::WsScoredChoice capped = cuda::ws_untuned_choice(call, 132, true);
    const cuda::WsScoredChoice uncapped = cuda::ws_untuned_choice(call, 132, false);
    EXPECT_TRUE(same(capped, r.capped)) << what << ": " << text(capped);
    EXPECT_TRUE(same(uncapped, r.uncapped)) << what << " uncapped: " << text(uncapped);
    // The swapped kernel's rule reads the uncapped choice.
    EXPECT_TRUE(same(cuda::ws_scored_choice(call, 132), uncapped)) << what;
  }
  // A gated call keeps its splits: the cap is for the parallel reduction, which gated calls skip.
  GemmCall gated = call_of(DType::kBFloat16, 128, 1024, 7168);
  gated.gated = true;
  EXPECT_TRUE(
      same(cuda::ws_untuned_choice(gated, 132, true), cuda::ws_untuned_choice(gated, 132, false)));
}

// The tile kernel's paths not yet run on a GPU are tuning candidates only under
// TILEOPS_GEMM_EXPERIMENTAL: the /k tiles on a linear layer's layout, 128x64x64 on the others,
// 128x64x64/n2 on both (not with a as [k, m]).
TEST(GemmDispatch, ExperimentalTilesAreOfferedOnlyWhenSwitchedOn) {
  const auto has = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  GemmCall linear = call_of(DType::kBFloat16, 128, 512, 7168);
  linear.trans_a = false;
  linear.trans_b = true;
  GemmCall nn = linear;
  nn.trans_b = false;
  for (bool experimental : {false, true}) {
    const std::vector<std::string> lin = cuda::ws_tuning_candidates(linear, experimental);
    const std::vector<std::string> kn = cuda::ws_tuning_candidates(nn, experimental);
    EXPECT_EQ(has(lin, "64x64x128/s6/k"), experimental);
    EXPECT_EQ(has(lin, "64x32x128/s8/k/uncapped"), experimental);
    EXPECT_TRUE(has(lin, "128x64x64/s8"));
    EXPECT_TRUE(has(lin, "64x64x128/s6"));
    EXPECT_EQ(has(kn, "128x64x64/s8"), experimental);
    EXPECT_EQ(has(kn, "128x64x64/s8/n2"), experimental);
    EXPECT_EQ(has(lin, "128x64x64/s8/n2"), experimental);
    EXPECT_FALSE(has(kn, "64x64x128/s6/k"));
    EXPECT_TRUE(has(kn, "64x128x64/s8"));
    GemmCall tn = nn;
    tn.trans_a = true;
    EXPECT_FALSE(has(cuda::ws_tuning_candidates(tn, experimental), "128x64x64/s8/n2"));
  }
  // Offered, they stay tuning candidates: 4096x64x4096 with b as [k, n] is where 128x64's score
  // (no padded columns) beats 128x128's, so the untuned choice must pass over it there.
  nn.m = nn.k = 4096;
  nn.n = 64;
  for (bool experimental : {false, true}) {
    const cuda::WsScoredChoice c = cuda::ws_untuned_choice(nn, 132, true, experimental);
    EXPECT_FALSE(c.bm == 128 && c.bn == 64) << "experimental=" << experimental;
  }
}

TEST(GemmDispatch, SwapSwitchServesEveryCallItCanOrNone) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  {
    ScopedEnv always("TILEOPS_GEMM_SWAP", "always");
    EXPECT_EQ(decide(call_of(DType::kBFloat16, 1, 2048, 2048)).winner, "gemm_swap_sm90");
    EXPECT_EQ(decide(call_of(DType::kBFloat16, 128, 2112, 7168)).winner, "gemm_swap_sm90");
    EXPECT_NE(decide(call_of(DType::kBFloat16, 129, 2112, 7168)).winner, "gemm_swap_sm90");
  }
  ScopedEnv off("TILEOPS_GEMM_SWAP", "0");
  const Decision d = decide(call_of(DType::kBFloat16, 1, 13824, 5120));
  EXPECT_EQ(d.winner, "gemm_skinny_cuda");
  EXPECT_EQ(d.dropped.at("gemm_swap_sm90"), "refused: switched off by TILEOPS_GEMM_SWAP");
}

}  // namespace
}  // namespace tileops
