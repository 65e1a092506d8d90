// Which calls of a block-a-row kernel take its one-pack variant (takes_one_pack in
// common/row_tuning.hpp). Runs on the CPU; the variant's sources are among those the NVRTC
// compile test builds (row_kernel_variants).
#include <gtest/gtest.h>

#include <vector>

#include "kernels/cuda/common/row_tuning.hpp"
#include "tileops/core/tensor.hpp"

namespace tileops {
namespace {

using cuda::takes_one_pack;

bool one_pack(DType dtype, int vec, int64_t per_thread, int64_t n,
              std::vector<const Tensor*> tensors) {
  return takes_one_pack(dtype, vec, per_thread, n, tensors);
}

TEST(RowOnePack, TakesAlignedRowsOfWholePacksUpToABlockAtOneAccessAThread) {
  const DType bf16 = DType::kBFloat16;
  const Tensor x = Tensor::empty({3, 8192}, bf16, Device::cpu());
  const Tensor w = Tensor::empty({8192}, bf16, Device::cpu());
  EXPECT_TRUE(one_pack(bf16, 8, 1, 4096, {&x, &w}));
  EXPECT_TRUE(one_pack(bf16, 8, 1, 8192, {&x, &w}));  // 1024 packs: a block of 1024
  EXPECT_TRUE(one_pack(DType::kFloat32, 4, 1, 4096, {&x, &w}));
  // Candidates of several accesses a thread (many rows), the scalar width, a row past a block,
  // a width off the pack: the generic kernel.
  EXPECT_FALSE(one_pack(bf16, 8, 2, 4096, {&x, &w}));
  EXPECT_FALSE(one_pack(bf16, 1, 1, 4096, {&x, &w}));
  EXPECT_FALSE(one_pack(bf16, 8, 1, 8200, {&x, &w}));
  EXPECT_FALSE(one_pack(bf16, 8, 1, 4100, {&x, &w}));
  EXPECT_FALSE(one_pack(DType::kFloat32, 8, 1, 4096, {&x, &w}));  // not float32's wide width
  // A tensor off a 16-byte boundary (whose rows would all start off one), row or column.
  const Tensor shifted_rows = x.as_strided({2, 4096}, {4096, 1}, 8);
  const Tensor shifted_column = w.as_strided({4096}, {1}, 1);
  EXPECT_TRUE(one_pack(bf16, 8, 1, 4096, {&shifted_rows, &w}));  // 16 bytes in: still aligned
  const Tensor off_rows = x.as_strided({2, 4096}, {4096, 1}, 4);
  EXPECT_FALSE(one_pack(bf16, 8, 1, 4096, {&off_rows, &w}));
  EXPECT_FALSE(one_pack(bf16, 8, 1, 4096, {&x, &shifted_column}));
}

}  // namespace
}  // namespace tileops
