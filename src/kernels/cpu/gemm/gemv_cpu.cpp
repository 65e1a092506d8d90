// Matrix-vector GEMM on the CPU ("gemv_cpu"): serves calls with M == 1 or N == 1, where the
// blocked kernel would pack a whole panel to use one row or column of it. The vector operand is
// contiguous in every transpose combination; the matrix is walked either as rows dotted with the
// vector or as rows scaled into an accumulator, whichever keeps its reads contiguous.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "kernels/common/gemm_registration.hpp"
#include "kernels/cpu/float_rows.hpp"
#include "kernels/cpu/gemm/gemm_tail.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

template <typename T>
std::vector<float> to_floats(const T* v, int64_t n) {
  std::vector<float> out(static_cast<size_t>(n));
  to_float_row(v, out.data(), n);
  return out;
}

// Half rows are converted in chunks of this many elements (in bulk, F16C where the CPU has it)
// before the arithmetic; other types convert inline, which vectorises.
constexpr int64_t kHalfChunk = 256;

// partial[j] += a[c + j] * b[c + j] over c in steps of 8 (n a multiple of 8). A function of its
// own: written inline after the conversion call, the loop ran 1.7x slower (float16 1x4096x4096,
// one thread: 9.2 against 5.5 ms).
void dot_into(const float* a, const float* b, int64_t n, float (&partial)[8]) {
  for (int64_t c = 0; c < n; c += 8) {
    for (int j = 0; j < 8; ++j) partial[j] += a[c + j] * b[c + j];
  }
}

// y[r] = dot(mat[r, :], v) for mat [rows, k] row-major. Eight partial sums per row keep the
// loop free of a serial dependency.
template <typename T>
void rows_dot(const T* mat, int64_t rows, int64_t k, const std::vector<float>& v, float* y) {
  parallel_for(rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(k, 1)),
               [&](int64_t begin, int64_t end) {
                 float converted[kHalfChunk];
                 for (int64_t r = begin; r < end; ++r) {
                   const T* row = mat + r * k;
                   float partial[8] = {};
                   int64_t i = 0;
                   if constexpr (std::is_same_v<T, Half>) {
                     for (; i + kHalfChunk <= k; i += kHalfChunk) {
                       half_to_float(row + i, converted, kHalfChunk);
                       dot_into(converted, v.data() + i, kHalfChunk, partial);
                     }
                   }
                   for (; i + 8 <= k; i += 8) {
                     for (int j = 0; j < 8; ++j) partial[j] += load(row[i + j]) * v[i + j];
                   }
                   for (; i < k; ++i) partial[0] += load(row[i]) * v[i];
                   float sum = 0;
                   for (float p : partial) sum += p;
                   y[r] = sum;
                 }
               });
}

// y[c] = sum_r v[r] * mat[r, c] for mat [k, cols] row-major; each task owns a band of columns.
template <typename T>
void cols_axpy(const T* mat, int64_t k, int64_t cols, const std::vector<float>& v, float* y) {
  constexpr int64_t kBand = 256;
  const int64_t bands = (cols + kBand - 1) / kBand;
  parallel_for(bands, std::max<int64_t>(1, 16384 / std::max<int64_t>(k * kBand, 1)),
               [&](int64_t begin, int64_t end) {
                 float acc[kBand];
                 for (int64_t band = begin; band < end; ++band) {
                   const int64_t c0 = band * kBand;
                   const int64_t width = std::min(kBand, cols - c0);
                   std::fill(acc, acc + width, 0.0f);
                   float converted[kBand];
                   for (int64_t r = 0; r < k; ++r) {
                     const T* row = mat + r * cols + c0;
                     const float s = v[r];
                     if constexpr (std::is_same_v<T, Half>) {
                       half_to_float(row, converted, width);
                       for (int64_t c = 0; c < width; ++c) acc[c] += s * converted[c];
                     } else {
                       for (int64_t c = 0; c < width; ++c) acc[c] += s * load(row[c]);
                     }
                   }
                   std::copy(acc, acc + width, y + c0);
                 }
               });
}

// The fp32 sums of the call's one output row (m == 1: every column of op(b), both halves when
// gated) or one output column (n == 1), then the tail.
template <typename T>
void gemv(const GemmCall& call, const T* a, const T* b, const GemmTailStore<T>& out) {
  if (call.m == 1) {
    // d[0, :] = a_vec @ op(b): a is [1, k] or [k, 1], contiguous either way.
    const std::vector<float> v = to_floats(a, call.k);
    const int64_t cols = call.b_columns();
    std::vector<float> sums(static_cast<size_t>(cols));
    if (call.trans_b) {
      rows_dot(b, cols, call.k, v, sums.data());  // b is [cols, k]
    } else {
      cols_axpy(b, call.k, cols, v, sums.data());  // b is [k, cols]
    }
    out.row(0, 0, call.n, sums.data(), call.gated ? sums.data() + call.n : nullptr);
  } else {
    // d[:, 0] = op(a) @ b_vec: b is [1, k] or [k, 1], contiguous either way.
    const std::vector<float> v = to_floats(b, call.k);
    std::vector<float> sums(static_cast<size_t>(call.m));
    if (call.trans_a) {
      cols_axpy(a, call.k, call.m, v, sums.data());  // a is [k, m]
    } else {
      rows_dot(a, call.m, call.k, v, sums.data());  // a is [m, k]
    }
    for (int64_t i = 0; i < call.m; ++i) out.row(i, 0, 1, sums.data() + i, nullptr);
  }
}

class GemvCpuKernel final : public GemmKernel {
 public:
  using Interface = GemmKernel;
  static constexpr DeviceType devices[] = {kCPU};

  static std::optional<std::string> refusal(const GemmCall& call, const DeviceFacts&) {
    if (call.m == 1) return std::nullopt;
    if (call.n == 1 && !call.gated) return std::nullopt;
    if (call.n == 1) return std::string("a gated call's b has two columns: not a vector");
    return fmt::format("a matrix-vector kernel: needs M == 1 or N == 1, got M={}, N={}", call.m,
                       call.n);
  }

  void run(const GemmCall& call, const Tensor& a, const Tensor& b, const Tensor& d,
           const GemmTail& tail, const Tensor& /*workspace*/) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      const GemmTailStore<T> store(call, tail, d.data_as<T>());
      const T* ap = a.data_as<const T>();
      const T* bp = b.data_as<const T>();
      for (int64_t p = 0; p < call.batch; ++p) {
        gemv<T>(call, ap + p * call.m * call.k, bp + p * call.b_columns() * call.k,
                store.for_problem(p));
      }
    });
  }
};

const StaticGemmRegistration<GemvCpuKernel> kRegistration("gemv_cpu");

}  // namespace
}  // namespace tileops::cpu
