// GemmFwdOp on the GPU's tensor cores against the float64 reference, every output element, outputs
// poisoned first, fresh random inputs each run (skipped without a GPU): the warp-specialised TMA
// + wgmma kernel in every layout, the skinny decode kernel, and the CUDA-core fallback that
// dispatch names for calls TMA cannot address. Shapes put 1, 7, 1000 and 4097 in M, N and K, and
// K off the 64-deep k-tile.
#include <cstring>

#include <fmt/format.h>

#include "support/cuda_support.hpp"
#include "support/scoped_state.hpp"
#include "support/test_support.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"
#include "tileops/reference/reference.hpp"

namespace tileops {
namespace {

using testing::cuda_matches_reference;

struct Mnk {
  int64_t m, n, k;
};

Shape a_shape(bool ta, const Mnk& s) {
  return ta ? Shape{s.k, s.m} : Shape{s.m, s.k};
}
Shape b_shape(bool tb, const Mnk& s) {
  return tb ? Shape{s.n, s.k} : Shape{s.k, s.n};
}

class CudaTensorCoreGemm : public ::testing::TestWithParam<DType> {
  testing::CublasLtSwitchedOff cublaslt_off_;  // these test tileops's own kernels
};

TEST_P(CudaTensorCoreGemm, EveryLayoutAndEdgeShape) {
  TILEOPS_REQUIRE_CUDA();
  const std::vector<Mnk> shapes{{1, 1, 8},        {7, 1000, 64},   {1000, 7, 136},
                                {1000, 1000, 72}, {4097, 64, 200}, {64, 4097, 1000},
                                {130, 520, 4097}, {1, 4097, 1000}, {7, 7, 7},
                                {1000, 1000, 7},  {33, 65, 1},     {256, 256, 4096}};
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      GemmFwdOp op({.trans_a = ta, .trans_b = tb});
      for (const Mnk& s : shapes) {
        EXPECT_TRUE(cuda_matches_reference(op, {a_shape(ta, s), b_shape(tb, s)}, GetParam()))
            << "trans_a=" << ta << " trans_b=" << tb << " served by " << op.last_call()->served_by;
      }
    }
  }
}

TEST_P(CudaTensorCoreGemm, LargeSquareAndMisalignedOperands) {
  TILEOPS_REQUIRE_CUDA();
  GemmFwdOp nt;
  EXPECT_TRUE(cuda_matches_reference(nt, {Shape{1000, 1000}, Shape{1000, 1000}}, GetParam()));
  // A view one element past an allocation: not 16-byte aligned, so the CUDA-core kernel serves.
  EXPECT_TRUE(cuda_matches_reference(nt, {Shape{96, 256}, Shape{128, 256}}, GetParam(), true));
  EXPECT_EQ(nt.last_call()->served_by, "gemm_tiled_cuda");
}

TEST_P(CudaTensorCoreGemm, SkinnyBatchesUpToThirtyTwo) {
  TILEOPS_REQUIRE_CUDA();
  testing::ScopedEnv skinny_only("TILEOPS_GEMM_SWAP", "0");  // k = 4096 would take the swapped one
  GemmFwdOp op;                                              // a [m, k] times a weight [n, k]
  // 70001 and 300001 columns: a block's share spans several rounds of steps.
  for (int64_t m : {1, 2, 7, 8, 9, 16, 17, 32}) {
    for (Mnk s : {Mnk{m, 4096, 4096}, Mnk{m, 1000, 520}, Mnk{m, 17, 8}, Mnk{m, 70001, 24},
                  Mnk{m, 300001, 8}}) {
      EXPECT_TRUE(cuda_matches_reference(op, {a_shape(false, s), b_shape(true, s)}, GetParam()))
          << s.m << "x" << s.n << "x" << s.k;
      EXPECT_EQ(op.last_call()->served_by, "gemm_skinny_cuda");
    }
  }
}

