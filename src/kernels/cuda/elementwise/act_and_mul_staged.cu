// out[r, c] = act(x[r, c]) * x[r, n + c] for rows whose halves sit off the 16-byte grid (n not a
// multiple of VEC): a block takes CHUNK columns of one row, stages the gate and up spans in
// shared memory with 16-byte loads from each span's own boundary (every load of both spans
// in flight at once: StagedSpan), then writes the output span
// in 16-byte packs from the output's boundary. The flat kernel moves such rows one element an
// access.
// Prelude: T, VEC, ACT (GatedActivation's code), CHUNK (columns a block takes; 2 * 256 * VEC).
#include "device/activation.cuh"
#include "device/staged_span.cuh"

using namespace tileops::dev;

__device__ __forceinline__ T gated(const T* gate, const T* up, int j) {
  return from_float<T>(activate(ACT, to_float(gate[j])) * to_float(up[j]));
}

// blockIdx.x = row * chunks + chunk; m * chunks stays below 2^31 (the host refuses otherwise).
extern "C" __global__ void __launch_bounds__(256)
    act_and_mul_staged_kernel(const T* __restrict__ x, T* __restrict__ out, i64 n, u32 chunks) {
  __shared__ alignas(16) T gate_buf[CHUNK + VEC];
  __shared__ alignas(16) T up_buf[CHUNK + VEC];
  const u32 row = blockIdx.x / chunks;
  const i64 c0 = (i64)(blockIdx.x - row * chunks) * CHUNK;
  const int cols = (int)min((i64)CHUNK, n - c0);
  const T* g = x + (i64)row * 2 * n + c0;
  // A chunk is two packs a thread (the host launches 256 threads).
  StagedSpan<T, VEC, 2> gate_span, up_span;
  gate_span.load(g, cols);
  up_span.load(g + n, cols);
  gate_span.store(gate_buf);
  up_span.store(up_buf);
  const T* gate = gate_buf + gate_span.shift;
  const T* up = up_buf + up_span.shift;
  __syncthreads();

  T* o = out + (i64)row * n + c0;
  const SpanSplit s = span_split<T, VEC>(o, cols);
  for (int j = threadIdx.x; j < s.head; j += blockDim.x) o[j] = gated(gate, up, j);
  for (int p = threadIdx.x; p < s.packs; p += blockDim.x) {
    const int j = s.head + p * VEC;
    Pack<T, VEC> r;
#pragma unroll
    for (int k = 0; k < VEC; ++k) r.v[k] = gated(gate, up, j + k);
    store_pack<T, VEC>(o + j, r);
  }
  for (int j = s.head + s.packs * VEC + threadIdx.x; j < cols; j += blockDim.x)
    o[j] = gated(gate, up, j);
}
