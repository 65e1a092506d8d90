// Tuning on the GPU (skipped without one): every candidate configuration of the tunable kernels
// matches the float64 reference when chosen through the store, request_tune() times and stores a
// choice that a later op reuses without timing, and tuning refuses to run inside a graph capture.

#include <array>

#include <fmt/format.h>

#include "runtime/cuda/cublaslt_api.hpp"
#include "runtime/tuning/tuner.hpp"
#include "runtime/tuning/tuning_store.hpp"
#include "support/cuda_support.hpp"
#include "support/test_support.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/ops/gemm/bmm_fwd_op.hpp"
#include "tileops/ops/gemm/gated_linear_fwd_op.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"
#include "tileops/ops/gemm/linear_fwd_op.hpp"
#include "tileops/ops/normalization/fused_add_rms_norm_fwd_op.hpp"
#include "tileops/ops/normalization/layer_norm_fwd_op.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"
#include "tileops/ops/reduction/log_softmax_fwd_op.hpp"
#include "tileops/ops/reduction/softmax_fwd_op.hpp"
#include "tuning/tuning_dir.hpp"

namespace tileops {
namespace {

using testing::cuda_matches_reference;

class CudaTuning : public testing::TuningDirTest {
 protected:
  void SetUp() override {
    TILEOPS_REQUIRE_CUDA();
    TuningDirTest::SetUp();
    board_ = cuda::device_name(0);
  }
  std::string board_;
  testing::CublasLtSwitchedOff cublaslt_off_;  // the tiled kernel's tiles are what is tuned here
};

const std::vector<std::string> kGemmTiles{"64x64x16/4x4",  "128x64x16/8x4", "64x128x16/4x8",
                                          "128x128x8/8x8", "32x64x16/2x4",  "64x32x16/4x2"};
const std::vector<std::string> kRowConfigs{"cache=0/per_thread=1", "cache=0/per_thread=2",
                                           "cache=0/per_thread=4", "cache=4/per_thread=1",
                                           "cache=4/per_thread=2", "cache=4/per_thread=4"};

TEST_F(CudaTuning, EveryGemmTileMatchesTheReference) {
  for (bool trans_b : {false, true}) {
    for (const std::string& tile : kGemmTiles) {
      const int64_t m = 67, n = 130, k = 45;
      tuning::store_tuned(board_,
                          {"gemm_tiled_cuda", fmt::format("bfloat16 m={} n={} k={} n{}", m, n, k,
                                                          trans_b ? 't' : 'n')},
                          tile);
      GemmFwdOp op({.trans_a = false, .trans_b = trans_b});
      op.request_tune();
      const Shape b = trans_b ? Shape{n, k} : Shape{k, n};
      EXPECT_TRUE(cuda_matches_reference(op, {Shape{m, k}, b}, DType::kBFloat16)) << tile;
      EXPECT_EQ(op.kernel_config(), "tile=" + tile);
    }
  }
}

const std::vector<std::string> kWsTiles{"128x256x64/s4",  "128x128x64/s6", "128x256x64/s4/c2",
                                        "64x256x64/s5",   "64x128x64/s8",  "128x64x64/s8",
                                        "128x64x64/s8/n2"};

// 128x64x64 off a linear layer's layout, and 128x64x64/n2 (a as [m, k]), are candidates under
// TILEOPS_GEMM_EXPERIMENTAL only.
TEST_F(CudaTuning, EveryTensorCoreGemmTileMatchesTheReferenceInEveryLayout) {
  testing::ScopedEnv experimental("TILEOPS_GEMM_EXPERIMENTAL", "1");
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      for (const std::string& tile : kWsTiles) {
        // Pairs along N share A's stage, so a must be [m, k].
        if (ta && tile.ends_with("/n2")) continue;
        const int64_t m = 200, n = 328, k = 520;  // edges in M, N and K for every tile
        tuning::store_tuned(board_,
                            {"gemm_sm90_ws", fmt::format("bfloat16 m={} n={} k={} {}{}", m, n, k,
                                                         ta ? 't' : 'n', tb ? 't' : 'n')},
                            tile);
        GemmFwdOp op({.trans_a = ta, .trans_b = tb});
        op.request_tune();
        const Shape a = ta ? Shape{k, m} : Shape{m, k};
        const Shape b = tb ? Shape{n, k} : Shape{k, n};
        EXPECT_TRUE(cuda_matches_reference(op, {a, b}, DType::kBFloat16)) << tile;
        EXPECT_EQ(op.kernel_config().rfind("tile=" + tile, 0), 0u) << op.kernel_config();
        EXPECT_EQ(op.last_call()->served_by, "gemm_sm90_ws");
      }
    }
  }
}

