// Which CUDA implementation of the row norms dispatch picks, from the call spec and an H200's
// facts alone (no GPU needed): rows of up to 128 packs of 16 bytes take a group of lanes a row,
// longer rows one block a row, few long rows a cluster or the grid a row, and the refusal names
// the limit.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "support/scoped_state.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/framework/dispatch_trace.hpp"
#include "tileops/ops/normalization/fused_add_rms_norm_fwd_op.hpp"
#include "tileops/ops/normalization/layer_norm_fwd_op.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"

namespace tileops {
namespace {

using testing::ScopedDeviceFacts;

const DeviceFacts kH200{90, 132, "h200", 232448};

class RMSNormSelection final : public gen::RMSNormFwdOpBase {
 public:
  RMSNormSelection() : RMSNormFwdOpBase({.normalized_shape = {8}}, RMSNormFwdOp::decl(), {}) {}
  std::string key(const RMSNormCall& call) const { return key_for<RMSNormKernel>(call); }

 private:
  void forward(const Tensor&, const Tensor&, Tensor&) override {}
};
class LayerNormSelection final : public gen::LayerNormFwdOpBase {
 public:
  LayerNormSelection()
      : LayerNormFwdOpBase({.normalized_shape = {8}}, LayerNormFwdOp::decl(), {}) {}
  std::string key(const LayerNormCall& call) const { return key_for<LayerNormKernel>(call); }

 private:
  void forward(const Tensor&, const Tensor&, const Tensor&, Tensor&) override {}
};
class FusedAddRMSNormSelection final : public gen::FusedAddRMSNormFwdOpBase {
 public:
  FusedAddRMSNormSelection() : FusedAddRMSNormFwdOpBase({}, FusedAddRMSNormFwdOp::decl(), {}) {}
  std::string key(const FusedAddRMSNormCall& call) const {
    return key_for<FusedAddRMSNormKernel>(call);
  }

 private:
  void forward(const Tensor&, const Tensor&, const Tensor&, Tensor&, Tensor&) override {}
};

template <typename Call>
Call call_of(DType dtype, int64_t rows, int64_t n) {
  Call c;
  c.device = Device::cuda(0);
  c.dtype = dtype;
  c.rows = rows;
  c.n = n;
  c.eps = 1e-6;
  return c;
}

template <typename Selection, typename Call>
std::pair<std::string, std::map<std::string, std::string>> decide(const Call& call) {
  Selection op;
  DispatchTrace trace;
  std::pair<std::string, std::map<std::string, std::string>> d{op.key(call), {}};
  for (const auto& [k, why] : trace.decisions().back().dropped) d.second[k] = why;
  return d;
}

TEST(RowDispatch, RowsOfUpTo128PacksTakeAGroupOfLanesARow) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  for (int64_t n : {1, 7, 32, 100, 1000, 1024}) {
    for (int64_t rows : {1, 65536}) {
      EXPECT_EQ(decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kBFloat16, rows, n)).first,
                "rms_norm_warp_rows_cuda")
          << rows << "x" << n;
      EXPECT_EQ(decide<LayerNormSelection>(call_of<LayerNormCall>(DType::kFloat16, rows, n)).first,
                "layer_norm_warp_rows_cuda");
      EXPECT_EQ(
          decide<FusedAddRMSNormSelection>(call_of<FusedAddRMSNormCall>(DType::kBFloat16, rows, n))
              .first,
          "fused_add_rms_norm_warp_rows_cuda");
    }
  }
  // float32: 128 packs are 512 elements.
  EXPECT_EQ(decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kFloat32, 8, 512)).first,
            "rms_norm_warp_rows_cuda");
}

TEST(RowDispatch, LongerRowsTakeOneBlockARowAndTheRefusalSaysWhy) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  const auto d = decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kBFloat16, 2048, 1025));
  EXPECT_EQ(d.first, "rms_norm_cuda");
  EXPECT_EQ(d.second.at("rms_norm_warp_rows_cuda"),
            "refused: rows of 1025 elements are longer than 1024 (128 packs of 16 bytes): one "
            "block a row");
  EXPECT_EQ(decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kFloat32, 8, 513)).first,
            "rms_norm_cuda");
  EXPECT_EQ(decide<LayerNormSelection>(call_of<LayerNormCall>(DType::kBFloat16, 1, 4096)).first,
            "layer_norm_cuda");
  EXPECT_EQ(
      decide<FusedAddRMSNormSelection>(call_of<FusedAddRMSNormCall>(DType::kBFloat16, 2048, 4097))
          .first,
      "fused_add_rms_norm_cuda");
}

