// LayerNorm, FusedAddRMSNorm, BatchNorm, Softmax, LogSoftmax and the gated MLP on CUDA against
// the float64 reference (skipped without a GPU).
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <tuple>

#include "support/cuda_support.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/ops/normalization/batch_norm_fwd_op.hpp"
#include "tileops/ops/normalization/fused_add_rms_norm_fwd_op.hpp"
#include "tileops/ops/normalization/layer_norm_fwd_op.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"
#include "tileops/ops/reduction/log_softmax_fwd_op.hpp"
#include "tileops/ops/reduction/softmax_fwd_op.hpp"

namespace tileops {
namespace {

using testing::cuda_matches_reference;

class CudaNorms : public ::testing::TestWithParam<DType> {};

TEST_P(CudaNorms, LayerNorm) {
  TILEOPS_REQUIRE_CUDA();
  for (int64_t n : {4096, 4104, 16384, 1003}) {
    LayerNormFwdOp op({.normalized_shape = {n}});
    for (int64_t rows : {1, 37}) {
      EXPECT_TRUE(cuda_matches_reference(op, {Shape{rows, n}, Shape{n}, Shape{n}}, GetParam()));
    }
  }
  LayerNormFwdOp op({.normalized_shape = {4096}});
  EXPECT_TRUE(
      cuda_matches_reference(op, {Shape{3, 4096}, Shape{4096}, Shape{4096}}, GetParam(), true));
}

// The kernel_config() suffix of a block-a-row call over a row of n elements of dtype: a
// register-row variant of 1 pack a thread for whole 16-byte packs up to 1024, of 2 up to 2048,
// else none (register_row_packs; the calls here have fewer rows than SMs and aligned tensors).
std::string register_row_suffix(DType dtype, int64_t n) {
  const int64_t vec = 16 / static_cast<int64_t>(dtype_size(dtype));
  if (n % vec != 0 || n / vec > 2048) return "";
  return n / vec <= 1024 ? ",register_row=1" : ",register_row=2";
}

// Whether config (a row kernel's kernel_config()) names the variant expected_suffix names.
::testing::AssertionResult takes_expected_variant(const std::string& config,
                                                  const std::string& expected_suffix) {
  const bool register_row = config.find(",register_row=") != std::string::npos;
  if (expected_suffix.empty() ? !register_row : config.ends_with(expected_suffix)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << config << " (expected "
         << (expected_suffix.empty() ? "no register row" : expected_suffix) << ")";
}

// Rows far from zero against their spread: a variance taken as E[x^2] - E[x]^2 in float loses it
// to cancellation; the centred one keeps it, to the float32 rounding of the mean (which is why
// the centre is 16 in float32, where the tolerance is 1e-5; 1000 in float16, whose spacing there
// is 0.5; 256 +- 4 in bfloat16, whose spacing there is 2). The widths give the register-row
// variants with every thread busy (2048 and 4096 in float32, 4096 and 8192 in 16-bit types, one
// pack a thread; 8192 in float32 and 16384 in 16-bit types, two), with idle threads (2000, 4000,
// 4104; 8200, 12000, 12288), and the generic kernel (16392 past two packs of a block of 1024;
// 1003, off the pack; float32 rows past 8192).
TEST_P(CudaNorms, LayerNormKeepsTheVarianceOfRowsFarFromZero) {
  TILEOPS_REQUIRE_CUDA();
  const DType dtype = GetParam();
  const double centre = dtype == DType::kFloat32 ? 16.0 : dtype == DType::kFloat16 ? 1000.0 : 256.0;
  const double spread = dtype == DType::kBFloat16 ? 4.0 : 1.0;
  const testing::InputEdit far_from_zero = [&](std::vector<Tensor>& inputs, uint64_t seed) {
    inputs[0] = random_tensor(inputs[0].shape(), inputs[0].dtype(), seed ^ 0x5eedu, centre - spread,
                              centre + spread);
  };
  for (int64_t n : {2000, 2048, 4000, 4096, 4104, 8192, 8200, 12000, 12288, 16384, 16392, 1003}) {
    LayerNormFwdOp op({.normalized_shape = {n}});
    for (int64_t rows : {1, 37}) {
      EXPECT_TRUE(
          cuda_matches_reference(op, {Shape{rows, n}, Shape{n}, Shape{n}}, dtype, far_from_zero));
      if (op.last_call()->served_by == "layer_norm_cuda") {
        EXPECT_TRUE(takes_expected_variant(op.kernel_config(), register_row_suffix(dtype, n)))
            << rows << "x" << n;
      }
    }
  }
}

// Every block-a-row kernel runs a register-row variant on a decode row of whole packs up to two
// packs a thread of a block, and its generic kernel on a misaligned call and on a wave of rows
// or more: rows of 4096 (one pack a thread), 12288 (two: a block of 768 in 16-bit types; in
// float32 past 8192, the generic kernel) and 16384 (two packs of a block of 1024 in 16-bit types,
// kept off the clusters; float32 rows of 16384 take the clusters).
TEST_P(CudaNorms, DecodeRowsTakeTheRegisterRowVariant) {
  TILEOPS_REQUIRE_CUDA();
  const DType dtype = GetParam();
  const int64_t many = 4 * read_device_facts(Device::cuda(0)).sm_count;
  for (int64_t n : {4096, 12288, 16384}) {
    RMSNormFwdOp rms({.normalized_shape = {n}});
    LayerNormFwdOp ln({.normalized_shape = {n}});
    FusedAddRMSNormFwdOp fused;
    SoftmaxFwdOp soft({.dim = -1});
    LogSoftmaxFwdOp log_soft({.dim = -1});
    struct Case {
      int64_t rows;
      bool misaligned, register_row;
    };
    for (const Case& c : {Case{1, false, true}, Case{7, false, true}, Case{1, true, false},
                          Case{many, false, false}}) {
      const Shape x{c.rows, n}, w{n};
      EXPECT_TRUE(cuda_matches_reference(rms, {x, w}, dtype, c.misaligned));
      EXPECT_TRUE(cuda_matches_reference(ln, {x, w, w}, dtype, c.misaligned));
      EXPECT_TRUE(cuda_matches_reference(fused, {x, x, w}, dtype, c.misaligned));
      EXPECT_TRUE(cuda_matches_reference(soft, {x}, dtype, c.misaligned));
      EXPECT_TRUE(cuda_matches_reference(log_soft, {x}, dtype, c.misaligned));
      const std::string expected = c.register_row ? register_row_suffix(dtype, n) : "";
      for (Op* op : std::initializer_list<Op*>{&rms, &ln, &fused, &soft, &log_soft}) {
        EXPECT_TRUE(takes_expected_variant(op->kernel_config(), expected))
            << op->name() << " " << x.str() << (c.misaligned ? " misaligned" : "");
      }
    }
  }
}

TEST_P(CudaNorms, FusedAddRMSNorm) {
  TILEOPS_REQUIRE_CUDA();
  FusedAddRMSNormFwdOp op;
  for (const Shape& x : {Shape{1, 4096}, Shape{3, 4104}, Shape{2048, 8192}, Shape{5, 1003}}) {
    EXPECT_TRUE(cuda_matches_reference(op, {x, x, Shape{x[1]}}, GetParam()));
  }
  EXPECT_TRUE(
      cuda_matches_reference(op, {Shape{4, 4096}, Shape{4, 4096}, Shape{4096}}, GetParam(), true));
}

TEST_P(CudaNorms, BatchNormTrainingPicksByShapeAndUpdatesRunningStats) {
  TILEOPS_REQUIRE_CUDA();
  struct Case {
    Shape x;
    bool affine;
    const char* expected;
  };
  for (const Case& c : {Case{{32, 64}, true, "batch_norm_train_cuda_rows"},
                        Case{{8, 64, 32, 32}, false, "batch_norm_train_cuda_split"},
                        Case{{2, 150, 4, 4}, false, "batch_norm_train_cuda"},
                        Case{{4, 8, 128, 129}, true, "batch_norm_train_cuda_split"},
                        Case{{3, 200, 7, 5}, true, "batch_norm_train_cuda"}}) {
    BatchNormFwdOp op({.training = true, .momentum = 0.25});
    const int64_t ch = c.x[1];
    std::vector<std::optional<Shape>> shapes{c.x, Shape{ch}, Shape{ch}};
    shapes.push_back(c.affine ? std::optional<Shape>(Shape{ch}) : std::nullopt);
    shapes.push_back(c.affine ? std::optional<Shape>(Shape{ch}) : std::nullopt);
    EXPECT_TRUE(cuda_matches_reference(op, shapes, GetParam()));
    EXPECT_EQ(op.last_call()->served_by, c.expected) << c.x.str();
  }
}

TEST_P(CudaNorms, BatchNormInference) {
  TILEOPS_REQUIRE_CUDA();
  BatchNormFwdOp op({.training = false});
  EXPECT_TRUE(cuda_matches_reference(
      op, {Shape{4, 256, 28, 28}, Shape{256}, Shape{256}, Shape{256}, Shape{256}}, GetParam()));
  EXPECT_TRUE(cuda_matches_reference(
      op, {Shape{2, 3, 5}, Shape{3}, Shape{3}, std::nullopt, std::nullopt}, GetParam()));
}

TEST_P(CudaNorms, SoftmaxRowsAndOtherDims) {
  TILEOPS_REQUIRE_CUDA();
  for (int64_t dim : {-1, 1, 0}) {
    SoftmaxFwdOp soft({.dim = dim});
    LogSoftmaxFwdOp log_soft({.dim = dim});
    for (const Shape& x :
         {Shape{4, 102400}, Shape{3, 20011}, Shape{3, 7, 1}, Shape{1, 1}, Shape{33, 4096}}) {
      EXPECT_TRUE(cuda_matches_reference(soft, {x}, GetParam()));
      EXPECT_TRUE(cuda_matches_reference(log_soft, {x}, GetParam()));
    }
  }
  SoftmaxFwdOp last({.dim = -1});
  EXPECT_TRUE(cuda_matches_reference(last, {Shape{32, 32, 4096}}, GetParam(), true));
  // Few long rows: [2, 300000] and [4, 102400] off the pack spread each row over the SMs in one
  // cooperative launch (softmax_grid_cuda).
  EXPECT_TRUE(cuda_matches_reference(last, {Shape{2, 300000}}, GetParam()));
  EXPECT_TRUE(cuda_matches_reference(last, {Shape{4, 102400}}, GetParam(), true));
  LogSoftmaxFwdOp log_last({.dim = -1});
  EXPECT_TRUE(cuda_matches_reference(log_last, {Shape{2, 300000}}, GetParam()));
}

// Decode rows of the register-row variants take register_row_softmax (each thread's
// exponentials kept against its own max, rescaled after the reduction): one pack a thread with
// every thread busy at 2048 and 4096 in float32 and 4096 and 8192 in 16-bit types, idle threads
// at 2000 and 4000; two packs a thread at 8200 and 12288 in 16-bit types and 8192 in float32
// (the generic kernel for float32 past it). Values over [-40, 40] put the threads' maxima far
// apart; 16 elements at -inf from the start of each row and from its middle pack leave a thread
// (two in float32) with no finite value where a thread's two packs are half a row apart (12288
// in 16-bit types, 8192 in float32), and a thread with one infinite pack elsewhere.
TEST_P(CudaNorms, SoftmaxDecodeRowsHeldInRegisters) {
  TILEOPS_REQUIRE_CUDA();
  const testing::InputEdit spread = [](std::vector<Tensor>& inputs, uint64_t seed) {
    inputs[0] = random_tensor(inputs[0].shape(), inputs[0].dtype(), seed ^ 0x5eedu, -40.0, 40.0);
  };
  const testing::InputEdit minus_inf_head = [&](std::vector<Tensor>& inputs, uint64_t seed) {
    spread(inputs, seed);
    Tensor& x = inputs[0];
    const int64_t n = x.size(-1);
    const int64_t middle = n / 2 - (n / 2) % 8;
    for (int64_t r = 0; r < x.numel() / n; ++r) {
      for (int64_t start : {int64_t{0}, middle}) {
        for (int64_t j = start; j < start + 16; ++j) {
          const int64_t at = r * n + j;
          if (x.dtype() == DType::kFloat32) {
            x.data_as<float>()[at] = -std::numeric_limits<float>::infinity();
          } else {
            x.data_as<uint16_t>()[at] = x.dtype() == DType::kBFloat16 ? 0xff80u : 0xfc00u;
          }
        }
      }
    }
  };
  for (int64_t n : {2000, 2048, 4000, 4096, 8192, 8200, 12288}) {
    for (int64_t rows : {1, 37}) {
      SoftmaxFwdOp soft({.dim = -1});
      LogSoftmaxFwdOp log_soft({.dim = -1});
      const Shape x{rows, n};
      EXPECT_TRUE(cuda_matches_reference(soft, {x}, GetParam()));
      EXPECT_EQ(soft.last_call()->served_by, "softmax_rows_cuda") << x.str();
      EXPECT_TRUE(takes_expected_variant(soft.kernel_config(), register_row_suffix(GetParam(), n)))
          << x.str();
      EXPECT_TRUE(cuda_matches_reference(log_soft, {x}, GetParam()));
      EXPECT_TRUE(cuda_matches_reference(soft, {x}, GetParam(), spread));
      EXPECT_TRUE(cuda_matches_reference(log_soft, {x}, GetParam(), spread));
      EXPECT_TRUE(cuda_matches_reference(soft, {x}, GetParam(), minus_inf_head));
      EXPECT_TRUE(cuda_matches_reference(log_soft, {x}, GetParam(), minus_inf_head));
    }
  }
}

// Each softmax variant serves the calls dispatch gives it (test_softmax_dispatch.cpp checks the
// choice without a GPU; this checks the variant's result on one), the grid one through the
// workspace the op allocates.
TEST_P(CudaNorms, SoftmaxVariantsServeTheirCalls) {
  TILEOPS_REQUIRE_CUDA();
  const bool hopper = read_device_facts(Device::cuda(0)).arch >= 90;
  struct Case {
    Shape x;
    int64_t dim;
    bool misaligned;
    std::string variant;
  };
  for (const Case& c :
       {Case{{4, 102400}, -1, false, hopper ? "cluster" : "grid"},
        Case{{8, 65536}, -1, false, hopper ? "cluster" : "grid"},
        Case{{9, 65536}, -1, false, "grid"},   // a second wave of clusters
        Case{{64, 16384}, -1, false, "rows"},  // past a wave, short for the grid
        Case{{2, 300000}, -1, false, "grid"},  // past a cluster's registers
        Case{{4, 102400}, -1, true, "grid"},   // scalar access: past a cluster's registers
        Case{{100, 65536}, -1, false, "grid"}, Case{{33, 4096}, -1, false, "rows"},
        Case{{3, 20011, 5}, 1, false, "strided"}}) {
    SoftmaxFwdOp soft({.dim = c.dim});
    LogSoftmaxFwdOp log_soft({.dim = c.dim});
    EXPECT_TRUE(cuda_matches_reference(soft, {c.x}, GetParam(), c.misaligned)) << c.x.str();
    EXPECT_EQ(soft.last_call()->served_by, "softmax_" + c.variant + "_cuda") << c.x.str();
    EXPECT_TRUE(cuda_matches_reference(log_soft, {c.x}, GetParam(), c.misaligned)) << c.x.str();
    EXPECT_EQ(log_soft.last_call()->served_by, "log_softmax_" + c.variant + "_cuda") << c.x.str();
  }
}

// Few long rows spread over blocks on every SM, exchanging (max, sum) through the workspace: rows
// past a cluster's registers or more than a wave of clusters, widths off the pack (one element an
// access) and off the blocks' share, and rows longer than the resident blocks keep in registers
// (read again in the second pass).
TEST_P(CudaNorms, FewLongRowsSpreadOverTheGrid) {
  TILEOPS_REQUIRE_CUDA();
  const int sms = read_device_facts(Device::cuda(0)).sm_count;
  for (const auto& [rows, n, misaligned] : {std::tuple<int64_t, int64_t, bool>{1, 300000, false},
                                            {1, 50257, false},
                                            {17, 32768, true},
                                            {20, 131072, false},
                                            {40, 40011, true},
                                            {int64_t{sms} - 1, 32768, false},
                                            {100, 65536, false},
                                            {2, int64_t{1} << 22, false}}) {
    SoftmaxFwdOp soft({.dim = -1});
    LogSoftmaxFwdOp log_soft({.dim = -1});
    const Shape x{rows, n};
    EXPECT_TRUE(cuda_matches_reference(soft, {x}, GetParam(), misaligned)) << x.str();
    EXPECT_EQ(soft.last_call()->served_by, "softmax_grid_cuda") << x.str();
    EXPECT_TRUE(cuda_matches_reference(log_soft, {x}, GetParam(), misaligned)) << x.str();
    EXPECT_EQ(log_soft.last_call()->served_by, "log_softmax_grid_cuda") << x.str();
  }
}

// Rows of up to 128 packs run with a group of lanes a row (1 to 32 lanes, several rows a block);
// widths off the 16-byte pack start each row at another offset from a boundary (RowSpan), rows
// off the pack shorter than four packs move an element an access, and row counts off a block's
// rows leave groups with no row.
TEST_P(CudaNorms, ShortRowsTakeAGroupOfLanesARow) {
  TILEOPS_REQUIRE_CUDA();
  const int64_t limit = GetParam() == DType::kFloat32 ? 512 : 1024;
  for (int64_t n : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{7}, int64_t{16}, int64_t{31},
                    int64_t{32}, int64_t{100}, limit - 1, limit}) {
    for (int64_t rows : {1, 5, 4099}) {
      RMSNormFwdOp rms({.normalized_shape = {n}});
      EXPECT_TRUE(cuda_matches_reference(rms, {Shape{rows, n}, Shape{n}}, GetParam()));
      EXPECT_EQ(rms.last_call()->served_by, "rms_norm_warp_rows_cuda") << rows << "x" << n;
      LayerNormFwdOp ln({.normalized_shape = {n}});
      EXPECT_TRUE(cuda_matches_reference(ln, {Shape{rows, n}, Shape{n}, Shape{n}}, GetParam()));
      EXPECT_EQ(ln.last_call()->served_by, "layer_norm_warp_rows_cuda");
      FusedAddRMSNormFwdOp fused;
      EXPECT_TRUE(
          cuda_matches_reference(fused, {Shape{rows, n}, Shape{rows, n}, Shape{n}}, GetParam()));
      EXPECT_EQ(fused.last_call()->served_by, "fused_add_rms_norm_warp_rows_cuda");
      SoftmaxFwdOp soft({.dim = -1});
      EXPECT_TRUE(cuda_matches_reference(soft, {Shape{rows, n}}, GetParam()));
      EXPECT_EQ(soft.last_call()->served_by, "softmax_warp_rows_cuda");
      LogSoftmaxFwdOp log_soft({.dim = -1});
      EXPECT_TRUE(cuda_matches_reference(log_soft, {Shape{rows, n}}, GetParam()));
      // One lane a row of two elements (an element an access), two a row of seven; a row of 32
      // is four 16-byte packs in 16-bit types and eight in float32, two lanes' either way.
      const bool wide = GetParam() != DType::kFloat32;
      if (n == 2) EXPECT_EQ(soft.kernel_config(), "lanes_per_row=1,vec=1,block=256");
      if (n == 7) EXPECT_EQ(soft.kernel_config(), "lanes_per_row=2,vec=1,block=256");
      if (n == 32) {
        EXPECT_EQ(soft.kernel_config(),
                  wide ? "lanes_per_row=2,vec=8,block=256" : "lanes_per_row=2,vec=4,block=256");
      }
    }
  }
  // Misaligned (every tensor one element off a boundary): one element an access.
  RMSNormFwdOp rms({.normalized_shape = {100}});
  EXPECT_TRUE(cuda_matches_reference(rms, {Shape{300, 100}, Shape{100}}, GetParam(), true));
  SoftmaxFwdOp soft({.dim = -1});
  EXPECT_TRUE(cuda_matches_reference(soft, {Shape{300, 100}}, GetParam(), true));
}

// Rows longer than 128 packs whose width is off the 16-byte pack: one block a row, each row
// moved in 16-byte packs from its first boundary.
TEST_P(CudaNorms, WideRowsOfAnyWidth) {
  TILEOPS_REQUIRE_CUDA();
  for (int64_t n : {4097, 4095, 10007}) {
    for (int64_t rows : {1, 9}) {
      RMSNormFwdOp rms({.normalized_shape = {n}});
      EXPECT_TRUE(cuda_matches_reference(rms, {Shape{rows, n}, Shape{n}}, GetParam()));
      EXPECT_EQ(rms.last_call()->served_by, "rms_norm_cuda");
      LayerNormFwdOp ln({.normalized_shape = {n}});
      EXPECT_TRUE(cuda_matches_reference(ln, {Shape{rows, n}, Shape{n}, Shape{n}}, GetParam()));
      FusedAddRMSNormFwdOp fused;
      EXPECT_TRUE(
          cuda_matches_reference(fused, {Shape{rows, n}, Shape{rows, n}, Shape{n}}, GetParam()));
      SoftmaxFwdOp soft({.dim = -1});
      EXPECT_TRUE(cuda_matches_reference(soft, {Shape{rows * 20, n}}, GetParam()));
    }
  }
}

// Few long rows take a cluster of blocks a row on Hopper (each block a share of the row, their
// sums merged through distributed shared memory): widths off the pack and off the cluster's
// share, up to the most a cluster keeps in registers, and misaligned rows (one element an access).
TEST_P(CudaNorms, FewLongRowsTakeAClusterARow) {
  TILEOPS_REQUIRE_CUDA();
  const bool hopper = read_device_facts(Device::cuda(0)).arch >= 90;
  const int64_t widest = GetParam() == DType::kFloat32 ? 131072 : 262144;
  for (int64_t n : {int64_t{16392}, int64_t{50257}, int64_t{128256}, widest - 3, widest}) {
    for (int64_t rows : {1, 3}) {
      RMSNormFwdOp rms({.normalized_shape = {n}});
      EXPECT_TRUE(cuda_matches_reference(rms, {Shape{rows, n}, Shape{n}}, GetParam()));
      EXPECT_EQ(rms.last_call()->served_by, hopper ? "rms_norm_cluster_cuda" : "rms_norm_cuda")
          << rows << "x" << n;
      LayerNormFwdOp ln({.normalized_shape = {n}});
      EXPECT_TRUE(cuda_matches_reference(ln, {Shape{rows, n}, Shape{n}, Shape{n}}, GetParam()));
      FusedAddRMSNormFwdOp fused;
      EXPECT_TRUE(
          cuda_matches_reference(fused, {Shape{rows, n}, Shape{rows, n}, Shape{n}}, GetParam()));
    }
  }
  RMSNormFwdOp rms({.normalized_shape = {50257}});
  EXPECT_TRUE(cuda_matches_reference(rms, {Shape{2, 50257}, Shape{50257}}, GetParam(), true));
  FusedAddRMSNormFwdOp fused;
  EXPECT_TRUE(cuda_matches_reference(fused, {Shape{2, 50257}, Shape{2, 50257}, Shape{50257}},
                                     GetParam(), true));
}

// The norms' few long rows past a wave of clusters or past a cluster's registers: the grid a row,
// exchanging their sums (LayerNorm's two: the mean, then the centred squares) through the
// workspace; rows off the 16-byte pack, and rows longer than the resident blocks keep in
// registers.
TEST_P(CudaNorms, FewLongRowsOfTheNormsSpreadOverTheGrid) {
  TILEOPS_REQUIRE_CUDA();
  const int sms = read_device_facts(Device::cuda(0)).sm_count;
  for (const auto& [rows, n, misaligned] : {std::tuple<int64_t, int64_t, bool>{17, 65536, false},
                                            {1, 300000, false},
                                            {40, 70001, true},
                                            {int64_t{sms} - 1, 65536, false},
                                            {100, 65536, false},
                                            {2, int64_t{1} << 22, false}}) {
    RMSNormFwdOp rms({.normalized_shape = {n}});
    EXPECT_TRUE(cuda_matches_reference(rms, {Shape{rows, n}, Shape{n}}, GetParam(), misaligned))
        << rows << "x" << n;
    EXPECT_EQ(rms.last_call()->served_by, "rms_norm_grid_cuda") << rows << "x" << n;
    LayerNormFwdOp ln({.normalized_shape = {n}});
    EXPECT_TRUE(
        cuda_matches_reference(ln, {Shape{rows, n}, Shape{n}, Shape{n}}, GetParam(), misaligned))
        << rows << "x" << n;
    EXPECT_EQ(ln.last_call()->served_by, "layer_norm_grid_cuda");
    FusedAddRMSNormFwdOp fused;
    EXPECT_TRUE(cuda_matches_reference(fused, {Shape{rows, n}, Shape{rows, n}, Shape{n}},
                                       GetParam(), misaligned))
        << rows << "x" << n;
    EXPECT_EQ(fused.last_call()->served_by, "fused_add_rms_norm_grid_cuda");
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, CudaNorms,
                         ::testing::Values(DType::kFloat16, DType::kBFloat16, DType::kFloat32),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

}  // namespace
}  // namespace tileops