// Clustered tiles (two blocks sharing B by multicast), forced through the store.
class CudaClusteredTiles : public CudaTuning {
 protected:
  void force(const std::string& tile, int64_t m, int64_t n, int64_t k, bool ta, bool tb,
             const std::string& suffix = "") {
    tuning::store_tuned(board_,
                        {"gemm_sm90_ws", fmt::format("bfloat16 m={} n={} k={} {}{}{}", m, n, k,
                                                     ta ? 't' : 'n', tb ? 't' : 'n', suffix)},
                        tile);
  }
  // Every layout of one shape (m, n and k multiples of 8, so TMA serves every layout).
  void every_layout(const std::string& tile, int64_t m, int64_t n, int64_t k) {
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        force(tile, m, n, k, ta, tb);
        GemmFwdOp op({.trans_a = ta, .trans_b = tb});
        op.request_tune();
        const Shape a = ta ? Shape{k, m} : Shape{m, k};
        const Shape b = tb ? Shape{n, k} : Shape{k, n};
        EXPECT_TRUE(cuda_matches_reference(op, {a, b}, DType::kBFloat16))
            << tile << " " << m << "x" << n << "x" << k << " ta=" << ta << " tb=" << tb;
        EXPECT_EQ(op.kernel_config(), "tile=" + tile);
      }
    }
  }
  // The forced tile on a linear layer's layout (a [m, k], b [n, k]) over each shape: it matches
  // the reference and serves the call, splitting K or not. Returns each call's kernel_config().
  std::vector<std::string> linear_layout(const std::string& tile,
                                         const std::vector<std::array<int64_t, 3>>& shapes) {
    std::vector<std::string> configs;
    for (const auto& [m, n, k] : shapes) {
      force(tile, m, n, k, false, true);
      GemmFwdOp op({.trans_a = false, .trans_b = true});
      op.request_tune();
      EXPECT_TRUE(cuda_matches_reference(op, {Shape{m, k}, Shape{n, k}}, DType::kBFloat16))
          << tile << " " << m << "x" << n << "x" << k;
      const std::string config = op.kernel_config();
      const std::string shown = tile.substr(0, tile.find("/uncapped"));  // the config names tiles
      EXPECT_TRUE(config == "tile=" + shown || config.rfind("tile=" + shown + ",split_k=", 0) == 0)
          << config;
      configs.push_back(config);
    }
    return configs;
  }
  // The forced tile over a batch of three 72x136xk problems (a few tiles each, so the last
  // problem's rows end inside a tile): it matches the reference. Returns the kernel config.
  std::string batch_of_three(const std::string& tile, int64_t k) {
    force(tile, 72, 136, k, false, true, " batch=3");
    BmmFwdOp bmm({.trans_b = true});
    bmm.request_tune();
    EXPECT_TRUE(cuda_matches_reference(bmm, {Shape{3, 72, k}, Shape{3, 136, k}}, DType::kBFloat16))
        << tile << " batch";
    return bmm.kernel_config();
  }
  const std::vector<std::string> clustered_{"128x256x64/s4/c2", "128x128x64/s6/c2"};
};

