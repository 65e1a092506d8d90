// softmax / log_softmax of few long rows (x seen as [rows, n]), each row split over gridDim.x
// blocks (grid (chunks, rows)) in two kernels: softmax_partial_kernel writes each chunk's
// (max, sum) to the caller's workspace, softmax_finish_kernel merges a row's partials and writes
// its chunk. Chunk c of a row covers packs [c * chunk, min((c + 1) * chunk, packs)); the tail
// elements (n % VEC) belong to the last chunk. Prelude: T, VEC, LOG.
#include "device/rows.cuh"
#include "reduction/online_softmax.cuh"

using namespace tileops::dev;

extern "C" __global__ void softmax_partial_kernel(const T* __restrict__ x,
                                                  float2* __restrict__ partial, i64 n, i64 chunk) {
  using P = Pack<T, VEC>;
  __shared__ float2 scratch[32];
  const i64 row = blockIdx.y, packs = n / VEC;
  const P* xr = reinterpret_cast<const P*>(x + row * n);
  const i64 begin = blockIdx.x * chunk, end = min(begin + chunk, packs);
  float2 ms = OnlineMerge::identity();
  for_each_index(begin, end, [&](i64 i) {
    const P p = xr[i];
#pragma unroll
    for (int k = 0; k < VEC; ++k) online_update(ms, to_float(p.v[k]));
  });
  if (blockIdx.x == gridDim.x - 1) {
    for_each_index(packs * VEC, n, [&](i64 i) { online_update(ms, to_float(x[row * n + i])); });
  }
  ms = block_reduce<OnlineMerge>(ms, scratch);
  if (threadIdx.x == 0) partial[row * gridDim.x + blockIdx.x] = ms;
}

extern "C" __global__ void softmax_finish_kernel(const T* __restrict__ x, T* __restrict__ y,
                                                 const float2* __restrict__ partial, i64 n,
                                                 i64 chunk) {
  using P = Pack<T, VEC>;
  __shared__ float2 scratch[32];
  const i64 row = blockIdx.y, packs = n / VEC;
  // The block's threads merge the row's partials together: one thread walking them all waited
  // on a chain of gridDim.x dependent L2 reads (1x50257 took 20.8 us on the H200).
  float2 ms = OnlineMerge::identity();
  for (int c = threadIdx.x; c < (int)gridDim.x; c += blockDim.x)
    ms = OnlineMerge::apply(ms, partial[row * gridDim.x + c]);
  const SoftmaxOut<LOG> out(block_reduce<OnlineMerge>(ms, scratch));
  const P* xr = reinterpret_cast<const P*>(x + row * n);
  P* yr = reinterpret_cast<P*>(y + row * n);
  const i64 begin = blockIdx.x * chunk, end = min(begin + chunk, packs);
  for_each_index(begin, end, [&](i64 i) {
    const P p = xr[i];
    yr[i] = make_pack<T, VEC>([&](int k) { return out(to_float(p.v[k])); });
  });
  if (blockIdx.x == gridDim.x - 1) {
    for_each_index(packs * VEC, n,
                   [&](i64 i) { y[row * n + i] = from_float<T>(out(to_float(x[row * n + i]))); });
  }
}
