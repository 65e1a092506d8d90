// Softmax and log-softmax along one dim on the CPU, for x seen as [outer, n, inner]. Numerically
// stable: every exponent is x - max, so it is at most 0. fp32 accumulation.
//
// inner == 1 (the last dim): one row of n contiguous elements per task; softmax keeps the
// exponentials of the row in a float buffer between the sum and the scaling.
// inner > 1: each task takes a block of up to kColumns adjacent columns of one outer slice and
// walks the n rows of that block (each row's block is contiguous), recomputing the exponentials
// in the last pass.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/cpu/float_rows.hpp"
#include "tileops/ops/reduction/softmax_call.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu::softmax {

constexpr int kLanes = 8;
constexpr int64_t kColumns = 64;
constexpr int64_t kRowBlock = 256;

template <bool kLog, typename T>
void contiguous_rows(const SoftmaxCall& call, const T* x, T* y) {
  const int64_t n = call.n;
  parallel_for(call.outer, std::max<int64_t>(1, 16384 / n), [&](int64_t begin, int64_t end) {
    std::vector<float> exps(kLog ? 0 : static_cast<size_t>(n));
    RowReader<T> reader;
    RowWriter<T> writer;
    for (int64_t r = begin; r < end; ++r) {
      const float* xr = reader.read(x + r * n, n);
      float max = -std::numeric_limits<float>::infinity();
      for (int64_t i = 0; i < n; ++i) max = std::max(max, xr[i]);
      float acc[kLanes] = {};
      for (int64_t i0 = 0; i0 < n; i0 += kLanes) {
        const int64_t width = std::min<int64_t>(kLanes, n - i0);
        for (int64_t j = 0; j < width; ++j) {
          const float e = std::exp(xr[i0 + j] - max);
          if constexpr (!kLog) exps[i0 + j] = e;
          acc[j] += e;
        }
      }
      for (int width = kLanes / 2; width > 0; width /= 2) {
        for (int j = 0; j < width; ++j) acc[j] += acc[j + width];
      }
      float* yr = writer.row(y + r * n, n);
      if constexpr (kLog) {
        const float log_sum = std::log(acc[0]);
        for (int64_t i = 0; i < n; ++i) yr[i] = (xr[i] - max) - log_sum;
      } else {
        const float inv_sum = 1.0f / acc[0];
        for (int64_t i = 0; i < n; ++i) yr[i] = exps[i] * inv_sum;
      }
      writer.commit();
    }
  });
}

template <bool kLog, typename T>
void strided_columns(const SoftmaxCall& call, const T* x, T* y) {
  const int64_t n = call.n, inner = call.inner;
  const int64_t blocks = (inner + kColumns - 1) / kColumns;
  parallel_for(
      call.outer * blocks, std::max<int64_t>(1, 16384 / (n * kColumns)),
      [&](int64_t begin, int64_t end) {
        BulkRowReader<T> reader;
        BulkRowWriter<T> writer;
        for (int64_t t = begin; t < end; ++t) {
          const int64_t o = t / blocks;
          const int64_t c0 = (t % blocks) * kColumns;
          const int64_t width = std::min(kColumns, inner - c0);
          const T* xb = x + o * n * inner + c0;
          T* yb = y + o * n * inner + c0;
          float max[kColumns], sum[kColumns], part[kColumns];
          std::fill_n(max, width, -std::numeric_limits<float>::infinity());
          for (int64_t k = 0; k < n; ++k) {
            const auto* row = reader.read(xb + k * inner, width);
            for (int64_t j = 0; j < width; ++j) max[j] = std::max(max[j], load(row[j]));
          }
          std::fill_n(sum, width, 0.0f);
          for (int64_t k0 = 0; k0 < n; k0 += kRowBlock) {
            std::fill_n(part, width, 0.0f);
            const int64_t k1 = std::min(n, k0 + kRowBlock);
            for (int64_t k = k0; k < k1; ++k) {
              const auto* row = reader.read(xb + k * inner, width);
              for (int64_t j = 0; j < width; ++j) part[j] += std::exp(load(row[j]) - max[j]);
            }
            for (int64_t j = 0; j < width; ++j) sum[j] += part[j];
          }
          float norm[kColumns];  // log(sum) for log-softmax, 1 / sum for softmax
          for (int64_t j = 0; j < width; ++j) {
            norm[j] = kLog ? std::log(sum[j]) : 1.0f / sum[j];
          }
          for (int64_t k = 0; k < n; ++k) {
            const auto* row = reader.read(xb + k * inner, width);
            auto* out = writer.row(yb + k * inner, width);
            for (int64_t j = 0; j < width; ++j) {
              const float shifted = load(row[j]) - max[j];
              out[j] = store<RowElement<T>>(kLog ? shifted - norm[j] : std::exp(shifted) * norm[j]);
            }
            writer.commit();
          }
        }
      });
}

// y = softmax (kLog false) or log_softmax (kLog true) of x over the middle dim of the call.
template <bool kLog, typename T>
void run(const SoftmaxCall& call, const T* x, T* y) {
  if (call.inner == 1) {
    contiguous_rows<kLog>(call, x, y);
  } else {
    strided_columns<kLog>(call, x, y);
  }
}

}  // namespace tileops::cpu::softmax
