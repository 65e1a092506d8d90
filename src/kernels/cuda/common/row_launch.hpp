// Choices shared by the row-wise kernels (norms, softmax): the access width and block size.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>

#include "kernels/cuda/cuda_kernel.hpp"
#include "tileops/core/error.hpp"

namespace tileops::cuda {

// Elements of dtype in one 16-byte access.
inline int wide_vector_width(DType dtype) {
  return static_cast<int>(16 / dtype_size(dtype));
}

// Elements per 16-byte access when every pointer is 16-byte aligned and rows keep that alignment.
inline int row_vector_width(DType dtype, int64_t n, std::span<const void* const> pointers) {
  const int vec = wide_vector_width(dtype);
  if (n % vec != 0) return 1;
  for (const void* p : pointers) {
    if (p != nullptr && !aligned16(p)) return 1;
  }
  return vec;
}
inline int row_vector_width(DType dtype, int64_t n, std::initializer_list<const void*> pointers) {
  return row_vector_width(dtype, n,
                          std::span<const void* const>(pointers.begin(), pointers.size()));
}

// Elements per access of the row kernels that walk each row from its first 16-byte boundary
// (RowSpan in device/rows.cuh), for rows of any width n: 16 bytes when the row tensors (numel
// rows * n) all sit at one offset from a 16-byte boundary, so their rows reach boundaries
// together, and the column tensors (a weight or bias, numel n) start on one; else one element.
// With one row the two kinds look alike and every tensor must start on a boundary.
inline int spanned_vector_width(DType dtype, int64_t n, std::span<const Tensor* const> tensors) {
  const int vec = wide_vector_width(dtype);
  std::optional<uintptr_t> row_phase;
  for (const Tensor* t : tensors) {
    const auto address = reinterpret_cast<uintptr_t>(t->data());
    if (t->numel() == n) {
      if (address % 16 != 0) return 1;
    } else if (!row_phase) {
      row_phase = address % 16;
    } else if (*row_phase != address % 16) {
      return 1;
    }
  }
  return vec;
}

// A row kernel's argument list, built without allocating (a cached call's path): the data
// pointers of the inputs, then of the outputs, then the scalars (pointers to their values), then
// the row count and the grid exchange's workspace (null but with GRID). It points into itself, so
// it is neither copied nor moved.
class RowArgs {
 public:
  static constexpr size_t kMaxTensors = 8, kMaxScalars = 4;

  RowArgs(int64_t rows, std::initializer_list<const Tensor*> inputs,
          std::initializer_list<const Tensor*> outputs, std::initializer_list<void*> scalars,
          void* exchange = nullptr)
      : rows_(rows), exchange_(exchange) {
    if (inputs.size() + outputs.size() > kMaxTensors) throw_too_many();
    for (const Tensor* t : inputs) tensors_[tensor_count_++] = t;
    for (const Tensor* t : outputs) tensors_[tensor_count_++] = t;
    fill(std::span<void* const>(scalars.begin(), scalars.size()));
  }
  // The same over other tensors (a tuning trial's scratch copies) with another list's scalars.
  RowArgs(int64_t rows, std::span<const Tensor> inputs, std::span<const Tensor> outputs,
          std::span<void* const> scalars)
      : rows_(rows) {
    if (inputs.size() + outputs.size() > kMaxTensors) throw_too_many();
    for (const Tensor& t : inputs) tensors_[tensor_count_++] = &t;
    for (const Tensor& t : outputs) tensors_[tensor_count_++] = &t;
    fill(scalars);
  }
  RowArgs(const RowArgs&) = delete;
  RowArgs& operator=(const RowArgs&) = delete;

  std::span<const Tensor* const> tensors() const { return {tensors_.data(), tensor_count_}; }
  std::span<void* const> args() const { return {args_.data(), arg_count_}; }
  std::span<void* const> scalars() const {
    return {args_.data() + tensor_count_, arg_count_ - tensor_count_ - 2};
  }
  int device() const { return device_of(*tensors_[0]); }

 private:
  [[noreturn]] static void throw_too_many() {
    throw ContractError("RowArgs: more tensors or scalars than a row kernel takes");
  }
  void fill(std::span<void* const> scalars) {
    if (scalars.size() > kMaxScalars) throw_too_many();
    for (size_t i = 0; i < tensor_count_; ++i) {
      data_[i] = tensors_[i]->data();
      args_[i] = const_cast<const void**>(&data_[i]);
    }
    size_t k = tensor_count_;
    for (void* p : scalars) args_[k++] = p;
    args_[k++] = &rows_;
    args_[k++] = &exchange_;
    arg_count_ = k;
  }

  std::array<const Tensor*, kMaxTensors> tensors_{};
  std::array<const void*, kMaxTensors> data_{};
  std::array<void*, kMaxTensors + kMaxScalars + 2> args_{};
  int64_t rows_;
  void* exchange_ = nullptr;
  size_t tensor_count_ = 0, arg_count_ = 0;
};

// Packs each thread of a row kernel keeps in registers. Four: the block-size candidates give a
// thread at most four packs, and the kernels that cache declare launch bounds of two 512-thread
// blocks an SM (TILEOPS_ROW_BOUNDS: 64 registers a thread). An 8-pack array took 106 registers and
// held a 4096-wide softmax row to four blocks an SM, 48% of a copy against 87% with four
// (docs/perf/h200-rows-2026-12-02).
inline constexpr int kRowCache = 4;

// The cache depth a norm kernel is built with. Measured on the H200 (docs/perf): keeping the row
// in registers made fp16 and fp32 RMSNorm and LayerNorm faster (RMSNorm llama-405b prefill fp16
// 82% -> 96% of the copy) but bfloat16 slower (78% -> 51% with the 8-pack cache, whose registers
// capped the resident blocks), so bfloat16 re-reads the row from L1/L2 instead (depth 0). With
// the 4-pack cache `tileops tune` still chose depth 0 for bf16 RMSNorm 4096x4096 and depth 4 for
// 2048x4095 (docs/perf/h200-rows-2026-12-02): no one depth wins every bf16 row.
inline int norm_cache_depth(DType dtype) {
  return dtype == DType::kBFloat16 ? 0 : kRowCache;
}
inline constexpr int64_t kRowMaxThreads = 512;

// Threads per row block when each thread takes about per_thread accesses, rounded to warps, in
// [32, 512] when caching (the launch bounds then leave 64 registers a thread), else [32, 1024].
inline unsigned row_block_threads(int64_t n, int vec, int64_t per_thread, bool cached) {
  const int64_t packs = (n + vec - 1) / vec;
  const int64_t threads = (packs + per_thread - 1) / per_thread;
  const int64_t cap = cached ? kRowMaxThreads : 1024;
  return static_cast<unsigned>(std::clamp<int64_t>((threads + 31) / 32 * 32, 32, cap));
}

}  // namespace tileops::cuda