// An odd tile-row count, so the last pair has a row past M; a batch (the pair must not read the
// next problem's rows); a gated call (one block loads the gate rows, the other the up rows).
TEST_F(CudaClusteredTiles, OddTileRowsBatchesAndGatedCalls) {
  for (const std::string& tile : clustered_) {
    every_layout(tile, 296, 328, 520);
    force(tile, 136, 200, 264, false, false, " batch=3");
    BmmFwdOp bmm;
    bmm.request_tune();
    EXPECT_TRUE(
        cuda_matches_reference(bmm, {Shape{3, 136, 264}, Shape{3, 264, 200}}, DType::kBFloat16))
        << tile;
    EXPECT_EQ(bmm.kernel_config(), "tile=" + tile);
    force(tile, 296, 328, 520, false, true, " silu_and_mul");
    GatedLinearFwdOp gated;
    gated.request_tune();
    EXPECT_TRUE(
        cuda_matches_reference(gated, {Shape{296, 520}, Shape{2 * 328, 520}}, DType::kBFloat16))
        << tile;
    EXPECT_EQ(gated.kernel_config(), "tile=" + tile);
  }
}

// More tile pairs than clusters fit the device at once: each cluster walks several.
TEST_F(CudaClusteredTiles, ClustersWalkSeveralPairs) {
  for (const std::string& tile : clustered_) every_layout(tile, 2056, 2000, 136);
}

// The tile clustered along N (two blocks sharing A by multicast) on a linear layer's layout: fewer
// rows than a tile, a cluster whose last tiles lie past N (n = 328: 11 tile columns), more
// clusters' work than fit at once, and K over many stages.
TEST_F(CudaClusteredTiles, ClustersAlongNShareTheTokens) {
  const std::vector<std::array<int64_t, 3>> shapes{
      {40, 328, 264}, {64, 328, 1000}, {200, 4104, 136}, {2056, 2000, 136}, {72, 1064, 4104}};
  linear_layout("64x32x64/s16/n2", shapes);
}

// The 128-deep tiles (two K boxes a stage) on K tails: K off the stage (4104 = 32 stages and one
// of 8), K under one stage (72), K split across blocks (128x2112x7168 splits for 128x64), and a
// batch whose problems' K ends inside a stage.
TEST_F(CudaClusteredTiles, TwoBoxStagesCoverKTails) {
  const std::vector<std::array<int64_t, 3>> shapes{
      {200, 328, 4104}, {64, 4096, 72}, {130, 100, 136}, {128, 2112, 7168}};
  for (const std::string& tile :
       {"64x32x128/s8", "64x64x128/s6", "64x128x128/s4", "128x64x128/s4"}) {
    const std::vector<std::string> configs = linear_layout(tile, shapes);
    // On the H200 (132 SMs) 128x64 splits 128x2112x7168 four ways (33 tiles); the split path of
    // the two-box stages must run.
    if (std::string(tile) == "128x64x128/s4" &&
        read_device_facts(Device::cuda(0)).sm_count == 132) {
      EXPECT_EQ(configs.back(), "tile=128x64x128/s4,split_k=4,reduce=serial");
    }
    EXPECT_EQ(batch_of_three(tile, 200), std::string("tile=") + tile);
  }
}

