// DLPack 1.x export and import: zero copy, ownership through the deleter, refusals.
#include <gtest/gtest.h>

#include "tileops/core/dlpack.hpp"
#include "tileops/core/error.hpp"

namespace tileops {
namespace {

TEST(DLPack, ExportImportRoundTripSharesMemory) {
  Tensor t = Tensor::zeros({2, 3}, DType::kBFloat16);
  DLManagedTensorVersioned* m = to_dlpack(t);
  EXPECT_EQ(m->version.major, 1u);
  EXPECT_EQ(m->dl_tensor.dtype.code, kDLBfloat);
  EXPECT_EQ(m->dl_tensor.shape[1], 3);
  EXPECT_EQ(m->dl_tensor.strides[0], 3);
  Tensor back = from_dlpack(m);  // takes ownership of m
  EXPECT_EQ(back.data(), t.data());
  EXPECT_EQ(back.shape(), t.shape());
  EXPECT_EQ(back.dtype(), DType::kBFloat16);
}

TEST(DLPack, ExportKeepsStorageAliveUntilTheDeleterRuns) {
  DLManagedTensorVersioned* m;
  {
    Tensor t = Tensor::zeros({4}, DType::kFloat32);
    t.data_as<float>()[2] = 7.0f;
    m = to_dlpack(t);
  }
  EXPECT_EQ(static_cast<float*>(m->dl_tensor.data)[2], 7.0f);
  m->deleter(m);
}

struct Owned {
  static inline int deleted = 0;
  static void del(DLManagedTensorVersioned* self) {
    ++deleted;
    delete self;
  }
};

DLManagedTensorVersioned* foreign(int64_t* shape, int64_t* strides, float* data) {
  auto* m = new DLManagedTensorVersioned{};
  m->version = {1, 0};
  m->deleter = &Owned::del;
  m->dl_tensor = DLTensor{data, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, strides, 4};
  return m;
}

TEST(DLPack, ImportCallsTheDeleterWhenTheLastTensorGoes) {
  float data[5] = {0, 1, 2, 3, 4};
  int64_t shape[1] = {4}, strides[1] = {1};
  Owned::deleted = 0;
  {
    Tensor t = from_dlpack(foreign(shape, strides, data));
    EXPECT_EQ(t.data_as<float>()[0], 1.0f);  // byte_offset 4 skips one float
    Tensor copy = t;
  }
  EXPECT_EQ(Owned::deleted, 1);
}

TEST(DLPack, RefusalsCallTheDeleterAndThrow) {
  float data[4] = {};
  int64_t shape[1] = {4}, strides[1] = {1};
  Owned::deleted = 0;
  auto* wrong_major = foreign(shape, strides, data);
  wrong_major->version.major = 2;
  EXPECT_THROW(from_dlpack(wrong_major), ValueError);
  auto* read_only = foreign(shape, strides, data);
  read_only->flags = kDLPackFlagReadOnly;
  EXPECT_THROW(from_dlpack(read_only), ValueError);
  auto* lanes = foreign(shape, strides, data);
  lanes->dl_tensor.dtype.lanes = 4;
  EXPECT_THROW(from_dlpack(lanes), ValueError);
  auto* no_strides = foreign(shape, nullptr, data);
  EXPECT_THROW(from_dlpack(no_strides), ValueError);
  EXPECT_EQ(Owned::deleted, 4);
}

}  // namespace
}  // namespace tileops