// A cluster of 8 blocks a row, a block an SM, clusters inside a GPC: 8 rows a wave on 132 SMs.
// Past a wave, past a cluster's registers, or before Hopper, few rows of 65536 or more take the
// grid a row; shorter rows one block a row.
TEST(RowDispatch, FewLongRowsTakeAClusterWhileOneWaveHoldsThem) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  for (int64_t n : {16392, 50257, 262144}) {
    for (int64_t rows : {1, 8}) {
      const auto d = decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kBFloat16, rows, n));
      EXPECT_EQ(d.first, "rms_norm_cluster_cuda") << rows << "x" << n;
      if (n >= 65536) {
        EXPECT_EQ(d.second.at("rms_norm_grid_cuda"),
                  "outranked by rms_norm_cluster_cuda (preferred_over)");
      }
      EXPECT_EQ(decide<LayerNormSelection>(call_of<LayerNormCall>(DType::kBFloat16, rows, n)).first,
                "layer_norm_cluster_cuda");
      EXPECT_EQ(
          decide<FusedAddRMSNormSelection>(call_of<FusedAddRMSNormCall>(DType::kFloat16, rows, n))
              .first,
          "fused_add_rms_norm_cluster_cuda");
    }
  }
  for (int64_t n : {65536, 100000, 262144}) {
    for (int64_t rows : {9, 64, 131}) {
      const auto d = decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kBFloat16, rows, n));
      EXPECT_EQ(d.first, "rms_norm_grid_cuda") << rows << "x" << n;
      EXPECT_EQ(d.second.at("rms_norm_cluster_cuda"),
                fmt::format("refused: {} rows need more clusters than the 8 that run at once on "
                            "132 SMs (a cluster of 8 blocks a row, a block an SM, clusters inside "
                            "a GPC)",
                            rows));
      EXPECT_EQ(d.second.at("rms_norm_cuda"),
                "general: ranks below every specialised implementation")
          << d.second.at("rms_norm_cuda");
      EXPECT_EQ(decide<LayerNormSelection>(call_of<LayerNormCall>(DType::kBFloat16, rows, n)).first,
                "layer_norm_grid_cuda");
      EXPECT_EQ(
          decide<FusedAddRMSNormSelection>(call_of<FusedAddRMSNormCall>(DType::kFloat16, rows, n))
              .first,
          "fused_add_rms_norm_grid_cuda");
    }
  }
  const auto mid = decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kBFloat16, 64, 65535));
  EXPECT_EQ(mid.first, "rms_norm_cuda");
  EXPECT_EQ(mid.second.at("rms_norm_grid_cuda"),
            "refused: rows of 65535 elements are shorter than 65536: one block a row walks them "
            "faster");
  const auto many = decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kBFloat16, 132, 65536));
  EXPECT_EQ(many.first, "rms_norm_cuda");
  for (const char* key : {"rms_norm_cluster_cuda", "rms_norm_grid_cuda"}) {
    EXPECT_EQ(many.second.at(key),
              "refused: rows are not few and long (132 rows of 65536; needs fewer rows than the "
              "132 SMs and at least 16384 elements a row)");
  }
  const auto huge = decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kFloat32, 1, 131073));
  EXPECT_EQ(huge.first, "rms_norm_grid_cuda");
  EXPECT_EQ(huge.second.at("rms_norm_cluster_cuda"),
            "refused: a row of 131073 elements does not fit a cluster's registers (at most "
            "131072)");
  EXPECT_EQ(decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kBFloat16, 1, 16383)).first,
            "rms_norm_cuda");
  // Before Hopper there are no clusters; cooperative launches need none.
  ScopedDeviceFacts a100(kCUDA, DeviceFacts{80, 108, "", 166912});
  EXPECT_EQ(decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kBFloat16, 1, 262144)).first,
            "rms_norm_grid_cuda");
  EXPECT_EQ(decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kBFloat16, 1, 65535)).first,
            "rms_norm_cuda");
}

// A row of whole packs that one block holds in registers (two packs a thread, 2048 packs: 16384
// bf16 or fp16 elements) stays on the block kernel however few the rows; a pack more, or the
// same width in float32 (4096 packs), goes to the clusters.
TEST(RowDispatch, RowsABlockHoldsInRegistersStayOffTheClusters) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  for (DType dtype : {DType::kBFloat16, DType::kFloat16}) {
    const auto held = decide<RMSNormSelection>(call_of<RMSNormCall>(dtype, 1, 16384));
    EXPECT_EQ(held.first, "rms_norm_cuda");
    EXPECT_EQ(held.second.at("rms_norm_cluster_cuda"),
              "refused: a row of 16384 elements is 2048 whole packs (at most 2048): one block a "
              "row holds it in registers");
    EXPECT_EQ(decide<LayerNormSelection>(call_of<LayerNormCall>(dtype, 4, 16384)).first,
              "layer_norm_cuda");
    EXPECT_EQ(decide<FusedAddRMSNormSelection>(call_of<FusedAddRMSNormCall>(dtype, 8, 16384)).first,
              "fused_add_rms_norm_cuda");
    EXPECT_EQ(decide<RMSNormSelection>(call_of<RMSNormCall>(dtype, 1, 16392)).first,
              "rms_norm_cluster_cuda");
    EXPECT_EQ(decide<RMSNormSelection>(call_of<RMSNormCall>(dtype, 1, 16385)).first,
              "rms_norm_cluster_cuda");
  }
  EXPECT_EQ(decide<RMSNormSelection>(call_of<RMSNormCall>(DType::kFloat32, 1, 16384)).first,
            "rms_norm_cluster_cuda");
}

}  // namespace
}  // namespace tileops