// Clustered tiles split K (the serial reduction): pairs along N over a few tokens and deep K, the
// cluster's last tile past N (40x328x4104: 11 or 6 tile columns), ragged rows and columns
// (72x1000x7168), a batch, and pairs along M whose second tile lies wholly past M, plain and
// gated. Every block of a cluster takes the same split, each tile its own workspace slot.
TEST_F(CudaClusteredTiles, ClusteredTilesSplitK) {
  const std::vector<std::array<int64_t, 3>> shapes{
      {40, 328, 4104}, {72, 1000, 7168}, {128, 1024, 7168}};
  for (const std::string tile : {"64x32x128/s8/n2", "64x32x64/s16/n2"}) {
    const std::vector<std::string> configs = linear_layout(tile, shapes);
    // 12 blocks on any device of 24 SMs or more: split K four ways.
    EXPECT_EQ(configs.front(), "tile=" + tile + ",split_k=4,reduce=serial");
    const std::string batch = batch_of_three(tile, 2000);
    EXPECT_EQ(batch.rfind("tile=" + tile + ",split_k=", 0), 0u) << batch;
  }
  for (const std::string& tile : clustered_) {
    const std::vector<std::string> configs = linear_layout(tile, {{40, 328, 4104}});
    EXPECT_EQ(configs.front(), "tile=" + tile + ",split_k=4,reduce=serial");
    force(tile, 40, 328, 4104, false, true, " silu_and_mul");
    GatedLinearFwdOp gated;
    gated.request_tune();
    EXPECT_TRUE(
        cuda_matches_reference(gated, {Shape{40, 4104}, Shape{2 * 328, 4104}}, DType::kBFloat16))
        << tile << " gated";
    EXPECT_EQ(gated.kernel_config().rfind("tile=" + tile + ",split_k=", 0), 0u)
        << gated.kernel_config();
  }
}

// Plain tiles whose K splits are the blocks of one cluster and sum in its shared memory (/k;
// tuning candidates under TILEOPS_GEMM_EXPERIMENTAL), no workspace: four ways with the last tile
// past N (40x328x4104), ragged rows and columns (72x1000x7168), eight uneven ways uncapped
// (40x328x8200: 65 k-tiles), bias and residual (the first block's staged store), and a batch.
TEST_F(CudaClusteredTiles, SplitsInAClusterMeetInSharedMemory) {
  testing::ScopedEnv experimental("TILEOPS_GEMM_EXPERIMENTAL", "1");
  const bool many_sms = read_device_facts(Device::cuda(0)).sm_count >= 96;
  for (const std::string tile : {"64x64x128/s6/k", "64x32x128/s8/k"}) {
    const std::vector<std::string> configs =
        linear_layout(tile, {{40, 328, 4104}, {72, 1000, 7168}});
    EXPECT_EQ(configs.front(), "tile=" + tile + ",split_k=4,reduce=cluster");
    const std::vector<std::string> deep = linear_layout(tile + "/uncapped", {{40, 328, 8200}});
    if (many_sms) EXPECT_EQ(deep.front(), "tile=" + tile + ",split_k=8,reduce=cluster");
    force(tile, 40, 328, 4104, false, true);
    LinearFwdOp linear;
    linear.request_tune();
    EXPECT_TRUE(cuda_matches_reference(
        linear, {Shape{40, 4104}, Shape{328, 4104}, Shape{328}, Shape{40, 328}}, DType::kBFloat16))
        << tile << " bias and residual";
    EXPECT_EQ(linear.kernel_config(), "tile=" + tile + ",split_k=4,reduce=cluster");
    const std::string batch = batch_of_three(tile, 2000);
    EXPECT_EQ(batch.rfind("tile=" + tile + ",split_k=", 0), 0u) << batch;
  }
}

// Each tile is also a candidate at its full K split ("/uncapped"), past the cap the untuned plan
// puts on every tile of a call (4 serial splits where they fill the SMs): 128x1024x7168, whose
// 16 tiles of 64x128 split 7 ways uncapped (parallel) on any device of 112 SMs or more and at most
// 4 ways (serial) under the cap. Both forms match the reference.
TEST_F(CudaClusteredTiles, UncappedCandidatesSplitPastTheCap) {
  const std::string tile = "64x128x64/s8";
  const std::vector<std::string> capped = linear_layout(tile, {{128, 1024, 7168}});
  const std::vector<std::string> uncapped = linear_layout(tile + "/uncapped", {{128, 1024, 7168}});
  if (read_device_facts(Device::cuda(0)).sm_count >= 112) {
    EXPECT_EQ(uncapped.front(), "tile=" + tile + ",split_k=7,reduce=parallel");
    EXPECT_EQ(capped.front(), "tile=" + tile + ",split_k=4,reduce=serial");
  }
}

