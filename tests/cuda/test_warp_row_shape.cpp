// How the group-of-lanes row kernels (warp_rows_cuda.hpp) cut a row: lanes a row and elements an
// access. Host arithmetic, so it runs on the CPU.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "kernels/cuda/common/warp_rows_cuda.hpp"

namespace tileops {
namespace {

using cuda::warp_row_lanes;
using cuda::warp_row_vector_width;

// Each lane takes up to four packs (or the kernel's own count), and a row of two 16-byte packs or
// more takes two lanes at least; the lanes grow as powers of two up to a warp.
TEST(WarpRowShape, EachLaneTakesUpToFourPacks) {
  EXPECT_EQ(warp_row_lanes(1, 1), 1);
  EXPECT_EQ(warp_row_lanes(7, 1), 2);
  EXPECT_EQ(warp_row_lanes(31, 1), 8);
  EXPECT_EQ(warp_row_lanes(8, 8), 1);
  EXPECT_EQ(warp_row_lanes(16, 8), 2);
  EXPECT_EQ(warp_row_lanes(32, 8), 2);
  EXPECT_EQ(warp_row_lanes(33, 8), 2);
  EXPECT_EQ(warp_row_lanes(72, 8), 4);
  EXPECT_EQ(warp_row_lanes(128, 8), 4);
  EXPECT_EQ(warp_row_lanes(100, 8), 4);
  EXPECT_EQ(warp_row_lanes(1000, 8), 32);
  EXPECT_EQ(warp_row_lanes(1024, 8), 32);
  EXPECT_EQ(warp_row_lanes(512, 4), 32);
  EXPECT_EQ(warp_row_lanes(128, 8, 2), 8);
  EXPECT_EQ(warp_row_lanes(1024, 8, 2), 32);
}

// Rows off the 16-byte pack and shorter than four packs move an element an access (the whole row
// then sits in registers); others keep 16-byte packs where the tensors allow them.
TEST(WarpRowShape, ShortRowsOffThePackMoveAnElementAnAccess) {
  alignas(16) static std::array<uint16_t, 4096> x{}, y{};
  auto width = [](int64_t rows, int64_t n, size_t offset) {
    const Tensor in = Tensor::from_blob(x.data() + offset, Shape{rows, n}, Shape{n, 1},
                                        DType::kBFloat16, Device::cpu());
    const Tensor out = Tensor::from_blob(y.data() + offset, Shape{rows, n}, Shape{n, 1},
                                         DType::kBFloat16, Device::cpu());
    const std::array<const Tensor*, 2> ts{&in, &out};
    return warp_row_vector_width(DType::kBFloat16, n, ts);
  };
  EXPECT_EQ(width(8, 7, 0), 1);
  EXPECT_EQ(width(8, 31, 0), 1);
  EXPECT_EQ(width(8, 8, 0), 8);
  EXPECT_EQ(width(8, 24, 0), 8);
  EXPECT_EQ(width(8, 32, 0), 8);
  EXPECT_EQ(width(8, 33, 0), 8);  // four packs or more: heads and tails are the smaller part
  EXPECT_EQ(width(8, 100, 0), 8);
  EXPECT_EQ(width(8, 100, 1), 8);  // every row tensor one element off: still in step
}

}  // namespace
}  // namespace tileops
