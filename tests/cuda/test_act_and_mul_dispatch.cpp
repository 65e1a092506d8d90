// Which CUDA implementation of the gated activations dispatch picks, and why it drops the other:
// decided from the call spec and device facts alone (an H200's, installed for the test), so it
// runs without a GPU.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "support/scoped_state.hpp"
#include "tileops/framework/device_facts.hpp"
#include "tileops/framework/dispatch_trace.hpp"
#include "tileops/ops/elementwise/gelu_tanh_and_mul_fwd_op.hpp"
#include "tileops/ops/elementwise/silu_and_mul_fwd_op.hpp"

namespace tileops {
namespace {

const DeviceFacts kH200{90, 132, "h200", 232448};

// The generated bases of the gated activations share a forward signature: one selection
// template serves them all.
template <typename Base, typename OpT, typename KernelT>
class ActSelection final : public Base {
 public:
  ActSelection() : Base({}, OpT::decl(), {}) {}
  std::string key(const typename KernelT::Call& call) const {
    return this->template key_for<KernelT>(call);
  }

 private:
  void forward(const Tensor&, Tensor&) override {}
};
using SiluSelection = ActSelection<gen::SiluAndMulFwdOpBase, SiluAndMulFwdOp, SiluAndMulKernel>;
using GeluTanhSelection =
    ActSelection<gen::GeluTanhAndMulFwdOpBase, GeluTanhAndMulFwdOp, GeluTanhAndMulKernel>;

template <typename Call>
Call call_of(DType dtype, int64_t m, int64_t n) {
  Call c;
  c.device = Device::cuda(0);
  c.dtype = dtype;
  c.m = m;
  c.n = n;
  return c;
}

template <typename Selection, typename Call>
std::pair<std::string, std::map<std::string, std::string>> decide(const Call& call) {
  Selection op;
  DispatchTrace trace;
  const std::string key = op.key(call);
  std::map<std::string, std::string> dropped;
  for (const auto& [k, why] : trace.decisions().back().dropped) dropped[k] = why;
  return {key, dropped};
}

std::pair<std::string, std::map<std::string, std::string>> decide_silu(DType dtype, int64_t m,
                                                                       int64_t n) {
  return decide<SiluSelection>(call_of<SiluAndMulCall>(dtype, m, n));
}

TEST(ActAndMulDispatch, RowsOffThePackTakeTheStagedKernel) {
  testing::ScopedDeviceFacts facts(kCUDA, kH200);
  for (int64_t n : {769, 2047, 2049, 4095, 14337, 262143}) {
    const auto [winner, dropped] = decide_silu(DType::kBFloat16, 8192, n);
    EXPECT_EQ(winner, "silu_and_mul_staged_cuda") << n;
    EXPECT_EQ(dropped.at("silu_and_mul_cuda"),
              "general: ranks below every specialised implementation");
  }
  // float32 packs hold 4 elements: 2050 is off them, 2052 on them.
  EXPECT_EQ(decide_silu(DType::kFloat32, 4096, 2050).first, "silu_and_mul_staged_cuda");
  EXPECT_EQ(decide_silu(DType::kFloat32, 4096, 2052).first, "silu_and_mul_cuda");
  EXPECT_EQ(
      decide<GeluTanhSelection>(call_of<GeluTanhAndMulCall>(DType::kFloat16, 2048, 3001)).first,
      "gelu_tanh_and_mul_staged_cuda");
}

TEST(ActAndMulDispatch, TheFlatKernelKeepsPacksNarrowRowsAndHugeGrids) {
  testing::ScopedDeviceFacts facts(kCUDA, kH200);
  auto [winner, dropped] = decide_silu(DType::kBFloat16, 4096, 14336);
  EXPECT_EQ(winner, "silu_and_mul_cuda");
  EXPECT_EQ(dropped.at("silu_and_mul_staged_cuda"),
            "refused: n 14336 is a multiple of 8: the flat kernel moves whole 16-byte packs");
  std::tie(winner, dropped) = decide_silu(DType::kBFloat16, 65536, 255);
  EXPECT_EQ(winner, "silu_and_mul_cuda");
  EXPECT_EQ(dropped.at("silu_and_mul_staged_cuda"),
            "refused: rows of 255 columns (under 256): the flat kernel takes rows this narrow");
  // Rows of one small chunk or less (768 16-bit columns): eight rows a block; of one narrow chunk
  // or less: four rows a block.
  EXPECT_EQ(decide_silu(DType::kBFloat16, 65536, 257).first, "silu_and_mul_staged_cuda");
  EXPECT_EQ(decide_silu(DType::kBFloat16, 65536, 767).first, "silu_and_mul_staged_cuda");
  EXPECT_EQ(decide_silu(DType::kBFloat16, 65536, 769).first, "silu_and_mul_staged_cuda");
  // Small calls are latency-bound: 2^22 outputs at least.
  std::tie(winner, dropped) = decide_silu(DType::kBFloat16, 1023, 4097);
  EXPECT_EQ(winner, "silu_and_mul_cuda");
  EXPECT_EQ(dropped.at("silu_and_mul_staged_cuda"),
            "refused: 4191231 outputs (under 2^22): the flat kernel is faster on calls this small");
  EXPECT_EQ(decide_silu(DType::kBFloat16, 1024, 4097).first, "silu_and_mul_staged_cuda");
  // 2^29 rows of 4097 columns: two 4096-column chunks a row, 2^30 blocks, still launchable;
  // 2^30 rows reach 2^31.
  EXPECT_EQ(decide_silu(DType::kBFloat16, int64_t{1} << 29, 4097).first,
            "silu_and_mul_staged_cuda");
  std::tie(winner, dropped) = decide_silu(DType::kBFloat16, int64_t{1} << 30, 4097);
  EXPECT_EQ(winner, "silu_and_mul_cuda");
  EXPECT_EQ(dropped.at("silu_and_mul_staged_cuda"),
            "refused: 1073741824 rows of 2 chunks reach 2^31 blocks");
}

}  // namespace
}  // namespace tileops