// Every tile through each epilogue: TMA stores (a plain call, a bias, a gated call, a batch whose
// problems end inside a tile) and the synchronous store (a residual; n not a multiple of 8).
TEST_F(CudaClusteredTiles, EveryTileThroughEveryEpilogue) {
  const std::vector<std::string> tiles{
      "128x256x64/s4", "128x128x64/s6",    "64x256x64/s5",     "64x128x64/s8",  "64x64x64/s12",
      "64x32x64/s16",  "128x256x64/s4/c2", "128x128x64/s6/c2", "128x64x64/s8",  "64x32x64/s16/n2",
      "64x32x128/s8",  "64x64x128/s6",     "64x128x128/s4",    "128x64x128/s4", "64x32x128/s8/n2"};
  const int64_t m = 200, n = 328, k = 264;
  for (const std::string& tile : tiles) {
    force(tile, m, n, k, false, true);
    LinearFwdOp linear;
    linear.request_tune();
    EXPECT_TRUE(
        cuda_matches_reference(linear, {Shape{m, k}, Shape{n, k}, Shape{n}}, DType::kBFloat16))
        << tile << " bias";
    EXPECT_EQ(linear.kernel_config(), "tile=" + tile);
    EXPECT_TRUE(cuda_matches_reference(linear, {Shape{m, k}, Shape{n, k}, Shape{n}, Shape{m, n}},
                                       DType::kBFloat16))
        << tile << " bias and residual";
    force(tile, m, 330, k, false, true);
    GemmFwdOp odd_n({.trans_a = false, .trans_b = true});
    odd_n.request_tune();
    EXPECT_TRUE(cuda_matches_reference(odd_n, {Shape{m, k}, Shape{330, k}}, DType::kBFloat16))
        << tile << " n=330";
    EXPECT_EQ(odd_n.kernel_config(), "tile=" + tile);
    force(tile, 136, 200, 264, false, true, " batch=3");
    BmmFwdOp bmm({.trans_b = true});
    bmm.request_tune();
    EXPECT_TRUE(
        cuda_matches_reference(bmm, {Shape{3, 136, 264}, Shape{3, 200, 264}}, DType::kBFloat16))
        << tile << " batch";
    EXPECT_EQ(bmm.kernel_config(), "tile=" + tile);
    // The tiles under 128 columns, and the 128-deep ones, serve no gated calls.
    if (tile.find("x64x64/") != std::string::npos || tile.find("x32x64/") != std::string::npos ||
        tile.find("x128/") != std::string::npos) {
      continue;
    }
    force(tile, m, n, k, false, true, " silu_and_mul");
    GatedLinearFwdOp gated;
    gated.request_tune();
    EXPECT_TRUE(cuda_matches_reference(gated, {Shape{m, k}, Shape{2 * n, k}}, DType::kBFloat16))
        << tile << " gated";
    EXPECT_EQ(gated.kernel_config(), "tile=" + tile);
  }
}

