// LayerNorm over rows of n elements: one block a row, a group of LANES lanes a row (several rows a
// block) or a cluster of CLUSTER blocks a row (RowSlot). One pass takes the row's mean and centred
// sum of squares together (each pack's, merged pairwise: moments.cuh) with one reduction; the
// output pass takes the row from registers (up to CACHE packs per thread) or reads it again. Rows
// move in 16-byte packs from their first 16-byte boundary (RowSpan). Prelude: T, VEC, CACHE,
// LANES, CLUSTER.
#include "device/moments.cuh"
#include "device/rows.cuh"

using namespace tileops::dev;

extern "C" __global__ void TILEOPS_ROW_BOUNDS(CACHE, LANES, CLUSTER)
    layer_norm_kernel(const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ b,
                      T* __restrict__ y, i64 n, float eps, i64 rows) {
  using P = Pack<T, VEC>;
  __shared__ Moments scratch[32];
  const RowSlot<LANES, CLUSTER> slot(rows);
  if (LANES == 0 && CLUSTER == 0) {
    prefetch_l2(w, n * (i64)sizeof(T));
    prefetch_l2(b, n * (i64)sizeof(T));
  }
  const i64 len = slot.live ? n : 0;
  const T* xs = x + slot.row * n;
  T* ys = y + slot.row * n;
  const RowSpan<T, VEC> span(xs, len);
  const P* xr = span.packs_of(xs);
  P* yr = span.packs_of(ys);
  auto read = [&](i64 i) { return xr[i]; };
  const RowEdges<T, VEC, LANES> edges(slot, span, xs, len);
  RowCache<T, VEC, CACHE> row(slot.lane, slot.stride);
  Moments mine = MomentsMerge::identity();
  row.fill(slot.begin(span.packs), slot.end(span.packs), read, [&](const P& p) {
    float v[VEC];
#pragma unroll
    for (int k = 0; k < VEC; ++k) v[k] = to_float(p.v[k]);
    mine = MomentsMerge::apply(mine, moments_of(v));
  });
  edges.for_each(slot, span, len, [&](i64, float v) {
    mine = MomentsMerge::apply(mine, Moments{1.0f, v, 0.0f});
  });
  const Moments all = slot.template reduce<MomentsMerge>(mine, scratch);
  const float mean = all.mean, inv = rsqrtf(all.m2 / (float)n + eps);
  row.revisit(slot.begin(span.packs), slot.end(span.packs), read, [&](i64 i, const P& p) {
    const P g = span.column_pack(w, i), h = span.column_pack(b, i);
    yr[i] = make_pack<T, VEC>([&](int k) {
      return (to_float(p.v[k]) - mean) * inv * to_float(g.v[k]) + to_float(h.v[k]);
    });
  });
  edges.for_each(slot, span, len, [&](i64 i, float v) {
    ys[i] = from_float<T>((v - mean) * inv * to_float(w[i]) + to_float(b[i]));
  });
}
