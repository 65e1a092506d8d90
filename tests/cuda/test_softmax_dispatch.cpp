// Which CUDA implementation of SoftmaxFwdOp and LogSoftmaxFwdOp dispatch picks, and why it drops
// the others, for representative calls: decided from the call spec and device facts alone, so it
// runs without a GPU (the facts are those of an H200 or an A100, installed for the test).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "support/scoped_state.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/framework/dispatch_trace.hpp"
#include "tileops/ops/reduction/log_softmax_fwd_op.hpp"
#include "tileops/ops/reduction/softmax_fwd_op.hpp"

namespace tileops {
namespace {

using testing::ScopedDeviceFacts;

const DeviceFacts kH200{90, 132, "h200", 232448};
const DeviceFacts kA100{80, 108, "", 166912};

// The ops' own implementation tables, asked which key serves a call (Op::key_for builds nothing).
class SoftmaxSelection final : public gen::SoftmaxFwdOpBase {
 public:
  SoftmaxSelection() : SoftmaxFwdOpBase({}, SoftmaxFwdOp::decl(), {}) {}
  std::string key(const SoftmaxCall& call) const { return key_for<SoftmaxKernel>(call); }

 private:
  void forward(const Tensor&, Tensor&) override {}
};
class LogSoftmaxSelection final : public gen::LogSoftmaxFwdOpBase {
 public:
  LogSoftmaxSelection() : LogSoftmaxFwdOpBase({}, LogSoftmaxFwdOp::decl(), {}) {}
  std::string key(const SoftmaxCall& call) const { return key_for<LogSoftmaxKernel>(call); }

 private:
  void forward(const Tensor&, Tensor&) override {}
};

SoftmaxCall call_of(int64_t outer, int64_t n, int64_t inner, DType dtype = DType::kBFloat16,
                    bool aligned16 = true) {
  SoftmaxCall c;
  c.device = Device::cuda(0);
  c.dtype = dtype;
  c.outer = outer;
  c.n = n;
  c.inner = inner;
  c.aligned16 = aligned16;
  return c;
}

struct Decision {
  std::string winner;
  std::map<std::string, std::string> dropped;  // key -> why
};

Decision decide(const SoftmaxCall& call) {
  SoftmaxSelection op;
  DispatchTrace trace;
  const std::string key = op.key(call);
  EXPECT_EQ(trace.decisions().size(), 1u);
  Decision d{key, {}};
  for (const auto& [k, why] : trace.decisions().back().dropped) d.dropped[k] = why;
  EXPECT_EQ(d.winner, trace.decisions().back().winner);
  return d;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A cluster of 8 blocks a row, clusters inside a GPC: 8 rows a wave on 132 SMs.
TEST(SoftmaxDispatch, FewLongRowsTakeAClusterWhileOneWaveHoldsThem) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  for (int64_t rows : {1, 4, 8}) {
    const Decision d = decide(call_of(rows, 128256, 1));  // an LM head's logits
    EXPECT_EQ(d.winner, "softmax_cluster_cuda") << rows;
    for (const char* key : {"softmax_grid_cuda", "softmax_rows_cuda"}) {
      EXPECT_EQ(d.dropped.at(key), "outranked by softmax_cluster_cuda (preferred_over)") << key;
    }
    EXPECT_TRUE(has(d.dropped.at("softmax_strided_cuda"), "general"))
        << d.dropped.at("softmax_strided_cuda");
    EXPECT_TRUE(has(d.dropped.at("softmax_cpu"), "runs on cpu"));
  }
  const Decision more = decide(call_of(9, 128256, 1));
  EXPECT_EQ(more.winner, "softmax_grid_cuda");
  EXPECT_EQ(more.dropped.at("softmax_cluster_cuda"),
            "refused: 9 rows need more clusters than the 8 that run at once on 132 SMs (a cluster "
            "of 8 blocks a row, clusters inside a GPC)");
  EXPECT_EQ(more.dropped.at("softmax_rows_cuda"),
            "outranked by softmax_grid_cuda (preferred_over)");
  // Rows under 32768 past a wave of clusters: one block a row.
  const Decision mid = decide(call_of(64, 32767, 1));
  EXPECT_EQ(mid.winner, "softmax_rows_cuda");
  EXPECT_EQ(mid.dropped.at("softmax_grid_cuda"),
            "refused: rows of 32767 elements are shorter than 32768: one block a row walks them "
            "faster");
  // Cooperative launches need no cluster: the A100 takes the grid.
  ScopedDeviceFacts a100(kCUDA, kA100);
  EXPECT_EQ(decide(call_of(4, 128256, 1)).winner, "softmax_grid_cuda");
}

// 8 blocks x 512 threads x 8 packs of 16 bytes hold 262144 bf16 (131072 fp32) elements a row;
// rows past that, and rows read an element at a time past an eighth of it, take the grid, which
// has no limit: past the packs its blocks keep in registers, they read again.
TEST(SoftmaxDispatch, RowsPastAClusterTakeTheGrid) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  EXPECT_EQ(decide(call_of(2, 262144, 1)).winner, "softmax_cluster_cuda");
  const Decision longer = decide(call_of(2, 262144 + 8, 1));
  EXPECT_EQ(longer.winner, "softmax_grid_cuda");
  EXPECT_TRUE(has(longer.dropped.at("softmax_cluster_cuda"), "does not fit a cluster's registers"))
      << longer.dropped.at("softmax_cluster_cuda");
  EXPECT_EQ(decide(call_of(2, 131072, 1, DType::kFloat32)).winner, "softmax_cluster_cuda");
  EXPECT_EQ(decide(call_of(2, 131072 + 4, 1, DType::kFloat32)).winner, "softmax_grid_cuda");
  EXPECT_EQ(decide(call_of(2, 32768, 1, DType::kBFloat16, false)).winner, "softmax_cluster_cuda");
  EXPECT_EQ(decide(call_of(2, 32769, 1, DType::kBFloat16, false)).winner, "softmax_grid_cuda");
  EXPECT_EQ(decide(call_of(1, int64_t{1} << 26, 1)).winner, "softmax_grid_cuda");
  EXPECT_EQ(decide(call_of(131, 32768, 1)).winner, "softmax_grid_cuda");
}

TEST(SoftmaxDispatch, ManyOrShortRowsTakeTheRowKernel) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  for (const SoftmaxCall& c : {call_of(4096, 4096, 1), call_of(4, 1025, 1), call_of(132, 128256, 1),
                               call_of(4, 16383, 1, DType::kFloat32)}) {
    const Decision d = decide(c);
    EXPECT_EQ(d.winner, "softmax_rows_cuda") << c.describe();
    for (const char* key : {"softmax_grid_cuda", "softmax_cluster_cuda"}) {
      EXPECT_TRUE(has(d.dropped.at(key), "refused: rows are not few and long"))
          << d.dropped.at(key);
    }
  }
}