// y += x w^T + b in place: the residual is the output, through the staged store and (under
// TILEOPS_GEMM_EXPERIMENTAL) through the TMA-store epilogue of two-consumer tiles, which must read
// every element of a slab before the store writing it is issued; the one-consumer tile keeps the
// staged store either way. Rows and columns end inside tiles.
TEST_F(CudaClusteredTiles, ResidualMayBeTheOutput) {
  const int64_t m = 300, n = 328, k = 264;
  for (const char* experimental : {"0", "1"}) {
    testing::ScopedEnv env("TILEOPS_GEMM_EXPERIMENTAL", experimental);
    for (const std::string& tile : {"128x256x64/s4", "128x128x64/s6", "64x128x64/s8"}) {
      force(tile, m, n, k, false, true);
      LinearFwdOp linear;
      linear.request_tune();
      const uint64_t seed = testing::fresh_seed();
      std::vector<Tensor> host;
      for (const Shape& s : {Shape{m, k}, Shape{n, k}, Shape{n}, Shape{m, n}}) {
        host.push_back(random_tensor(s, DType::kBFloat16, seed + host.size()));
      }
      const ReferenceResult want =
          find_reference(linear.name())->compute(linear.param_values(), host);
      std::vector<Tensor> dev;
      for (const Tensor& t : host) dev.push_back(cuda::to_device(t, Device::cuda(0)));
      linear.call_into(dev, std::vector<Tensor>{dev[3]});
      EXPECT_EQ(linear.kernel_config(), "tile=" + std::string(tile));
      const Tensor got = Tensor::empty(Shape{m, n}, DType::kBFloat16);
      cuda::copy(got, dev[3]);
      const Comparison c = compare(got, want.outputs[0], default_tolerance(DType::kBFloat16));
      EXPECT_TRUE(c.ok()) << tile << " experimental=" << experimental << " seed " << seed << ": "
                          << c.str();
    }
  }
}

// cuBLASLt is the tensor-core kernel's last tuning candidate: chosen through the store, it serves
// plain calls and a linear layer's bias and residual, and kernel_config() names it.
TEST_F(CudaTuning, CublasLtIsATuningCandidateOfTheTensorCoreKernel) {
  testing::ScopedEnv cublaslt_on("TILEOPS_CUBLASLT", "1");
  if (!cuda::cublaslt_available()) GTEST_SKIP() << cuda::cublaslt_unavailable_reason();
  const int64_t m = 300, n = 328, k = 520;
  tuning::store_tuned(board_, {"gemm_sm90_ws", fmt::format("bfloat16 m={} n={} k={} nt", m, n, k)},
                      "cublaslt");
  GemmFwdOp op({.trans_a = false, .trans_b = true});
  op.request_tune();
  EXPECT_TRUE(cuda_matches_reference(op, {Shape{m, k}, Shape{n, k}}, DType::kBFloat16));
  EXPECT_EQ(op.last_call()->served_by, "gemm_sm90_ws");
  EXPECT_EQ(op.kernel_config(), "cublaslt");
  LinearFwdOp linear;
  linear.request_tune();
  EXPECT_TRUE(cuda_matches_reference(linear, {Shape{m, k}, Shape{n, k}, Shape{n}, Shape{m, n}},
                                     DType::kBFloat16));
  EXPECT_EQ(linear.kernel_config(), "cublaslt");
}

std::string row_spec(DType dtype, int64_t rows, int64_t n, int vec) {
  return fmt::format("{} rows={} n={} vec={}", dtype_name(dtype), rows, n, vec);
}

TEST_F(CudaTuning, EveryRowKernelConfigMatchesTheReference) {
  const DType dtype = DType::kBFloat16;
  // Many rows of a multiple of the pack, and few rows off it (each row in 16-byte packs from its
  // first boundary), both longer than the rows a group of lanes takes.
  for (auto [rows, n, vec] : {std::tuple<int64_t, int64_t, int>{300, 4096, 8}, {5, 2003, 8}}) {
    for (const std::string& config : kRowConfigs) {
      const std::string spec = row_spec(dtype, rows, n, vec);
      tuning::store_tuned(board_, {"rms_norm_cuda", spec}, config);
      tuning::store_tuned(board_, {"layer_norm_cuda", spec}, config);
      tuning::store_tuned(board_, {"fused_add_rms_norm_cuda", spec}, config);
      tuning::store_tuned(board_, {"softmax_cuda", spec}, config);
      tuning::store_tuned(board_, {"log_softmax_cuda", spec}, config);
      RMSNormFwdOp rms({.normalized_shape = {n}});
      LayerNormFwdOp layer({.normalized_shape = {n}});
      FusedAddRMSNormFwdOp fused(FusedAddRMSNormFwdOp::Params{});
      SoftmaxFwdOp softmax({.dim = -1});
      LogSoftmaxFwdOp log_softmax({.dim = -1});
      const std::initializer_list<Op*> ops{&rms, &layer, &fused, &softmax, &log_softmax};
      for (Op* op : ops) op->request_tune();
      const Shape x{rows, n}, w{n};
      EXPECT_TRUE(cuda_matches_reference(rms, {x, w}, dtype)) << config;
      EXPECT_TRUE(cuda_matches_reference(layer, {x, w, w}, dtype)) << config;
      EXPECT_TRUE(cuda_matches_reference(fused, {x, x, w}, dtype)) << config;
      EXPECT_TRUE(cuda_matches_reference(softmax, {x}, dtype)) << config;
      EXPECT_TRUE(cuda_matches_reference(log_softmax, {x}, dtype)) << config;
      for (Op* op : ops) {
        EXPECT_EQ(op->kernel_config().rfind(config + ",block=", 0), 0u) << op->kernel_config();
      }
    }
  }
}

