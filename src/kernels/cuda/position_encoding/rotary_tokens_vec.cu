// Rotary embedding with per-token positions (RotaryEmbeddingFwdOp), a block per token, every
// access 16 bytes: the same walk as rotary_tokens.cu (the token's cache row read once into shared
// memory as float, then its heads), but a thread takes VEC = 16 / sizeof(T) consecutive elements
// at once. NeoX: VEC rotated pairs (x[a..a+VEC) with x[a+R/2..a+R/2+VEC)); GPT-J: the VEC / 2
// interleaved pairs of x[a..a+VEC). The host serves only what this fits: 16-byte aligned
// tensors, head_dim and the rotated span (R/2 for NeoX, R for GPT-J) multiples of VEC. A thread
// reads its elements before writing them, so in place needs nothing more. Positions outside
// [0, P) are clamped into the cache. Prelude: T, C (cache), P (positions), IS_NEOX. Dynamic
// shared memory: R floats (16-byte aligned).
#include "device/numeric.cuh"
#include "device/vec.cuh"

using namespace tileops::dev;

constexpr int VEC = 16 / static_cast<int>(sizeof(T));
using Vec = Pack<T, VEC>;

// N consecutive floats of the shared row from `from` (a multiple of N) as 8- or 16-byte reads:
// scalar reads of VEC-apart elements would hit a few banks eight lanes at a time.
template <int N>
__device__ __forceinline__ void read_row(const float* from, float (&v)[N]) {
  if constexpr (N % 4 == 0) {
#pragma unroll
    for (int e = 0; e < N; e += 4) {
      const float4 f = *reinterpret_cast<const float4*>(from + e);
      v[e] = f.x;
      v[e + 1] = f.y;
      v[e + 2] = f.z;
      v[e + 3] = f.w;
    }
  } else {
    static_assert(N == 2, "pairs of floats at least");
    const float2 f = *reinterpret_cast<const float2*>(from);
    v[0] = f.x;
    v[1] = f.y;
  }
}

extern "C" __global__ void rotary_tokens_vec_kernel(const P* __restrict__ positions, const T* q,
                                                    const T* k, const C* __restrict__ cache,
                                                    T* q_out, T* k_out, i64 tokens, int query_heads,
                                                    int key_heads, int head_dim, int rotary_dim,
                                                    i64 max_position, int copy_rest) {
  extern __shared__ __align__(16) float row[];  // cos then sin of this token's position
  const int half = rotary_dim / 2;
  const int heads = query_heads + key_heads;
  // Work items a head: NeoX, groups of VEC pairs (i < R/2); GPT-J, VEC-element spans of [0, R).
  const int per_head = (IS_NEOX ? half : rotary_dim) / VEC;
  const int rest = copy_rest ? (head_dim - rotary_dim) / VEC : 0;
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
    for (int w = threadIdx.x; w < heads * per_head; w += blockDim.x) {
      const int h = w / per_head, g = w - h * per_head;
      const bool is_query = h < query_heads;
      const int at = (is_query ? h : h - query_heads) * head_dim;
      const T* x = (is_query ? qt : kt) + at;
      T* y = (is_query ? qo : ko) + at;
      if (IS_NEOX) {
        const int a = g * VEC;
        const Vec x0 = load_pack<T, VEC>(x + a), x1 = load_pack<T, VEC>(x + a + half);
        float c[VEC], s[VEC];
        read_row<VEC>(row + a, c);
        read_row<VEC>(row + half + a, s);
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
        const int a = g * VEC;
        const Vec xv = load_pack<T, VEC>(x + a);
        float c[VEC / 2], s[VEC / 2];
        read_row<VEC / 2>(row + a / 2, c);
        read_row<VEC / 2>(row + half + a / 2, s);
        Vec yv;
#pragma unroll
        for (int e = 0; e < VEC; e += 2) {
          const float v0 = to_float(xv.v[e]), v1 = to_float(xv.v[e + 1]);
          yv.v[e] = from_float<T>(v0 * c[e / 2] - v1 * s[e / 2]);
          yv.v[e + 1] = from_float<T>(v1 * c[e / 2] + v0 * s[e / 2]);
        }
        store_pack<T, VEC>(y + a, yv);
      }
    }
    for (int w = threadIdx.x; w < heads * rest; w += blockDim.x) {
      const int h = w / rest, j = rotary_dim + (w - h * rest) * VEC;
      const bool is_query = h < query_heads;
      const int at = (is_query ? h : h - query_heads) * head_dim + j;
      store_pack<T, VEC>((is_query ? qo : ko) + at, load_pack<T, VEC>((is_query ? qt : kt) + at));
    }
  }
}