TEST_P(CudaTensorCoreGemm, DispatchNamesWhichKernelServes) {
  TILEOPS_REQUIRE_CUDA();
  auto served = [&](bool ta, bool tb, Mnk s) {
    GemmFwdOp op({.trans_a = ta, .trans_b = tb});
    EXPECT_TRUE(cuda_matches_reference(op, {a_shape(ta, s), b_shape(tb, s)}, GetParam()));
    return std::string(op.last_call()->served_by);
  };
  EXPECT_EQ(served(false, true, {256, 512, 128}), "gemm_sm90_ws");
  EXPECT_EQ(served(false, true, {65, 512, 128}), "gemm_sm90_ws");
  EXPECT_EQ(served(false, true, {32, 512, 128}), "gemm_skinny_cuda");
  EXPECT_EQ(served(false, true, {33, 512, 128}), "gemm_sm90_ws");
  EXPECT_EQ(served(false, false, {1, 512, 128}), "gemm_sm90_ws");
  EXPECT_EQ(served(true, true, {16, 512, 128}), "gemm_sm90_ws");
  EXPECT_EQ(served(false, true, {64, 512, 100}), "gemm_tiled_cuda");   // k % 8 != 0
  EXPECT_EQ(served(false, false, {64, 100, 128}), "gemm_tiled_cuda");  // ldb = n = 100
}

// Linear layers over 64 to 128 tokens are weight streams: narrow tiles fill the SMs without
// splitting K. Odd tile counts and ragged M and N check the edges of those tiles.
TEST_P(CudaTensorCoreGemm, NarrowTilesForWeightStreams) {
  TILEOPS_REQUIRE_CUDA();
  GemmFwdOp op;  // a [m, k] times a weight [n, k]
  auto tile_for = [&](Mnk s) {
    EXPECT_TRUE(cuda_matches_reference(op, {a_shape(false, s), b_shape(true, s)}, GetParam()))
        << s.m << "x" << s.n << "x" << s.k;
    EXPECT_EQ(op.last_call()->served_by, "gemm_sm90_ws");
    return op.kernel_config();
  };
  const std::string m64 = tile_for({64, 4096, 7168}), m128 = tile_for({128, 4096, 7168});
  for (Mnk s : {Mnk{77, 1000, 1000}, Mnk{100, 4000, 520}, Mnk{65, 33, 4104}, Mnk{96, 4104, 64}}) {
    tile_for(s);
  }
  // The choices measured on the H200 (132 SMs); other devices may choose otherwise.
  if (read_device_facts(Device::cuda(0)).sm_count == 132) {
    EXPECT_EQ(m64, "tile=64x32x128/s8");
    EXPECT_EQ(m128, "tile=64x64x128/s6");
  }
}

// Shapes whose tiles leave most SMs idle run split-K through the workspace the op allocates.
TEST_P(CudaTensorCoreGemm, SplitKForFewTiles) {
  TILEOPS_REQUIRE_CUDA();
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      GemmFwdOp op({.trans_a = ta, .trans_b = tb});
      // Few enough tiles that even the narrowest tile shape of a layout leaves most SMs idle.
      for (Mnk s : {Mnk{64, 1024, 4096}, Mnk{200, 136, 3000}, Mnk{128, 528, 2048}}) {
        EXPECT_TRUE(cuda_matches_reference(op, {a_shape(ta, s), b_shape(tb, s)}, GetParam()));
        EXPECT_EQ(op.last_call()->served_by, "gemm_sm90_ws");
        EXPECT_NE(op.kernel_config().find("split_k="), std::string::npos) << op.kernel_config();
      }
    }
  }
}

