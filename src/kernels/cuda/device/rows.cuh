// The row loop of the row kernels (the norms, softmax): each thread walks its packs of a row,
// `stride` apart from its `lane` (blockDim.x and threadIdx.x for one block a row, LANES and the
// lane within its group for a group of lanes a row), keeping the first CACHE of them in registers
// so a second pass need not read the row again. Elements before a row's first 16-byte boundary
// and after its last whole pack are walked one at a time (RowSpan).
#pragma once

#include "device/cache_policy.cuh"
#include "device/grid_exchange.cuh"
#include "device/reduce.cuh"
#include "device/sm90/cluster.cuh"
#include "device/vec.cuh"

// One block a row: kernels that keep packs in registers cap their blocks at 512 threads, two
// resident on an SM (at most 64 registers a thread: registers are what bound the resident blocks
// of a row kernel), those that keep none may use 1024; the host sizes blocks to match
// (row_block_threads in common/row_launch.hpp). A group of lanes a row: blocks of 256
// (common/warp_rows_cuda.hpp), at least four of them resident on an SM (at most 64 registers a
// thread), since many short rows need the whole SM's threads in flight. A cluster a row: blocks
// of 1024 (common/cluster_rows_cuda.hpp). Blocks of the grid a row: 256, four resident on an SM
// (common/grid_rows_cuda.hpp). The register-row variant (PACKS packs a thread): blocks of 1024
// up to two packs a thread, 512 for more (register_row_max_threads in common/row_tuning.hpp).
#define TILEOPS_ROW_BOUNDS(cache, lanes, cluster, grid, packs)    \
  __launch_bounds__((grid)          ? 256                         \
                    : (cluster) > 0 ? 1024                        \
                    : (lanes) > 0   ? 256                         \
                    : (packs) > 2   ? 512                         \
                    : (cache) > 0   ? 512                         \
                                    : 1024,                         \
                    (grid) || ((cluster) == 0 && (lanes) > 0) ? 4 \
                    : (cluster) == 0 && (cache) > 0           ? 2 \
                                                              : 1)

