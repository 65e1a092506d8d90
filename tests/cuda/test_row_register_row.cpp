// Which calls of a block-a-row kernel take a register-row variant, and of how many packs a thread
// (register_row_packs in common/row_tuning.hpp). Runs on the CPU; the variants' sources are among
// those the NVRTC compile test builds (row_kernel_variants).
#include <gtest/gtest.h>

#include <vector>

#include "kernels/cuda/common/row_tuning.hpp"
#include "tileops/core/tensor.hpp"

namespace tileops {
namespace {

int packs_of(DType dtype, int vec, int64_t per_thread, int64_t n,
             std::vector<const Tensor*> tensors, int forced = 0) {
  return cuda::register_row_packs(dtype, vec, per_thread, n, tensors, forced);
}

TEST(RegisterRow, TakesTheFewestPacksAThreadWhoseBlockHoldsTheRow) {
  const DType bf16 = DType::kBFloat16, f32 = DType::kFloat32;
  const Tensor x = Tensor::empty({3, 16384}, bf16, Device::cpu());
  const Tensor w = Tensor::empty({16384}, bf16, Device::cpu());
  EXPECT_EQ(packs_of(bf16, 8, 1, 4096, {&x, &w}), 1);
  EXPECT_EQ(packs_of(bf16, 8, 1, 8192, {&x, &w}), 1);  // 1024 packs: a block of 1024
  EXPECT_EQ(packs_of(bf16, 8, 1, 8200, {&x, &w}), 2);  // 1025 packs
  EXPECT_EQ(packs_of(bf16, 8, 1, 12288, {&x, &w}), 2);
  EXPECT_EQ(packs_of(bf16, 8, 1, 16384, {&x, &w}), 2);  // 2048 packs
  EXPECT_EQ(packs_of(bf16, 8, 1, 16392, {&x, &w}), 0);  // past two packs of 1024 threads
  EXPECT_EQ(packs_of(f32, 4, 1, 4096, {&x, &w}), 1);
  EXPECT_EQ(packs_of(f32, 4, 1, 8192, {&x, &w}), 2);
  EXPECT_EQ(packs_of(f32, 4, 1, 8196, {&x, &w}), 0);
}

TEST(RegisterRow, LeavesManyRowsScalarWidthsOffThePackAndUnalignedTensorsToTheGenericKernel) {
  const DType bf16 = DType::kBFloat16;
  const Tensor x = Tensor::empty({3, 8192}, bf16, Device::cpu());
  const Tensor w = Tensor::empty({8192}, bf16, Device::cpu());
  EXPECT_EQ(packs_of(bf16, 8, 2, 4096, {&x, &w}), 0);  // several accesses a thread (many rows)
  EXPECT_EQ(packs_of(bf16, 1, 1, 4096, {&x, &w}), 0);
  EXPECT_EQ(packs_of(bf16, 8, 1, 4100, {&x, &w}), 0);
  EXPECT_EQ(packs_of(DType::kFloat32, 8, 1, 4096, {&x, &w}), 0);  // not float32's wide width
  // A tensor off a 16-byte boundary (whose rows would all start off one), row or column.
  const Tensor shifted_rows = x.as_strided({2, 4096}, {4096, 1}, 8);
  const Tensor shifted_column = w.as_strided({4096}, {1}, 1);
  EXPECT_EQ(packs_of(bf16, 8, 1, 4096, {&shifted_rows, &w}), 1);  // 16 bytes in: still aligned
  const Tensor off_rows = x.as_strided({2, 4096}, {4096, 1}, 4);
  EXPECT_EQ(packs_of(bf16, 8, 1, 4096, {&off_rows, &w}), 0);
  EXPECT_EQ(packs_of(bf16, 8, 1, 4096, {&x, &shifted_column}), 0);
}

TEST(RegisterRow, AForcedCountServesTheRowsItsBlockHolds) {
  const DType bf16 = DType::kBFloat16;
  const Tensor x = Tensor::empty({1, 16384}, bf16, Device::cpu());
  // Four packs a thread in blocks of at most 512: up to 2048 packs.
  EXPECT_EQ(packs_of(bf16, 8, 1, 4096, {&x}, 4), 4);
  EXPECT_EQ(packs_of(bf16, 8, 1, 16384, {&x}, 4), 4);
  EXPECT_EQ(packs_of(bf16, 8, 1, 16392, {&x}, 4), 0);
  EXPECT_EQ(packs_of(bf16, 8, 1, 8192, {&x}, 2), 2);
  EXPECT_EQ(packs_of(bf16, 8, 1, 8200, {&x}, 1), 0);  // one pack a thread holds 1024
  EXPECT_EQ(cuda::register_row_max_threads(1), 1024);
  EXPECT_EQ(cuda::register_row_max_threads(2), 1024);
  EXPECT_EQ(cuda::register_row_max_threads(4), 512);
  // Each block the host sizes for a count holds the row at that count.
  for (int packs : cuda::kRegisterRowPacks) {
    const int64_t n = 8 * packs * cuda::register_row_max_threads(packs);
    EXPECT_LE(cuda::row_block_threads(n, 8, packs, false), cuda::register_row_max_threads(packs));
    EXPECT_GE(int64_t{cuda::row_block_threads(n, 8, packs, false)} * packs, n / 8);
  }
}

}  // namespace
}  // namespace tileops
