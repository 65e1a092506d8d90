// The running state of a softmax row, (m, s) = (max so far, sum of exp(v - m)), kept as a float2
// so the block and cluster reductions move it as one value; and the output of a finished row.
#pragma once

#include "device/reduce.cuh"
#include "device/rows.cuh"

namespace tileops::dev {

constexpr float kLog2e = 1.4426950408889634f;

// 2^x by the special-function unit (what __expf uses after scaling by log2(e)).
__device__ __forceinline__ float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

__device__ __forceinline__ void online_update(float2& ms, float v) {
  if (v > ms.x) {
    ms.y = ms.y * __expf(ms.x - v) + 1.0f;
    ms.x = v;
  } else {
    ms.y += __expf(v - ms.x);
  }
}

// Merges two partial states (for block_reduce, and across blocks).
struct OnlineMerge {
  __device__ static float2 identity() { return make_float2(Max::identity(), 0.0f); }
  __device__ static float2 apply(float2 a, float2 b) {
    const float m = fmaxf(a.x, b.x);
    if (m == Max::identity()) return a;
    return make_float2(m, a.y * __expf(a.x - m) + b.y * __expf(b.x - m));
  }
};

// A thread's state over its packs [begin, end) of a row, which it loads into `row`: the max of
// the cached packs first, then their exponentials summed independently of each other (an online
// update per element is a chain of dependent exponentials and branches, which made softmax
// compute-bound), then the packs past the cache online, as they are read.
template <typename T, int VEC, int CACHE, typename Make>
__device__ __forceinline__ float2 row_state(RowCache<T, VEC, CACHE>& row, i64 begin, i64 end,
                                            Make make) {
  row.load(begin, end, make);
  float m = Max::identity();
  row.for_cached(begin, end, [&](const Pack<T, VEC>& p) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) m = fmaxf(m, to_float(p.v[k]));
  });
  float s = 0.0f;
  if (m != Max::identity()) {
    const float m_log2e = m * kLog2e;
    row.for_cached(begin, end, [&](const Pack<T, VEC>& p) {
      float e[VEC];
#pragma unroll
      for (int k = 0; k < VEC; ++k) e[k] = exp2_approx(fmaf(to_float(p.v[k]), kLog2e, -m_log2e));
#pragma unroll
      for (int w = 1; w < VEC; w *= 2) {
#pragma unroll
        for (int k = 0; k + w < VEC; k += 2 * w) e[k] += e[k + w];
      }
      s += e[0];
    });
  }
  float2 ms = make_float2(m, s);
  row.for_uncached(begin, end, make, [&](const Pack<T, VEC>& p) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) online_update(ms, to_float(p.v[k]));
  });
  return ms;
}

// y = exp(v - m) / s, or v - m - log(s) for log-softmax, from a row's final state. FAST (for
// 16-bit outputs, whose rounding dwarfs the difference) takes the exponential from the
// special-function unit instead of expf.
template <bool LOG_SOFTMAX, bool FAST = false>
struct SoftmaxOut {
  float m, m_log2e, log_s, inv_s;
  __device__ explicit SoftmaxOut(float2 ms)
      : m(ms.x), m_log2e(ms.x * kLog2e), log_s(logf(ms.y)), inv_s(1.0f / ms.y) {}
  __device__ float operator()(float v) const {
    if (LOG_SOFTMAX) return v - m - log_s;
    if (FAST) return exp2_approx(fmaf(v, kLog2e, -m_log2e)) * inv_s;
    return expf(v - m) * inv_s;
  }
};

// A row of the register-row variant (RegisterRow): each thread keeps its exponentials against
// its own max, so that after the one (max, sum) reduction its outputs are those exponentials
// times exp(m_thread - m_row) / sum: one exponential a thread after the reduction instead of one
// an element. log_softmax needs only the row's (max, sum). 16-bit outputs take the exponentials
// from the special-function unit (SoftmaxOut's FAST), float32 from expf.
template <bool LOG_SOFTMAX, typename T, int VEC, int PACKS>
__device__ __forceinline__ void register_row_softmax(const RegisterRow<T, VEC, PACKS>& row,
                                                     const T* x, T* y, float2* scratch) {
  constexpr bool kFast = LOG_SOFTMAX || sizeof(T) < 4;
  constexpr int kPacks = RegisterRow<T, VEC, PACKS>::kPacks;
  float v[kPacks][VEC], e[kPacks][VEC];
  float m = Max::identity(), s = 0.0f;
#pragma unroll
  for (int j = 0; j < kPacks; ++j) {
    // Packs past the row's end hold -inf: their exponentials are 0 and change no max.
    const bool mine = row.mine(j);
    Pack<T, VEC> p;
    if (mine) p = row.load(x, j);
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      v[j][k] = mine ? to_float(p.v[k]) : Max::identity();
      m = fmaxf(m, v[j][k]);
    }
  }
  // A thread whose values are all -inf (or that holds none) has no exponentials of its own; it
  // takes exp(-inf - m_row) / sum as its scale: 0, or NaN when the whole row is -inf, as the
  // generic path gives.
  const bool live = m != Max::identity();
  const float m_log2e = m * kLog2e;
#pragma unroll
  for (int j = 0; j < kPacks; ++j) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) {
      e[j][k] = !live   ? 1.0f
                : kFast ? exp2_approx(fmaf(v[j][k], kLog2e, -m_log2e))
                        : expf(v[j][k] - m);
    }
  }
  if (live) {
    // A pairwise sum over the thread's elements: a shorter chain of dependent adds.
    float sum[kPacks * VEC];
#pragma unroll
    for (int j = 0; j < kPacks; ++j) {
#pragma unroll
      for (int k = 0; k < VEC; ++k) sum[j * VEC + k] = e[j][k];
    }
#pragma unroll
    for (int w = 1; w < kPacks * VEC; w *= 2) {
#pragma unroll
      for (int k = 0; k + w < kPacks * VEC; k += 2 * w) sum[k] += sum[k + w];
    }
    s = sum[0];
  }
  const float2 all = block_reduce<OnlineMerge>(make_float2(m, s), scratch);
  if constexpr (LOG_SOFTMAX) {
    const float shift = all.x + logf(all.y);
#pragma unroll
    for (int j = 0; j < kPacks; ++j) {
      if (row.mine(j)) row.store(y, j, make_pack<T, VEC>([&](int k) { return v[j][k] - shift; }));
    }
  } else {
    const float scale = (kFast ? exp2_approx((m - all.x) * kLog2e) : expf(m - all.x)) / all.y;
#pragma unroll
    for (int j = 0; j < kPacks; ++j) {
      if (row.mine(j)) row.store(y, j, make_pack<T, VEC>([&](int k) { return e[j][k] * scale; }));
    }
  }
}

}  // namespace tileops::dev
