// Core types: dtypes, devices, shapes and Python-semantics shape helpers, tensors, the thread pool.
#include <atomic>
#include <vector>

#include <gtest/gtest.h>

#include "tileops/core/error.hpp"
#include "tileops/core/shape_helpers.hpp"
#include "tileops/core/tensor.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops {
namespace {

TEST(DType, NamesSizesAndKinds) {
  EXPECT_EQ(dtype_name(DType::kBFloat16), "bfloat16");
  EXPECT_EQ(dtype_from_name("float8_e4m3fn"), DType::kFloat8E4M3);
  EXPECT_FALSE(dtype_from_name("float17").has_value());
  EXPECT_EQ(dtype_size(DType::kInt64), 8u);
  EXPECT_EQ(dtype_size(DType::kFloat8E5M2), 1u);
  EXPECT_TRUE(is_floating(DType::kFloat8E5M2));
  EXPECT_TRUE(is_integral(DType::kUInt8));
  EXPECT_FALSE(is_integral(DType::kBool));
}

TEST(Device, ParseAndNamedTypes) {
  EXPECT_EQ(Device::parse("cpu"), Device::cpu());
  EXPECT_EQ(Device::parse("cuda:1"), Device::cuda(1));
  const Device acme = Device::parse("acme:3");
  EXPECT_EQ(acme.str(), "acme:3");
  EXPECT_EQ(acme.type, device_type_from_name("acme"));
  EXPECT_THROW(Device::parse("cuda:x"), ValueError);
  EXPECT_THROW(Device::parse(":0"), ValueError);
}

TEST(Shape, InlineStorageAndRankLimit) {
  Shape s{2, 3, 4};
  EXPECT_EQ(s.numel(), 24);
  EXPECT_EQ(s.str(), "[2, 3, 4]");
  EXPECT_EQ(contiguous_strides(s), (Shape{12, 4, 1}));
  EXPECT_THROW((Shape{1, 1, 1, 1, 1, 1, 1, 1, 1}), ValueError);
}

TEST(ShapeOps, PythonFloorSemantics) {
  using namespace shape_ops;
  EXPECT_EQ(floordiv(-7, 2), -4);
  EXPECT_EQ(floormod(-7, 2), 1);
  EXPECT_EQ(floormod(-1, 3), 2);
  EXPECT_EQ(floormod(7, -2), -1);
  EXPECT_THROW(floordiv(1, 0), ValueError);
}

TEST(ShapeOps, IndexingSlicingBroadcastReduce) {
  using namespace shape_ops;
  const Shape s{2, 3, 4};
  EXPECT_EQ(at(s, -1), 4);
  EXPECT_THROW(at(s, 3), ValueError);
  EXPECT_EQ(slice(s, -2, std::nullopt), (Shape{3, 4}));
  EXPECT_EQ(slice(s, std::nullopt, -1), (Shape{2, 3}));
  EXPECT_EQ(slice(s, 5, 9), Shape{});
  EXPECT_EQ(concat(s, Shape{5}), (Shape{2, 3, 4, 5}));
  EXPECT_EQ(broadcast_shapes(Shape{16, 256, 56, 56}, Shape{256, 1, 1}), (Shape{16, 256, 56, 56}));
  EXPECT_FALSE(broadcast_shapes(Shape{2, 3}, Shape{4}).has_value());
  EXPECT_EQ(reduced_shape(s, Shape{-1}, false), (Shape{2, 3}));
  EXPECT_EQ(reduced_shape(s, Shape{0, 2}, true), (Shape{1, 3, 1}));
}

TEST(Tensor, OwningViewsReshapeAndContiguous) {
  Tensor t = Tensor::zeros({2, 3}, DType::kFloat32);
  EXPECT_TRUE(t.defined());
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.nbytes(), 24u);
  for (int i = 0; i < 6; ++i) t.data_as<float>()[i] = static_cast<float>(i);
  Tensor tt = t.as_strided({3, 2}, {1, 3}, 0);  // a transposed view sharing the storage
  EXPECT_FALSE(tt.is_contiguous());
  Tensor dense = tt.contiguous();
  EXPECT_EQ(dense.data_as<float>()[1], 3.0f);
  EXPECT_EQ(tt.storage(), t.storage());
  EXPECT_THROW(tt.reshape({6}), ValueError);
  EXPECT_EQ(t.reshape({6}).shape(), (Shape{6}));
  EXPECT_FALSE(Tensor().defined());
  EXPECT_THROW(Tensor::empty({-1}, DType::kFloat32), ValueError);
}

TEST(Tensor, FromBlobNeverFreesCallerMemory) {
  std::vector<float> memory(4, 1.0f);
  {
    Tensor t = Tensor::from_blob(memory.data(), {4}, {1}, DType::kFloat32, Device::cpu());
    t.data_as<float>()[0] = 5.0f;
  }
  EXPECT_EQ(memory[0], 5.0f);
}

TEST(ThreadPool, CoversTheRangeExactlyOnceAndRethrows) {
  std::vector<std::atomic<int>> hits(10007);
  parallel_for(10007, 100, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) ++hits[i];
  });
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  EXPECT_THROW(parallel_for(1000, 1,
                            [](int64_t b, int64_t) {
                              if (b > 0) throw std::runtime_error("worker failure");
                            }),
               std::runtime_error);
  parallel_for(0, 1, [](int64_t, int64_t) { FAIL() << "no work for an empty range"; });
}

}  // namespace
}  // namespace tileops

namespace tileops {
namespace {

TEST(ShapeOverflow, CheckedElementCount) {
  EXPECT_EQ(Shape({3, 4, 5}).checked_numel(), 60);
  EXPECT_EQ(Shape({3, 0, int64_t{1} << 62}).checked_numel(), 0);
  EXPECT_EQ(Shape({int64_t{1} << 32, int64_t{1} << 32}).checked_numel(), std::nullopt);
  EXPECT_EQ(Shape({int64_t{1} << 62, 16}).checked_numel(), std::nullopt);
  EXPECT_EQ(Shape({2, -3}).checked_numel(), std::nullopt);
}

TEST(ShapeOverflow, EmptyRefusesCountsAndByteSizesBeyondInt64) {
  try {
    (void)Tensor::empty({int64_t{1} << 62, 16}, DType::kFloat32);
    ADD_FAILURE() << "expected a ShapeError";
  } catch (const ShapeError& e) {
    EXPECT_STREQ(e.what(),
                 "Tensor::empty: argument 'shape': expected non-negative sizes whose element "
                 "count and byte size fit in int64, got [4611686018427387904, 16] of float32");
  }
  // 2^61 elements fit; their 2^63 bytes do not.
  EXPECT_THROW((void)Tensor::empty({int64_t{1} << 61}, DType::kFloat32), ShapeError);
}

TEST(ShapeOverflow, FromBlobRefusesOverflowingShapes) {
  float storage[4] = {};
  const int64_t big = int64_t{1} << 32;
  EXPECT_THROW(
      (void)Tensor::from_blob(storage, {big, big}, {big, 1}, DType::kFloat32, Device::cpu()),
      ShapeError);
  EXPECT_NO_THROW((void)Tensor::from_blob(storage, {2, 2}, {2, 1}, DType::kFloat32, Device::cpu()));
}

}  // namespace
}  // namespace tileops
