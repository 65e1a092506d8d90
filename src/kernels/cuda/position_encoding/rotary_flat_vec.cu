// Rotary embedding with per-token positions (RotaryEmbeddingFwdOp), 16-byte items spread over the
// whole grid: no block waits on a token's cache row, so every thread's loads of query or key are
// in flight at once, as in a copy. The items are first every rotated one (token, head of query
// then key, 16-byte group of the head), then, when the outputs are not the inputs, every
// passed-through one ([R, D) in 16-byte spans), so that a warp takes one kind: mixed within a
// head, a warp ran both paths one after the other. A rotated item is VEC = 16 / sizeof(T)
// consecutive elements: NeoX,
// x[a..a+VEC) rotated with x[a+R/2..a+R/2+VEC); GPT-J, the VEC / 2 interleaved pairs of
// x[a..a+VEC). Its cos and sin come straight from the cache row (read by every head of the token,
// so from L1 after the first), VEC-element packs where cache_packed says the cache allows them.
// The host serves only 16-byte aligned query, key and outputs, head_dim and the rotated span
// (R/2 for NeoX, R for GPT-J) multiples of VEC. A thread reads its elements before writing them,
// so in place needs nothing more. Positions outside [0, P) are clamped into the cache. Prelude: T,
// C (cache), P (positions), IS_NEOX.
#include "device/numeric.cuh"
#include "device/vec.cuh"

using namespace tileops::dev;

constexpr int VEC = 16 / static_cast<int>(sizeof(T));
using Vec = Pack<T, VEC>;
constexpr int COS_SIN = IS_NEOX ? VEC : VEC / 2;  // cache entries an item needs of cos and of sin

// N cache entries from `from` as floats: one pack where the cache allows it, else one by one.
template <int N>
__device__ __forceinline__ void read_cache(const C* from, bool packed, float (&v)[N]) {
  if (packed) {
    const Pack<C, N> p = load_pack<C, N>(from);
#pragma unroll
    for (int e = 0; e < N; ++e) v[e] = to_float(p.v[e]);
  } else {
#pragma unroll
    for (int e = 0; e < N; ++e) v[e] = to_float(from[e]);
  }
}

extern "C" __global__ void rotary_flat_vec_kernel(const P* __restrict__ positions, const T* q,
                                                  const T* k, const C* __restrict__ cache, T* q_out,
                                                  T* k_out, i64 tokens, int query_heads,
                                                  int key_heads, int head_dim, int rotary_dim,
                                                  i64 max_position, int copy_rest,
                                                  int cache_packed) {
  const int half = rotary_dim / 2;
  const int heads = query_heads + key_heads;
  const int rotated = (IS_NEOX ? half : rotary_dim) / VEC;           // rotated items a head
  const int passed = copy_rest ? (head_dim - rotary_dim) / VEC : 0;  // passed-through items a head
  const i64 rotated_items = tokens * heads * rotated;
  const i64 total = rotated_items + tokens * heads * passed;
  for (i64 w = blockIdx.x * static_cast<i64>(blockDim.x) + threadIdx.x; w < total;
       w += static_cast<i64>(gridDim.x) * blockDim.x) {
    const bool rotates = w < rotated_items;
    const int per_head = rotates ? rotated : passed;
    const i64 item = rotates ? w : w - rotated_items;
    const i64 th = item / per_head;  // token * heads + head
    const int g = static_cast<int>(item - th * per_head);
    const i64 t = th / heads;
    const int h = static_cast<int>(th - t * heads);
    const bool is_query = h < query_heads;
    const i64 at = is_query ? (t * query_heads + h) * head_dim
                            : (t * key_heads + (h - query_heads)) * head_dim;
    const T* x = (is_query ? q : k) + at;
    T* y = (is_query ? q_out : k_out) + at;
    if (!rotates) {
      const int j = rotary_dim + g * VEC;
      store_pack<T, VEC>(y + j, load_pack<T, VEC>(x + j));
      continue;
    }
    const int a = g * VEC;
    // The elements first: their loads do not wait on the position's.
    const Vec x0 = load_pack<T, VEC>(x + a);
    const Vec x1 = IS_NEOX ? load_pack<T, VEC>(x + a + half) : x0;
    i64 p = static_cast<i64>(positions[t]);
    p = p < 0 ? 0 : (p >= max_position ? max_position - 1 : p);
    const C* row = cache + p * rotary_dim;
    const int at_row = IS_NEOX ? a : a / 2;
    float c[COS_SIN], s[COS_SIN];
    read_cache<COS_SIN>(row + at_row, cache_packed != 0, c);
    read_cache<COS_SIN>(row + half + at_row, cache_packed != 0, s);
    if (IS_NEOX) {
      Vec y0, y1;
#pragma unroll
      for (int e = 0; e < VEC; ++e) {
        const float v0 = to_float(x0.v[e]), v1 = to_float(x1.v[e]);
        y0.v[e] = from_float<T>(v0 * c[e] - v1 * s[e]);
        y1.v[e] = from_float<T>(v1 * c[e] + v0 * s[e]);
      }
      store_pack<T, VEC>(y + a, y0);
      store_pack<T, VEC>(y + a + half, y1);
    } else {
      Vec yv;
#pragma unroll
      for (int e = 0; e < VEC; e += 2) {
        const float v0 = to_float(x0.v[e]), v1 = to_float(x0.v[e + 1]);
        yv.v[e] = from_float<T>(v0 * c[e / 2] - v1 * s[e / 2]);
        yv.v[e + 1] = from_float<T>(v1 * c[e / 2] + v0 * s[e / 2]);
      }
      store_pack<T, VEC>(y + a, yv);
    }
  }
}