namespace tileops::dev {

// Where a thread sits among the rows of a row kernel, and the part of its row it walks.
// LANES == 0, CLUSTER == 0: one block a row (row blockIdx.x). LANES > 0: a group of LANES lanes
// (a power of two, at most 32) a row, blockDim.x / LANES rows a block; threads past the last row
// keep `live` false and walk nothing, but still take part in reduce() (the shuffles need the whole
// warp). CLUSTER > 0 (sm_90 and later): a cluster of CLUSTER blocks a row (grid (CLUSTER, rows)),
// block r walking the r-th share of the row's packs (the head with the first, the tail with the
// last), reduce() merging the blocks' values through distributed shared memory. GRID: the
// gridDim.x blocks of a cooperative launch's column a row (grid (blocks, rows)), shared out like a
// cluster's, reduce() merging their values through the `exchange` workspace (GridExchange, a
// region of grid_region_slots(gridDim.x) slots a row); the other modes ignore `exchange`.
template <int LANES, int CLUSTER = 0, bool GRID = false>
struct RowSlot {
  i64 row;
  int lane, stride;
  bool live;
  u32 rank = 0;
  GridExchange exchange;
  __device__ __forceinline__ RowSlot(i64 rows, GridSlot* exchange_)
      : exchange(GRID ? exchange_ + blockIdx.y * grid_region_slots(gridDim.x) : nullptr) {
    static_assert((LANES > 0) + (CLUSTER > 0) + GRID <= 1,
                  "one block, a group of lanes, a cluster or the grid a row");
    if constexpr (GRID) {
      row = blockIdx.y;
      lane = threadIdx.x;
      stride = blockDim.x;
      rank = blockIdx.x;
    } else if constexpr (CLUSTER > 0) {
      row = blockIdx.y;
      lane = threadIdx.x;
      stride = blockDim.x;
      rank = sm90::cluster_rank();
    } else if constexpr (LANES == 0) {
      row = blockIdx.x;
      lane = threadIdx.x;
      stride = blockDim.x;
    } else {
      static_assert(LANES <= 32 && (LANES & (LANES - 1)) == 0, "LANES: a power of two <= 32");
      row = (i64)blockIdx.x * (blockDim.x / LANES) + threadIdx.x / LANES;
      lane = threadIdx.x % LANES;
      stride = LANES;
    }
    live = row < rows;
  }
  // Blocks sharing a row: 1, CLUSTER or the grid's column.
  __device__ __forceinline__ u32 sharers() const {
    return GRID ? gridDim.x : CLUSTER > 0 ? CLUSTER : 1;
  }
  // The packs [begin(packs), end(packs)) of a row's body this thread's block walks.
  __device__ __forceinline__ i64 begin(i64 packs) const {
    return rank * ((packs + sharers() - 1) / sharers());
  }
  __device__ __forceinline__ i64 end(i64 packs) const {
    const i64 e = (rank + 1) * ((packs + sharers() - 1) / sharers());
    return e < packs ? e : packs;
  }
  // f(i) for this thread's elements of a row of n outside the span's body: the head, then the
  // tail.
  template <typename Span, typename F>
  __device__ __forceinline__ void for_each_edge(const Span& span, i64 n, F f) const {
    if (rank == 0) {
      for (i64 i = lane; i < span.head; i += stride) f(i);
    }
    if (rank == sharers() - 1) {
      for (i64 i = span.body_end() + lane; i < n; i += stride) f(i);
    }
  }
  // Op over the row's threads; every one gets the result (the same value in every block of a
  // cluster: each merges the blocks' values in rank order). scratch (32 values) serves the block
  // reduction.
  template <typename Op, typename V>
  __device__ __forceinline__ V reduce(V v, V* scratch) {
    if constexpr (GRID) {
      return exchange.template reduce<Op>(block_reduce<Op>(v, scratch), rank, gridDim.x, scratch);
    } else if constexpr (CLUSTER > 0) {
      __shared__ V published;
      v = block_reduce<Op>(v, scratch);
      if (threadIdx.x == 0) published = v;
      sm90::cluster_sync();
      V all = Op::identity();
#pragma unroll
      for (u32 r = 0; r < CLUSTER; ++r) all = Op::apply(all, *sm90::cluster_map(&published, r));
      sm90::cluster_sync();  // every block has read `published` before a next reduce rewrites it
      return all;
    } else if constexpr (LANES == 0) {
      return block_reduce<Op>(v, scratch);
    } else {
#pragma unroll
      for (int o = LANES / 2; o > 0; o >>= 1) v = Op::apply(v, shfl_xor(v, o));
      return v;
    }
  }
};

// A row's elements as `head` elements up to its first 16-byte boundary, `packs` whole aligned
// packs from there, then the tail [head + packs * VEC, n): so rows of any width, at any element
// offset, move in 16-byte accesses. Tensors read or written beside the row in step with it (the
// output, a residual) must sit at the same offset from a 16-byte boundary (the host checks).
template <typename T, int VEC>
struct RowSpan {
  i64 head, packs;
  __device__ __forceinline__ RowSpan(const T* row, i64 n) {
    if constexpr (VEC == 1) {
      head = 0;
    } else {
      const int past = (int)(reinterpret_cast<unsigned long long>(row) % 16) / (int)sizeof(T);
      head = past == 0 ? 0 : (VEC - past < n ? (i64)(VEC - past) : n);
    }
    packs = (n - head) / VEC;
  }
  __device__ __forceinline__ i64 body_end() const { return head + packs * VEC; }
  // The pack at pack index i of the body.
  __device__ __forceinline__ const Pack<T, VEC>* packs_of(const T* row) const {
    return reinterpret_cast<const Pack<T, VEC>*>(row + head);
  }
  __device__ __forceinline__ Pack<T, VEC>* packs_of(T* row) const {
    return reinterpret_cast<Pack<T, VEC>*>(row + head);
  }
  // The elements [head + i * VEC, + VEC) of a per-column vector (a norm's weight, 16-byte
  // aligned): one access when the row's body is aligned with it, else VEC.
  __device__ __forceinline__ Pack<T, VEC> column_pack(const T* w, i64 i) const {
    if (head == 0) return reinterpret_cast<const Pack<T, VEC>*>(w)[i];
    Pack<T, VEC> p;
#pragma unroll
    for (int k = 0; k < VEC; ++k) p.v[k] = w[head + i * VEC + k];
    return p;
  }
};

// A row of the register-row variant of a block-a-row kernel (PACKS > 0; the host launches it
// only where register_row_packs allows, common/row_tuning.hpp): row blockIdx.x of n elements,
// whole 16-byte packs on a 16-byte boundary, at most PACKS packs a thread. Thread i holds packs
// i + j * blockDim.x for j < PACKS, those of them before the row's end (`mine(j)`), in registers
// from its one read to its one write. Nothing is read after the reduction: a norm loads its
// weight beside the row, so the weight's L2 round trip and the row's second read leave the row's
// critical path (docs/perf/h200-decode-rows-2026-12-06).
template <typename T, int VEC, int PACKS>
struct RegisterRow {
  using P = Pack<T, VEC>;
  // Arrays sized by it stay valid in the generic variant (PACKS = 0), whose branch is discarded.
  static constexpr int kPacks = PACKS > 0 ? PACKS : 1;
  i64 first;  // the row's first pack
  int packs;  // the row's packs

  __device__ __forceinline__ explicit RegisterRow(i64 n)
      : first((i64)blockIdx.x * (n / VEC)), packs((int)(n / VEC)) {}
  // The row's pack index of this thread's j-th pack, and whether the row has it.
  __device__ __forceinline__ int index(int j) const {
    return (int)threadIdx.x + j * (int)blockDim.x;
  }
  __device__ __forceinline__ bool mine(int j) const { return index(j) < packs; }
  // This thread's j-th pack of a row tensor, and of a per-column one (a norm's weight or bias).
  __device__ __forceinline__ P load(const T* rows, int j) const {
    return reinterpret_cast<const P*>(rows)[first + index(j)];
  }
  __device__ __forceinline__ P load_column(const T* column, int j) const {
    return reinterpret_cast<const P*>(column)[index(j)];
  }
  __device__ __forceinline__ void store(T* rows, int j, const P& p) const {
    reinterpret_cast<P*>(rows)[first + index(j)] = p;
  }
};

template <typename T, int VEC, int CACHE>
struct RowCache {
  using P = Pack<T, VEC>;
  P v[CACHE > 0 ? CACHE : 1];
  int lane = threadIdx.x, stride = blockDim.x;

