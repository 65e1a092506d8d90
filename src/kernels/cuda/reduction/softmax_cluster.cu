// softmax / log_softmax of few long rows (x seen as [rows, n]) in one pass and one launch, on
// Hopper and later: a cluster of CLUSTER blocks takes a row (grid (CLUSTER, rows), cluster
// (CLUSTER, 1, 1), THREADS threads a block). Each block keeps its chunk of packs in registers
// (the host guarantees chunk <= CLUSTER_CACHE * THREADS), reduces it to (max, sum) and publishes
// that in its shared memory; after a cluster barrier every block merges the CLUSTER partials
// through distributed shared memory and writes its chunk. The last barrier keeps each block's
// shared memory alive until every block of the cluster has read it.
// Prelude: T, VEC, LOG, CLUSTER, CLUSTER_CACHE, THREADS.
#include "device/rows.cuh"
#include "device/sm90/cluster.cuh"
#include "reduction/online_softmax.cuh"

using namespace tileops::dev;

extern "C" __global__ void __launch_bounds__(THREADS)
    softmax_cluster_kernel(const T* __restrict__ x, T* __restrict__ y, i64 n, i64 chunk) {
  using P = Pack<T, VEC>;
  __shared__ float2 scratch[32];
  __shared__ float2 published;
  const i64 row = blockIdx.y, packs = n / VEC;
  const P* xr = reinterpret_cast<const P*>(x + row * n);
  P* yr = reinterpret_cast<P*>(y + row * n);
  const i64 begin = blockIdx.x * chunk, end = min(begin + chunk, packs);
  const bool last = blockIdx.x == gridDim.x - 1;
  auto read = [&](i64 i) { return xr[i]; };
  RowCache<T, VEC, CLUSTER_CACHE> cache;
  float2 ms = row_state(cache, begin, end, read);
  if (last) {
    for_each_index(packs * VEC, n, [&](i64 i) { online_update(ms, to_float(x[row * n + i])); });
  }
  ms = block_reduce<OnlineMerge>(ms, scratch);
  if (threadIdx.x == 0) published = ms;
  sm90::cluster_sync();
  ms = OnlineMerge::identity();
#pragma unroll
  for (u32 r = 0; r < CLUSTER; ++r) ms = OnlineMerge::apply(ms, *sm90::cluster_map(&published, r));
  const SoftmaxOut<LOG, (sizeof(T) < 4)> out(ms);
  cache.revisit(begin, end, read, [&](i64 i, const P& p) {
    yr[i] = make_pack<T, VEC>([&](int k) { return out(to_float(p.v[k])); });
  });
  if (last) {
    for_each_index(packs * VEC, n,
                   [&](i64 i) { y[row * n + i] = from_float<T>(out(to_float(x[row * n + i]))); });
  }
  sm90::cluster_sync();
}