TEST_F(CudaTuning, RequestTuneTimesStoresAndALaterOpReusesTheChoice) {
  const tuning::TuningCounts before = tuning::tuning_counts();
  {
    GemmFwdOp op({.trans_a = false, .trans_b = true});
    op.request_tune({.warmup_runs = 2, .timed_runs = 5});
    EXPECT_TRUE(cuda_matches_reference(op, {Shape{256, 192}, Shape{320, 192}}, DType::kFloat16));
  }
  const tuning::TuningCounts tuned = tuning::tuning_counts();
  EXPECT_EQ(tuned.timed, before.timed + 1);
  const auto stored =
      tuning::lookup_tuned(board_, {"gemm_sm90_ws", "float16 m=256 n=320 k=192 nt"});
  ASSERT_TRUE(stored.has_value());

  GemmFwdOp later({.trans_a = false, .trans_b = true});
  later.request_tune();
  EXPECT_TRUE(cuda_matches_reference(later, {Shape{256, 192}, Shape{320, 192}}, DType::kFloat16));
  EXPECT_EQ(later.kernel_config().rfind("tile=" + *stored, 0), 0u) << later.kernel_config();
  const tuning::TuningCounts after = tuning::tuning_counts();
  EXPECT_EQ(after.timed, tuned.timed) << "the stored choice is reused without timing";
  EXPECT_EQ(after.stored, tuned.stored + 1);
}

TEST_F(CudaTuning, TuningInsideAGraphCaptureIsAClearErrorAndWritesNothing) {
  // Rows of 2048: the tunable one-block-a-row kernel serves them.
  RMSNormFwdOp op({.normalized_shape = {2048}});
  op.request_tune();
  const Tensor x = testing::device_copy(random_tensor({4, 2048}, DType::kFloat32, 1));
  const Tensor w = testing::device_copy(random_tensor({2048}, DType::kFloat32, 2));
  Tensor out = Tensor::empty({4, 2048}, DType::kFloat32, Device::cuda(0));
  cuda::fill_bytes(out, 0x5a);
  cuda::synchronize(0);
  cuda::StreamHandle stream = cuda::create_stream(0);
  {
    cuda::StreamGuard guard(0, stream);
    cuda::Graph graph(0, stream);
    try {
      op.call_into(std::vector<Tensor>{x, w}, std::vector<Tensor>{out});
      ADD_FAILURE() << "expected a RuntimeError";
    } catch (const RuntimeError& e) {
      EXPECT_NE(std::string(e.what()).find("captured into a CUDA graph"), std::string::npos)
          << e.what();
    }
    graph.end_capture();
  }
  const Tensor host = testing::host_copy(out);
  const auto* bytes = static_cast<const unsigned char*>(host.data());
  for (int64_t i = 0; i < host.nbytes(); ++i) ASSERT_EQ(bytes[i], 0x5a) << "byte " << i;
}

}  // namespace
}  // namespace tileops