// Rows of whole packs a block holds in registers (2048 packs) stay on the row kernel.
TEST(SoftmaxDispatch, RowsABlockHoldsInRegistersStayOffTheClusters) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  const Decision held = decide(call_of(1, 16384, 1));
  EXPECT_EQ(held.winner, "softmax_rows_cuda");
  EXPECT_EQ(held.dropped.at("softmax_cluster_cuda"),
            "refused: a row of 16384 elements is 2048 whole packs (at most 2048): one block a row "
            "holds it in registers");
  EXPECT_EQ(decide(call_of(1, 16392, 1)).winner, "softmax_cluster_cuda");
  EXPECT_EQ(decide(call_of(1, 16384, 1, DType::kFloat32)).winner, "softmax_cluster_cuda");
}

TEST(SoftmaxDispatch, RowsOfUpTo128PacksTakeAGroupOfLanesARow) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  for (const SoftmaxCall& c : {call_of(65536, 7, 1), call_of(4, 1000, 1), call_of(1, 1024, 1),
                               call_of(300, 512, 1, DType::kFloat32)}) {
    EXPECT_EQ(decide(c).winner, "softmax_warp_rows_cuda") << c.describe();
  }
  const Decision d = decide(call_of(300, 513, 1, DType::kFloat32));
  EXPECT_EQ(d.winner, "softmax_rows_cuda");
  EXPECT_EQ(d.dropped.at("softmax_warp_rows_cuda"),
            "refused: rows of 513 elements are longer than 512 (128 packs of 16 bytes): one block "
            "a row");
}

TEST(SoftmaxDispatch, AnotherDimTakesTheStridedKernel) {
  ScopedDeviceFacts facts(kCUDA, kH200);
  const Decision d = decide(call_of(2, 128256, 4));
  EXPECT_EQ(d.winner, "softmax_strided_cuda");
  for (const char* key : {"softmax_grid_cuda", "softmax_cluster_cuda", "softmax_rows_cuda",
                          "softmax_warp_rows_cuda"}) {
    EXPECT_TRUE(has(d.dropped.at(key), "refused: the reduced dim is not the last (inner = 4)"))
        << key << ": " << d.dropped.at(key);
  }
}

TEST(SoftmaxDispatch, LogSoftmaxHasTheSameVariantsUnderItsOwnKeys) {
  LogSoftmaxSelection op;
  {
    ScopedDeviceFacts facts(kCUDA, kH200);
    EXPECT_EQ(op.key(call_of(4, 128256, 1)), "log_softmax_cluster_cuda");
    EXPECT_EQ(op.key(call_of(100, 65536, 1)), "log_softmax_grid_cuda");
    EXPECT_EQ(op.key(call_of(4096, 4096, 1)), "log_softmax_rows_cuda");
    EXPECT_EQ(op.key(call_of(2, 100, 3)), "log_softmax_strided_cuda");
    EXPECT_EQ(op.key(call_of(2, 100, 1)), "log_softmax_warp_rows_cuda");
  }
  ScopedDeviceFacts facts(kCUDA, kA100);
  EXPECT_EQ(op.key(call_of(4, 128256, 1)), "log_softmax_grid_cuda");
}

}  // namespace
}  // namespace tileops