// Split-K over 5 or more splits reduces in parallel by default (every split of a tile sums and
// stores a share of its columns, on a cooperative launch); fewer splits, or
// TILEOPS_GEMM_SPLIT_REDUCE=serial, have the last split sum the tile alone. Both sum every element
// from zero in split order, so their outputs must agree bit for bit, and both must match the
// reference. Shares are uneven where the splits do not divide a tile's column groups (7 splits of
// 16), ragged M and N leave some shares past the edge, and 128-row tiles reduce two consumers.
TEST_P(CudaTensorCoreGemm, SplitKReductionsAgreeBitForBit) {
  TILEOPS_REQUIRE_CUDA();
  testing::ScopedEnv tile_kernel("TILEOPS_GEMM_SWAP", "0");
  int parallel_calls = 0;
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      for (Mnk s : {Mnk{128, 1024, 7168}, Mnk{72, 1000, 7168}, Mnk{128, 1024, 14336},
                    Mnk{200, 136, 3000}}) {
        const std::string what =
            fmt::format("{}x{}x{} trans_a={} trans_b={}", s.m, s.n, s.k, ta, tb);
        GemmFwdOp by_all({.trans_a = ta, .trans_b = tb});
        EXPECT_TRUE(cuda_matches_reference(by_all, {a_shape(ta, s), b_shape(tb, s)}, GetParam()))
            << what;
        const std::string config = by_all.kernel_config();
        const size_t at = config.find("split_k=");
        ASSERT_NE(at, std::string::npos) << what << ": " << config;
        const bool parallel = std::stoi(config.substr(at + 8)) >= 5;
        EXPECT_NE(config.find(parallel ? "reduce=parallel" : "reduce=serial"), std::string::npos)
            << what << ": " << config;
        parallel_calls += parallel;
        const uint64_t seed = testing::fresh_seed();
        const Tensor a = testing::device_copy(random_tensor(a_shape(ta, s), GetParam(), seed));
        const Tensor b = testing::device_copy(random_tensor(b_shape(tb, s), GetParam(), seed + 1));
        Tensor d_all = Tensor::empty({s.m, s.n}, GetParam(), Device::cuda(0));
        Tensor d_last = Tensor::empty({s.m, s.n}, GetParam(), Device::cuda(0));
        cuda::fill_bytes(d_all, 0xff);
        cuda::fill_bytes(d_last, 0xff);
        by_all.call_into(std::vector<Tensor>{a, b}, std::vector<Tensor>{d_all});
        testing::ScopedEnv serial("TILEOPS_GEMM_SPLIT_REDUCE", "serial");
        GemmFwdOp by_last({.trans_a = ta, .trans_b = tb});
        by_last.call_into(std::vector<Tensor>{a, b}, std::vector<Tensor>{d_last});
        ASSERT_NE(by_last.kernel_config().find("reduce=serial"), std::string::npos)
            << what << ": " << by_last.kernel_config();
        const Tensor x = testing::host_copy(d_all), y = testing::host_copy(d_last);
        const auto* xe = static_cast<const uint16_t*>(x.data());
        const auto* ye = static_cast<const uint16_t*>(y.data());
        int64_t differ = 0, first = -1;
        for (int64_t i = 0; i < x.numel(); ++i) {
          if (xe[i] != ye[i] && first < 0) first = i;
          differ += xe[i] != ye[i];
        }
        EXPECT_EQ(differ, 0) << what << ", seed " << seed << ": first at row " << first / s.n
                             << ", column " << first % s.n;
      }
    }
  }
  EXPECT_GT(parallel_calls, 0) << "no call split K 5 ways or more";
}

