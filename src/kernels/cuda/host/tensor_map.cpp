#include "kernels/cuda/host/tensor_map.hpp"

#include <fmt/format.h>

#include "tileops/core/error.hpp"

namespace tileops::cuda {
namespace {

// CUtensorMapDataType values of cuda.h.
constexpr int kTmaFloat16 = 6;
constexpr int kTmaFloat32 = 7;
constexpr int kTmaBFloat16 = 9;
constexpr int kTmaUint8 = 0;
constexpr int kSwizzle128B = 3;
constexpr int kL2Promotion256B = 3;
constexpr int kInterleaveNone = 0;
constexpr int kOobFillZero = 0;

std::optional<int> tma_type(DType d) {
  switch (d) {
    case DType::kFloat16:
      return kTmaFloat16;
    case DType::kBFloat16:
      return kTmaBFloat16;
    case DType::kFloat32:
      return kTmaFloat32;
    case DType::kFloat8E4M3:
    case DType::kFloat8E5M2:
      return kTmaUint8;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<std::string> tma_unsupported(const MatrixView& m) {
  const size_t elem = dtype_size(m.dtype);
  if (!tma_type(m.dtype)) return fmt::format("TMA has no element type for {}", dtype_name(m.dtype));
  if (reinterpret_cast<uintptr_t>(m.data) % 16 != 0) {
    return "the data pointer is not 16-byte aligned";
  }
  if (m.rows > 1 && (m.row_stride * elem) % 16 != 0) {
    return fmt::format(
        "the leading dimension ({} elements, {} bytes) is not a multiple of 16 bytes", m.row_stride,
        m.row_stride * elem);
  }
  if (m.rows >= (1ull << 31) || m.cols >= (1ull << 31)) return "a dimension reaches 2^31";
  return std::nullopt;
}

namespace {

void check_box(const MatrixView& m, unsigned box_rows, unsigned box_cols) {
  if (auto why = tma_unsupported(m)) throw ContractError("tensor map: " + *why);
  const uint64_t elem = dtype_size(m.dtype);
  if (box_cols * elem != 128 || box_rows == 0 || box_rows > 256) {
    throw ContractError(
        fmt::format("tensor map: box {}x{} of {}-byte elements does not fit the "
                    "128-byte swizzle",
                    box_rows, box_cols, elem));
  }
}

// A one-row matrix still needs a valid stride: any multiple of 16 bytes past the row.
uint64_t row_stride_bytes(const MatrixView& m) {
  const uint64_t elem = dtype_size(m.dtype);
  return m.rows > 1 ? m.row_stride * elem : ((m.cols * elem + 15) / 16) * 16;
}

TensorMapBits encode(const MatrixView& m, int rank, const uint64_t* dims, const uint64_t* strides,
                     const unsigned* box) {
  TensorMapBits map{};
  const unsigned element_strides[3] = {1, 1, 1};
  check(driver().cuTensorMapEncodeTiled(&map, *tma_type(m.dtype), rank, const_cast<void*>(m.data),
                                        dims, strides, box, element_strides, kInterleaveNone,
                                        kSwizzle128B, kL2Promotion256B, kOobFillZero),
        "cuTensorMapEncodeTiled");
  return map;
}

}  // namespace

TensorMapBits encode_tensor_map_sw128(const MatrixView& m, unsigned box_rows, unsigned box_cols) {
  check_box(m, box_rows, box_cols);
  const uint64_t dims[2] = {m.cols, m.rows};
  const uint64_t strides[1] = {row_stride_bytes(m)};
  const unsigned box[2] = {box_cols, box_rows};
  return encode(m, 2, dims, strides, box);
}

TensorMapBits encode_tensor_map_sw128_batched(const MatrixView& m, unsigned box_rows,
                                              unsigned box_cols) {
  check_box(m, box_rows, box_cols);
  const uint64_t elem = dtype_size(m.dtype);
  const uint64_t row_bytes = row_stride_bytes(m);
  // With one matrix the batch stride is never stepped; it only has to be valid.
  const uint64_t batch_bytes = m.batches > 1 ? m.batch_stride * elem : row_bytes * m.rows;
  if (batch_bytes % 16 != 0) {
    throw ContractError(fmt::format(
        "tensor map: the batch stride ({} bytes) is not a multiple of 16 bytes", batch_bytes));
  }
  const uint64_t dims[3] = {m.cols, m.rows, m.batches};
  const uint64_t strides[2] = {row_bytes, batch_bytes};
  const unsigned box[3] = {box_cols, box_rows, 1};
  return encode(m, 3, dims, strides, box);
}

}  // namespace tileops::cuda
