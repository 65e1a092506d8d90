// Rotary embedding with per-token positions (RotaryEmbeddingFwdOp), spread over pairs for few
// tokens: query [T, QH, D] and key [T, KH, D] rotate the first R dims of each head by the angles
// of their token's position, read from cos_sin_cache [P, R] (cos of R/2 frequencies, then their
// sin). Work items, walked by a grid-stride loop over the whole grid: first one per rotated pair
// (token, head of query then key, i < R/2), so that consecutive threads read consecutive cache
// entries and elements of one head; then, when the outputs are not the inputs, one per
// passed-through element (j in [R, D)). A pair is read before it is written by the same thread, so
// in place needs nothing more. Positions outside [0, P) are clamped into the cache (the op
// documents them as the caller's error). Prelude: T (query and key), C (cache), P (positions),
// IS_NEOX.
#include "device/numeric.cuh"

using namespace tileops::dev;

extern "C" __global__ void rotary_pairs_kernel(const P* __restrict__ positions, const T* q,
                                               const T* k, const C* __restrict__ cache, T* q_out,
                                               T* k_out, i64 tokens, int query_heads, int key_heads,
                                               int head_dim, int rotary_dim, i64 max_position,
                                               int copy_rest) {
  const int half = rotary_dim / 2;
  const int heads = query_heads + key_heads;
  const i64 pairs = tokens * heads * half;
  const int rest = copy_rest ? head_dim - rotary_dim : 0;
  const i64 total = pairs + tokens * heads * rest;
  for (i64 w = blockIdx.x * (i64)blockDim.x + threadIdx.x; w < total;
       w += (i64)gridDim.x * blockDim.x) {
    if (w < pairs) {
      const int i = static_cast<int>(w % half);
      const i64 th = w / half;  // token * heads + head
      const i64 t = th / heads;
      const int h = static_cast<int>(th - t * heads);
      i64 p = static_cast<i64>(positions[t]);
      p = p < 0 ? 0 : (p >= max_position ? max_position - 1 : p);
      const float c = to_float(cache[p * rotary_dim + i]);
      const float s = to_float(cache[p * rotary_dim + half + i]);
      const bool is_query = h < query_heads;
      const i64 at = is_query ? (t * query_heads + h) * head_dim
                              : (t * key_heads + (h - query_heads)) * head_dim;
      const T* x = (is_query ? q : k) + at;
      T* y = (is_query ? q_out : k_out) + at;
      const int a = IS_NEOX ? i : 2 * i;
      const int b = IS_NEOX ? i + half : 2 * i + 1;
      const float x0 = to_float(x[a]), x1 = to_float(x[b]);
      y[a] = from_float<T>(x0 * c - x1 * s);
      y[b] = from_float<T>(x1 * c + x0 * s);
    } else {
      const i64 r = w - pairs;
      const int j = rotary_dim + static_cast<int>(r % rest);
      const i64 th = r / rest;
      const i64 t = th / heads;
      const int h = static_cast<int>(th - t * heads);
      const bool is_query = h < query_heads;
      const i64 at = is_query ? (t * query_heads + h) * head_dim
                              : (t * key_heads + (h - query_heads)) * head_dim;
      (is_query ? q_out : k_out)[at + j] = (is_query ? q : k)[at + j];
    }
  }
}
