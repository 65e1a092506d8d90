// out[r, c] = act(x[r, c]) * x[r, n + c] for rows whose halves sit off the 16-byte grid (n not a
// multiple of VEC): a group of GROUP threads takes CHUNK columns of one row, stages the gate and
// up spans in shared memory with 16-byte loads from each span's own boundary (every load of both
// spans in flight at once: StagedSpan), then writes the output span in 16-byte packs from the
// output's boundary. A block holds ROWS groups, so rows narrower than a wide group's chunk still
// keep a block's threads busy. The flat kernel moves such rows one element an access.
// Prelude: T, VEC, ACT (GatedActivation's code), PER_THREAD (packs a thread of a span), GROUP,
// ROWS (the block is GROUP * ROWS threads).
#include "device/activation.cuh"
#include "device/staged_span.cuh"

using namespace tileops::dev;

constexpr int CHUNK = PER_THREAD * GROUP * VEC;

__device__ __forceinline__ T gated(T gate, T up) {
  return from_float<T>(activate(ACT, to_float(gate)) * to_float(up));
}

// blockIdx.x = row_block * chunks + chunk, rows [row_block * ROWS, + ROWS) one a group; the grid
// stays below 2^31 blocks (the host refuses otherwise).
extern "C" __global__ void __launch_bounds__(GROUP* ROWS)
    act_and_mul_staged_kernel(const T* __restrict__ x, T* __restrict__ out, i64 m, i64 n,
                              u32 chunks) {
  // A span's VEC - 1 leading elements of shift, and a pack past its end for read_shifted_pack.
  __shared__ alignas(16) T gate_buf[ROWS][CHUNK + 2 * VEC];
  __shared__ alignas(16) T up_buf[ROWS][CHUNK + 2 * VEC];
  const int group = threadIdx.x / GROUP;
  const int tid = threadIdx.x % GROUP;
  const u32 row_block = blockIdx.x / chunks;
  const i64 row = (i64)row_block * ROWS + group;
  const i64 c0 = (i64)(blockIdx.x - row_block * chunks) * CHUNK;
  // A group past the last row moves nothing but still meets the block's barrier.
  const bool live = row < m;
  const int cols = live ? (int)min((i64)CHUNK, n - c0) : 0;
  const T* g = live ? x + row * 2 * n + c0 : x;
  StagedSpan<T, VEC, PER_THREAD> gate_span, up_span;
  gate_span.load(g, cols, tid, GROUP);
  up_span.load(g + n, cols, tid, GROUP);
  gate_span.store(gate_buf[group], tid, GROUP);
  up_span.store(up_buf[group], tid, GROUP);
  const T* gate = gate_buf[group] + gate_span.shift;
  const T* up = up_buf[group] + up_span.shift;
  __syncthreads();
  if (!live) return;

  T* o = out + row * n + c0;
  const SpanSplit s = span_split<T, VEC>(o, cols);
  for (int j = tid; j < s.head; j += GROUP) o[j] = gated(gate[j], up[j]);
  // The output's packs start at s.head; in the buffers that is gate_span.shift + s.head, off their
  // 16-byte grid by the same amount for every pack.
  const int gate_first = gate_span.shift + s.head;
  const int up_first = up_span.shift + s.head;
  const T* gate_packs = gate_buf[group] + (gate_first & ~(VEC - 1));
  const T* up_packs = up_buf[group] + (up_first & ~(VEC - 1));
  for (int p = tid; p < s.packs; p += GROUP) {
    const Pack<T, VEC> g = read_shifted_pack<T, VEC>(gate_packs + p * VEC, gate_first & (VEC - 1));
    const Pack<T, VEC> u = read_shifted_pack<T, VEC>(up_packs + p * VEC, up_first & (VEC - 1));
    Pack<T, VEC> r;
#pragma unroll
    for (int k = 0; k < VEC; ++k) r.v[k] = gated(g.v[k], u.v[k]);
    store_pack<T, VEC>(o + s.head + p * VEC, r);
  }
  for (int j = s.head + s.packs * VEC + tid; j < cols; j += GROUP) o[j] = gated(gate[j], up[j]);
}
