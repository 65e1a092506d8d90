// Add on the CPU: a flat loop when both operands have the output's shape, else a strided walk
// over the broadcast output with coalesced dims. fp32 arithmetic for every element type.
#include <algorithm>
#include <array>
#include <type_traits>

#include "kernels/cpu/element.hpp"
#include "kernels/cpu/half_convert.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/elementwise/add_fwd_op.hpp"
#include "tileops/runtime/thread_pool.hpp"

namespace tileops::cpu {
namespace {

constexpr int64_t kGrainElements = 16384;

// The output's dims with each operand's element strides (0 along a broadcast dim), size-1 dims
// dropped and adjacent dims merged where both operands step through them as one.
struct BroadcastPlan {
  int rank = 0;
  std::array<int64_t, kMaxRank> shape{};
  std::array<int64_t, kMaxRank> a_stride{};
  std::array<int64_t, kMaxRank> b_stride{};
};

// Strides of operand s aligned to the trailing dims of out (rank r), 0 where s broadcasts.
std::array<int64_t, kMaxRank> aligned_strides(const Shape& s, const Shape& out) {
  std::array<int64_t, kMaxRank> strides{};
  const int lead = out.rank() - s.rank();
  int64_t step = 1;
  for (int i = out.rank() - 1; i >= 0; --i) {
    const int j = i - lead;
    if (j < 0) break;
    strides[i] = s[j] == 1 ? 0 : step;
    step *= s[j];
  }
  return strides;
}

BroadcastPlan make_plan(const Shape& a, const Shape& b, const Shape& out) {
  const auto sa = aligned_strides(a, out);
  const auto sb = aligned_strides(b, out);
  BroadcastPlan p;
  for (int i = 0; i < out.rank(); ++i) {
    if (out[i] == 1) continue;
    const int last = p.rank - 1;
    if (last >= 0 && p.a_stride[last] == sa[i] * out[i] && p.b_stride[last] == sb[i] * out[i]) {
      p.shape[last] *= out[i];
      p.a_stride[last] = sa[i];
      p.b_stride[last] = sb[i];
      continue;
    }
    p.shape[p.rank] = out[i];
    p.a_stride[p.rank] = sa[i];
    p.b_stride[p.rank] = sb[i];
    ++p.rank;
  }
  if (p.rank == 0) {  // every dim is 1: one element
    p.rank = 1;
    p.shape[0] = 1;
  }
  return p;
}

// y[i] = a[i * sa] + alpha * b[i * sb] over one row; the common stride pairs get their own loop
// so that the compiler vectorizes them. kScale is false when alpha == 1.
template <typename T, bool kScale>
void add_row(const T* a, int64_t sa, const T* b, int64_t sb, T* y, int64_t n, float alpha) {
  auto scaled = [alpha](float v) { return kScale ? alpha * v : v; };
  if constexpr (std::is_same_v<T, Half>) {
    // Half rows go through float in chunks, converted in bulk (F16C where the CPU has it).
    if (sa <= 1 && sb <= 1) {
      constexpr int64_t kChunk = 256;
      float fa[kChunk], fb[kChunk], fy[kChunk];
      const float av = sa == 0 ? load(a[0]) : 0.0f, bv = sb == 0 ? scaled(load(b[0])) : 0.0f;
      for (int64_t i0 = 0; i0 < n; i0 += kChunk) {
        const int64_t w = std::min(kChunk, n - i0);
        if (sa == 1) half_to_float(a + i0, fa, w);
        if (sb == 1) half_to_float(b + i0, fb, w);
        for (int64_t j = 0; j < w; ++j) {
          fy[j] = (sa == 1 ? fa[j] : av) + (sb == 1 ? scaled(fb[j]) : bv);
        }
        float_to_half(fy, y + i0, w);
      }
      return;
    }
  }
  if (sa == 1 && sb == 1) {
    for (int64_t i = 0; i < n; ++i) y[i] = store<T>(load(a[i]) + scaled(load(b[i])));
  } else if (sa == 1 && sb == 0) {
    const float bv = scaled(load(b[0]));
    for (int64_t i = 0; i < n; ++i) y[i] = store<T>(load(a[i]) + bv);
  } else if (sa == 0 && sb == 1) {
    const float av = load(a[0]);
    for (int64_t i = 0; i < n; ++i) y[i] = store<T>(av + scaled(load(b[i])));
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = store<T>(load(a[i * sa]) + scaled(load(b[i * sb])));
  }
}

template <typename T, bool kScale>
void add_same_shape(int64_t n, const T* a, const T* b, T* y, float alpha) {
  parallel_for(n, kGrainElements, [&](int64_t begin, int64_t end) {
    add_row<T, kScale>(a + begin, 1, b + begin, 1, y + begin, end - begin, alpha);
  });
}

template <typename T, bool kScale>
void add_broadcast(const BroadcastPlan& p, const T* a, const T* b, T* y, float alpha) {
  const int outer_rank = p.rank - 1;
  const int64_t inner = p.shape[outer_rank];
  int64_t rows = 1;
  for (int d = 0; d < outer_rank; ++d) rows *= p.shape[d];
  parallel_for(rows, std::max<int64_t>(1, kGrainElements / inner), [&](int64_t begin, int64_t end) {
    // The multi-index of row `begin` over the outer dims, then an odometer from there.
    std::array<int64_t, kMaxRank> index{};
    int64_t a_off = 0, b_off = 0;
    for (int64_t d = outer_rank - 1, rest = begin; d >= 0; --d) {
      index[d] = rest % p.shape[d];
      rest /= p.shape[d];
      a_off += index[d] * p.a_stride[d];
      b_off += index[d] * p.b_stride[d];
    }
    for (int64_t r = begin; r < end; ++r) {
      add_row<T, kScale>(a + a_off, p.a_stride[outer_rank], b + b_off, p.b_stride[outer_rank],
                         y + r * inner, inner, alpha);
      for (int d = outer_rank - 1; d >= 0; --d) {
        a_off += p.a_stride[d];
        b_off += p.b_stride[d];
        if (++index[d] < p.shape[d]) break;
        a_off -= index[d] * p.a_stride[d];
        b_off -= index[d] * p.b_stride[d];
        index[d] = 0;
      }
    }
  });
}

template <typename T, bool kScale>
void add(const AddCall& call, const T* a, const T* b, T* y) {
  const float alpha = static_cast<float>(call.alpha);
  if (call.input_shape == call.other_shape) {
    add_same_shape<T, kScale>(call.output_shape.numel(), a, b, y, alpha);
  } else {
    add_broadcast<T, kScale>(make_plan(call.input_shape, call.other_shape, call.output_shape), a, b,
                             y, alpha);
  }
}

class AddCpuKernel final : public AddKernel {
 public:
  using Interface = AddKernel;
  static constexpr DeviceType devices[] = {kCPU};

  void run(const AddCall& call, const Tensor& input, const Tensor& other,
           const Tensor& output) override {
    visit_float_dtype(call.dtype, [&]<DType D>() {
      using T = element_t<D>;
      const T* a = input.data_as<const T>();
      const T* b = other.data_as<const T>();
      T* y = output.data_as<T>();
      if (call.alpha == 1) {
        add<T, false>(call, a, b, y);
      } else {
        add<T, true>(call, a, b, y);
      }
    });
  }
};

const StaticKernelRegistration<AddCpuKernel> kRegistration("AddFwdOp", "add_cpu");

}  // namespace
}  // namespace tileops::cpu
