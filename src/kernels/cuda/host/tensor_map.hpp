// TMA tensor maps, encoded on the host through the run-time-loaded driver
// (cuTensorMapEncodeTiled) and passed to kernels by value as a __grid_constant__ parameter.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "internal_api.hpp"
#include "runtime/cuda/driver_api.hpp"
#include "tileops/core/dtype.hpp"

namespace tileops::cuda {

// A row-major matrix of `rows` x `cols` elements, rows `row_stride` elements apart; or `batches`
// such matrices, `batch_stride` elements apart.
struct MatrixView {
  const void* data;
  DType dtype;
  uint64_t rows, cols, row_stride;
  uint64_t batches = 1, batch_stride = 0;
};

// Why TMA cannot address the matrix (base not 16-byte aligned, row stride not a multiple of 16
// bytes, a dtype TMA has no type for), or nullopt when it can.
TILEOPS_INTERNAL_API std::optional<std::string> tma_unsupported(const MatrixView& m);

// A 2-D map whose box is box_rows x box_cols elements (box_cols * element size == 128 bytes),
// written to shared memory with the 128-byte swizzle; out-of-bounds elements read as zero.
TILEOPS_INTERNAL_API TensorMapBits encode_tensor_map_sw128(const MatrixView& m, unsigned box_rows,
                                                           unsigned box_cols);

// The same as a 3-D map over the batch (coordinates: column, row, matrix), boxes of one matrix;
// loaded with tma_load_3d.
TILEOPS_INTERNAL_API TensorMapBits encode_tensor_map_sw128_batched(const MatrixView& m,
                                                                   unsigned box_rows,
                                                                   unsigned box_cols);

}  // namespace tileops::cuda
