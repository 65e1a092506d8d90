// softmax / log_softmax of rows of n contiguous elements (x seen as [rows, n]): one block a row,
// a group of LANES lanes a row (several rows a block), or with GRID a cooperative grid's column of
// blocks a row (few long rows: softmax_grid_cuda). The first pass loads up to CACHE packs per
// thread into registers and takes their (max, sum) (row_state), then the output pass; rows of
// any width move in 16-byte packs from their first 16-byte boundary (RowSpan). PACKS > 0: a block
// a row of at most PACKS packs a thread held in registers (register_row_softmax). Prelude: T,
// VEC, CACHE, LANES, CLUSTER, GRID, PACKS, LOG (log_softmax when true).
#include "device/rows.cuh"
#include "reduction/online_softmax.cuh"

using namespace tileops::dev;

extern "C" __global__ void TILEOPS_ROW_BOUNDS(CACHE, LANES, CLUSTER, GRID, PACKS)
    softmax_rows_kernel(const T* __restrict__ x, T* __restrict__ y, i64 n, i64 rows,
                        GridSlot* __restrict__ exchange) {
  using P = Pack<T, VEC>;
  __shared__ float2 scratch[32];
  if constexpr (PACKS > 0) {
    register_row_softmax<LOG>(RegisterRow<T, VEC, PACKS>(n), x, y, scratch);
    return;
  }
  RowSlot<LANES, CLUSTER, GRID> slot(rows, exchange);
  const i64 len = slot.live ? n : 0;
  const T* xs = x + slot.row * n;
  T* ys = y + slot.row * n;
  const RowSpan<T, VEC> span(xs, len);
  const P* xr = span.packs_of(xs);
  P* yr = span.packs_of(ys);
  auto read = [&](i64 i) { return xr[i]; };
  RowCache<T, VEC, CACHE> row(slot.lane, slot.stride);
  float2 ms = row_state(row, slot.begin(span.packs), slot.end(span.packs), read);
  slot.for_each_edge(span, len, [&](i64 i) { online_update(ms, to_float(xs[i])); });
  const SoftmaxOut<LOG, (sizeof(T) < 4)> out(slot.template reduce<OnlineMerge>(ms, scratch));
  row.revisit(slot.begin(span.packs), slot.end(span.packs), read, [&](i64 i, const P& p) {
    yr[i] = make_pack<T, VEC>([&](int k) { return out(to_float(p.v[k])); });
  });
  slot.for_each_edge(span, len, [&](i64 i) { ys[i] = from_float<T>(out(to_float(xs[i]))); });
}