  __device__ __forceinline__ RowCache() {}
  __device__ __forceinline__ RowCache(int lane_, int stride_) : lane(lane_), stride(stride_) {}

  // First pass over this thread's packs of [begin, end): p = make(i) for pack index i, kept in
  // registers for the first CACHE, then use(p).
  template <typename Make, typename Use>
  __device__ __forceinline__ void fill(i64 begin, i64 end, Make make, Use use) {
#pragma unroll
    for (int c = 0; c < CACHE; ++c) {
      const i64 i = begin + lane + (i64)c * stride;
      if (i < end) {
        v[c] = make(i);
        use(v[c]);
      }
    }
    for (i64 i = begin + (i64)CACHE * stride + lane; i < end; i += stride) use(make(i));
  }

  // The first pass split in two, for a pass that must see every cached pack before it uses any:
  // load() fills the registers, for_cached() then visits them, for_uncached() the packs past them
  // (p = make(i), read as it goes).
  template <typename Make>
  __device__ __forceinline__ void load(i64 begin, i64 end, Make make) {
#pragma unroll
    for (int c = 0; c < CACHE; ++c) {
      const i64 i = begin + lane + (i64)c * stride;
      if (i < end) v[c] = make(i);
    }
  }
  template <typename F>
  __device__ __forceinline__ void for_cached(i64 begin, i64 end, F f) const {
#pragma unroll
    for (int c = 0; c < CACHE; ++c) {
      if (begin + lane + (i64)c * stride < end) f(v[c]);
    }
  }
  template <typename Make, typename F>
  __device__ __forceinline__ void for_uncached(i64 begin, i64 end, Make make, F f) const {
    for (i64 i = begin + (i64)CACHE * stride + lane; i < end; i += stride) f(make(i));
  }

  // A later pass over the same packs: f(i, p) with p from registers where cached, else reread(i).
  template <typename Reread, typename F>
  __device__ __forceinline__ void revisit(i64 begin, i64 end, Reread reread, F f) const {
#pragma unroll
    for (int c = 0; c < CACHE; ++c) {
      const i64 i = begin + lane + (i64)c * stride;
      if (i < end) f(i, v[c]);
    }
    for (i64 i = begin + (i64)CACHE * stride + lane; i < end; i += stride) f(i, reread(i));
  }
};

// f(i) for this thread's indices of [begin, end), blockDim.x apart: a row's tail elements past
// its packs, or packs visited once.
template <typename F>
__device__ __forceinline__ void for_each_index(i64 begin, i64 end, F f) {
  for (i64 i = begin + threadIdx.x; i < end; i += blockDim.x) f(i);
}

// Elementwise map of a pack: out.v[k] = from_float<T>(f(k)).
template <typename T, int VEC, typename F>
__device__ __forceinline__ Pack<T, VEC> make_pack(F f) {
  Pack<T, VEC> o;
#pragma unroll
  for (int k = 0; k < VEC; ++k) o.v[k] = from_float<T>(f(k));
  return o;
}

// Starts moving the bytes [p, p + count) that this block's threads will read after a reduction
// (a norm's weight) into L2, so the read after the barrier does not wait on DRAM: one-row
// (decode) calls are latency-bound, and this takes one DRAM round trip off their critical path.
// Grids of many rows skip it: there the weight stays in L2 after the first rows.
__device__ __forceinline__ void prefetch_l2(const void* p, i64 count_bytes) {
  if (gridDim.x * gridDim.y >= 256) return;
  const char* c = static_cast<const char*>(p);
  for (i64 off = (i64)threadIdx.x * 128; off < count_bytes; off += (i64)blockDim.x * 128) {
    prefetch_line_l2(c + off);
  }
}

// prefetch_l2 of the part of a per-column vector (a norm's weight or bias) that this block reads
// beside its share of a row's body: the whole body with one block a row, the block's share with
// a cluster or the grid a row. Groups of lanes skip it (their blocks hold many rows, so w stays in
// L2).
template <int LANES, int CLUSTER, bool GRID, typename T, int VEC>
__device__ __forceinline__ void prefetch_row_columns(const RowSlot<LANES, CLUSTER, GRID>& slot,
                                                     const RowSpan<T, VEC>& span, const T* w) {
  if constexpr (LANES == 0) {
    const i64 first = span.head + slot.begin(span.packs) * VEC;
    const i64 last = span.head + slot.end(span.packs) * VEC;
    prefetch_l2(w + first, (last - first) * (i64)sizeof(T));
  }
}

}  // namespace tileops::dev