// Runs a [m, k] times b [n, k]^T with every row of one operand (0: a, 1: b) before its last
// `kept_rows` (rounded: the rows from the last multiple of kept_rows on) NaN, and checks the
// output rows (a) or columns (b) of the rows kept against the reference over those rows alone.
::testing::AssertionResult stale_rows_stay_out(Mnk s, DType dtype, int operand,
                                               const std::string& kernel, int64_t kept_rows = 128) {
  GemmFwdOp op({.trans_b = true});
  const uint64_t seed = testing::fresh_seed();
  std::vector<Tensor> in =
      make_inputs(op.name(), op.schema(), {a_shape(false, s), b_shape(true, s)}, dtype, seed);
  const int64_t rows = operand == 0 ? s.m : s.n;
  const int64_t first_kept = (rows - 1) / kept_rows * kept_rows, kept = rows - first_kept;
  std::memset(in[operand].data(), 0xff, static_cast<size_t>(first_kept * s.k) * dtype_size(dtype));
  Tensor out = Tensor::empty({s.m, s.n}, dtype, Device::cuda(0));
  cuda::fill_bytes(out, 0xff);
  op.call_into(std::vector<Tensor>{testing::device_copy(in[0]), testing::device_copy(in[1])},
               std::vector<Tensor>{out});
  const std::string what =
      fmt::format("{}x{}x{} {}, NaN rows of {} before {}, seed {}", s.m, s.n, s.k,
                  op.kernel_config(), operand == 0 ? "a" : "b", first_kept, seed);
  if (op.last_call()->served_by != kernel) {
    return ::testing::AssertionFailure() << what << ": served by " << op.last_call()->served_by;
  }
  std::vector<Tensor> kept_in = in;
  kept_in[operand] = in[operand].as_strided({kept, s.k}, {s.k, 1}, first_kept * s.k).contiguous();
  const ReferenceResult want = find_reference(op.name())->compute(op.param_values(), kept_in);
  const Tensor all = testing::host_copy(out);
  const Tensor got = operand == 0 ? all.as_strided({kept, s.n}, {s.n, 1}, first_kept * s.n)
                                  : all.as_strided({s.m, kept}, {s.n, 1}, first_kept);
  const Comparison c =
      compare(got.contiguous(), want.outputs.at(0), default_tolerance(dtype, want.tolerance_scale));
  if (c.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << what << ": " << c.str();
}

// The tiles over an operand's last rows load only those rows (gemm_sm90_ws.cu's tail boxes); the
// rest of their stages keeps what earlier tiles, or nothing, left there. With every earlier row
// of that operand NaN, a stale row reaching the kept rows' output would show. Enough tiles that
// blocks walk several, reusing stages.
TEST_P(CudaTensorCoreGemm, LastTilesReadOnlyTheirRows) {
  TILEOPS_REQUIRE_CUDA();
  for (const Mnk s : {Mnk{1000, 4096, 136}, Mnk{200, 8192, 1000}, Mnk{65, 4096, 7168}}) {
    EXPECT_TRUE(stale_rows_stay_out(s, GetParam(), 0, "gemm_sm90_ws"));
  }
  for (const Mnk s : {Mnk{4096, 1000, 136}, Mnk{512, 4000, 1000}, Mnk{256, 2112, 7168}}) {
    EXPECT_TRUE(stale_rows_stay_out(s, GetParam(), 1, "gemm_sm90_ws"));
  }
  // The swapped kernel: its last tile of weight rows (b) and its token tile over fewer tokens.
  testing::ScopedEnv always("TILEOPS_GEMM_SWAP", "always");
  for (const Mnk s : {Mnk{40, 2112, 7168}, Mnk{80, 1000, 4104}, Mnk{5, 4000, 1024}}) {
    EXPECT_TRUE(stale_rows_stay_out(s, GetParam(), 1, "gemm_swap_sm90"));
  }
  // Token tiles of 64 forced over 100 tokens: the second holds 36, after NaN tokens in the
  // first; 64-row weight tiles unsplit make several tiles a block, so stages are reused.
  testing::ScopedEnv cut("TILEOPS_GEMM_SWAP_PLAN", "64x1t64");
  EXPECT_TRUE(stale_rows_stay_out(Mnk{100, 16384, 1024}, GetParam(), 0, "gemm_swap_sm90", 64));
}

// Split-K under a CUDA graph: the workspace and the counter reset are captured with the GEMM.
TEST_P(CudaTensorCoreGemm, SplitKReplaysUnderAGraph) {
  TILEOPS_REQUIRE_CUDA();
  GemmFwdOp op;
  const Tensor a = testing::device_copy(random_tensor({96, 2048}, GetParam(), 11));
  const Tensor b = testing::device_copy(random_tensor({768, 2048}, GetParam(), 12));
  Tensor eager = Tensor::empty({96, 768}, GetParam(), Device::cuda(0));
  op.call_into(std::vector<Tensor>{a, b}, std::vector<Tensor>{eager});
  ASSERT_NE(op.kernel_config().find("split_k="), std::string::npos) << op.kernel_config();
  Tensor replayed = Tensor::empty({96, 768}, GetParam(), Device::cuda(0));
  cuda::fill_bytes(replayed, 0xff);
  cuda::synchronize(0);
  cuda::StreamHandle stream = cuda::create_stream(0);
  {
    cuda::StreamGuard guard(0, stream);
    cuda::Graph graph(0, stream);
    op.call_into(std::vector<Tensor>{a, b}, std::vector<Tensor>{replayed});
    graph.end_capture();
    graph.replay();
    graph.replay();  // the counters must be zeroed again for the second replay
    // While `stream` is current: it is non-blocking, so a synchronize of the legacy default
    // stream after the guard would not wait for the replays, and the copy below could read the
    // output before they write it (every element still poisoned, as one H100 run saw).
    cuda::synchronize(0);
  }
  const Tensor x = testing::host_copy(eager), y = testing::host_copy(replayed);
  const auto* xe = static_cast<const uint16_t*>(x.data());
  const auto* ye = static_cast<const uint16_t*>(y.data());
  int64_t differ = 0, poisoned_eager = 0, poisoned_replay = 0, first = -1;
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (xe[i] != ye[i] && first < 0) first = i;
    differ += xe[i] != ye[i];
    poisoned_eager += xe[i] == 0xffff;
    poisoned_replay += ye[i] == 0xffff;
  }
  EXPECT_EQ(differ, 0) << "first at " << first << " (row " << first / 768 << ", col " << first % 768
                       << "): eager bits " << (first >= 0 ? xe[first] : 0) << ", replay bits "
                       << (first >= 0 ? ye[first] : 0) << "; unwritten: eager " << poisoned_eager
                       << ", replay " << poisoned_replay;
}

INSTANTIATE_TEST_SUITE_P(Dtypes, CudaTensorCoreGemm,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

}  // namespace
}  // namespace tileops
