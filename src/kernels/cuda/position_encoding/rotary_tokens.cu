// Rotary embedding with per-token positions (RotaryEmbeddingFwdOp), a block per token for many
// tokens: query [T, QH, D] and key
// [T, KH, D] rotate the first R dims of each head by the angles of their token's position, read
// from cos_sin_cache [P, R] (cos of R/2 frequencies, then their sin). A block per token (a grid
// stride over tokens): its cache row is read once into shared memory as float, then the block's
// threads walk the token's rotated pairs (head of query then key, i < R/2), consecutive threads
// on consecutive elements of a head, and, when the outputs are not the inputs, its
// passed-through elements (j in [R, D)). A pair is read before it is written by the same thread,
// so in place needs nothing more. Positions outside [0, P) are clamped into the cache (the op
// documents them as the caller's error). Prelude: T (query and key), C (cache), P (positions),
// IS_NEOX. Dynamic shared memory: R floats.
#include "device/numeric.cuh"

using namespace tileops::dev;

extern "C" __global__ void rotary_tokens_kernel(const P* __restrict__ positions, const T* q,
                                                const T* k, const C* __restrict__ cache, T* q_out,
                                                T* k_out, i64 tokens, int query_heads,
                                                int key_heads, int head_dim, int rotary_dim,
                                                i64 max_position, int copy_rest) {
  extern __shared__ float row[];  // cos then sin of this token's position
  const int half = rotary_dim / 2;
  const int heads = query_heads + key_heads;
  const int pairs = heads * half;
  const int rest = copy_rest ? head_dim - rotary_dim : 0;
  for (i64 t = blockIdx.x; t < tokens; t += gridDim.x) {
    i64 p = static_cast<i64>(positions[t]);
    p = p < 0 ? 0 : (p >= max_position ? max_position - 1 : p);
    __syncthreads();  // the previous token's readers are done with the row
    for (int i = threadIdx.x; i < rotary_dim; i += blockDim.x) {
      row[i] = to_float(cache[p * rotary_dim + i]);
    }
    __syncthreads();
    const T* qt = q + t * query_heads * head_dim;
    const T* kt = k + t * key_heads * head_dim;
    T* qo = q_out + t * query_heads * head_dim;
    T* ko = k_out + t * key_heads * head_dim;
    for (int w = threadIdx.x; w < pairs; w += blockDim.x) {
      const int h = w / half, i = w - h * half;
      const bool is_query = h < query_heads;
      const int at = (is_query ? h : h - query_heads) * head_dim;
      const T* x = (is_query ? qt : kt) + at;
      T* y = (is_query ? qo : ko) + at;
      const int a = IS_NEOX ? i : 2 * i;
      const int b = IS_NEOX ? i + half : 2 * i + 1;
      const float c = row[i], s = row[half + i];
      const float x0 = to_float(x[a]), x1 = to_float(x[b]);
      y[a] = from_float<T>(x0 * c - x1 * s);
      y[b] = from_float<T>(x1 * c + x0 * s);
    }
    for (int w = threadIdx.x; w < heads * rest; w += blockDim.x) {
      const int h = w / rest, j = rotary_dim + (w - h * rest);
      const bool is_query = h < query_heads;
      const int at = (is_query ? h : h - query_heads) * head_dim + j;
      (is_query ? qo : ko)[at] = (is_query ? qt : kt)[at];
    }
  }
}
