// The argument list the row kernels launch with (RowArgs in common/row_launch.hpp), built
// without allocating: each entry must point at the value cuLaunchKernel reads for that parameter.
// Runs on the CPU.
#include <gtest/gtest.h>

#include "kernels/cuda/common/row_launch.hpp"
#include "tileops/core/tensor.hpp"

namespace tileops {
namespace {

using cuda::RowArgs;

TEST(RowArgs, PointsAtEachTensorsDataThenTheScalarsThenTheRowCountAndTheExchange) {
  const Tensor x = Tensor::empty({3, 5}, DType::kFloat32, Device::cpu());
  const Tensor w = Tensor::empty({5}, DType::kFloat32, Device::cpu());
  const Tensor y = Tensor::empty({3, 5}, DType::kFloat32, Device::cpu());
  const Tensor r = Tensor::empty({3, 5}, DType::kFloat32, Device::cpu());
  int64_t n = 5;
  float eps = 0.5f;
  int workspace = 0;
  const RowArgs a(3, {&x, &w}, {&y, &r}, {&n, &eps}, &workspace);
  ASSERT_EQ(a.args().size(), 8u);
  ASSERT_EQ(a.tensors().size(), 4u);
  const Tensor* expected[] = {&x, &w, &y, &r};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(a.tensors()[i], expected[i]);
    EXPECT_EQ(*static_cast<const void* const*>(a.args()[i]), expected[i]->data()) << i;
  }
  EXPECT_EQ(a.args()[4], &n);
  EXPECT_EQ(a.args()[5], &eps);
  EXPECT_EQ(*static_cast<const int64_t*>(a.args()[6]), 3);
  EXPECT_EQ(*static_cast<void* const*>(a.args()[7]), &workspace);
  EXPECT_EQ(a.scalars().size(), 2u);
  // Without GRID the kernels still take the parameter: null.
  const RowArgs plain(3, {&x}, {&y}, {&n});
  ASSERT_EQ(plain.args().size(), 5u);
  EXPECT_EQ(*static_cast<void* const*>(plain.args()[4]), nullptr);
}

// A tuning trial's list: its scratch tensors with the call's scalars, the row count its own.
TEST(RowArgs, ATrialTakesItsTensorsAndTheCallsScalars) {
  const Tensor x = Tensor::empty({2, 4}, DType::kFloat32, Device::cpu());
  const Tensor y = Tensor::empty({2, 4}, DType::kFloat32, Device::cpu());
  int64_t n = 4;
  const RowArgs call(2, {&x}, {&y}, {&n});
  ASSERT_EQ(call.scalars().size(), 1u);
  EXPECT_EQ(call.scalars()[0], &n);
  const Tensor scratch[] = {Tensor::empty({2, 4}, DType::kFloat32, Device::cpu()),
                            Tensor::empty({2, 4}, DType::kFloat32, Device::cpu())};
  const RowArgs trial(2, std::span<const Tensor>(scratch, 1),
                      std::span<const Tensor>(scratch + 1, 1), call.scalars());
  ASSERT_EQ(trial.args().size(), 5u);
  EXPECT_EQ(*static_cast<const void* const*>(trial.args()[0]), scratch[0].data());
  EXPECT_EQ(*static_cast<const void* const*>(trial.args()[1]), scratch[1].data());
  EXPECT_EQ(trial.args()[2], &n);
  EXPECT_EQ(*static_cast<const int64_t*>(trial.args()[3]), 2);
  EXPECT_NE(trial.args()[3], call.args()[3]);
}

TEST(RowArgs, MoreTensorsThanAKernelTakesIsAContractError) {
  const Tensor t = Tensor::empty({1}, DType::kFloat32, Device::cpu());
  EXPECT_THROW(RowArgs(1, {&t, &t, &t, &t, &t}, {&t, &t, &t, &t}, {}), ContractError);
}

}  // namespace
}  // namespace tileops
