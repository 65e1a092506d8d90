// The host class template of the row kernels run with a group of lanes a row (their LANES > 0),
// several rows a block: for rows of up to kWarpRowsMaxPacks 16-byte packs, where one block a row
// leaves most of each block idle and pays a block-wide barrier per row (65536 rows of 32 bf16
// RMSNorm: 41 us one block a row against a 6 us copy on the H200). A warp, or a power-of-two part
// of one, walks each row in 16-byte packs kept in registers and reduces it with shuffles alone.
// Derived declares `static RowKernelDecl kernel()` (the same source as its one-block-a-row
// sibling) and run(), which hands its tensors and scalars to set_.run.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernels/cuda/common/per_dtype_kernel.hpp"
#include "kernels/cuda/common/row_tuning.hpp"

namespace tileops::cuda {

inline constexpr int64_t kWarpRowsMaxPacks = 128;  // 1024 16-bit elements, 512 float32
inline constexpr unsigned kWarpRowsBlock = 256;
inline constexpr std::array<int, 6> kWarpRowLanes{1, 2, 4, 8, 16, 32};
// Packs a lane keeps in registers: the most a lane takes (128 packs over 32 lanes), so no row is
// read twice, and few enough registers for four blocks an SM.
inline constexpr int kWarpRowsCache = 4;

// Rows this kernel family serves: at most kWarpRowsMaxPacks packs of 16 bytes.
inline std::optional<std::string> warp_rows_refusal(DType dtype, int64_t n) {
  const int64_t max_n = kWarpRowsMaxPacks * wide_vector_width(dtype);
  if (n <= max_n) return std::nullopt;
  return fmt::format(
      "rows of {} elements are longer than {} ({} packs of 16 bytes): one block a row", n, max_n,
      kWarpRowsMaxPacks);
}

// Elements a lane moves an access: 16 bytes where the tensors allow it (spanned_vector_width),
// except for rows off the pack that are shorter than kWarpRowsCache packs. Each such row starts
// at its own offset from a boundary, so most of it would be head and tail, walked an element at
// a time outside the registers (softmax 65536x7 bf16 took 8.7 us against a 1.7 us copy on the
// H200: docs/perf/h200-rows-2026-12-02); an element a pack keeps the whole row cached.
inline int warp_row_vector_width(DType dtype, int64_t n, std::span<const Tensor* const> tensors) {
  const int vec = spanned_vector_width(dtype, n, tensors);
  return vec > 1 && n % vec != 0 && n < kWarpRowsCache * vec ? 1 : vec;
}

// Lanes a row: a power of two in [1, 32], each lane taking up to packs_per_lane packs, so a lane
// keeps as many bytes in flight as its registers hold and short rows spend few shuffles. A row of
// two 16-byte packs or more takes two lanes at least: side by side they read whole 32-byte
// sectors an access, where one lane's strided packs would read half-sectors.
inline int warp_row_lanes(int64_t n, int vec, int packs_per_lane = kWarpRowsCache) {
  const int64_t packs = (n + vec - 1) / vec;
  int64_t lanes = (packs + packs_per_lane - 1) / packs_per_lane;
  if (vec > 1) lanes = std::max<int64_t>(lanes, std::min<int64_t>(packs, 2));
  const int64_t want = std::bit_ceil(static_cast<uint64_t>(std::max<int64_t>(lanes, 1)));
  return static_cast<int>(std::clamp<int64_t>(want, kWarpRowLanes.front(), kWarpRowLanes.back()));
}

// Every source a warp-rows kernel may run for dtype: each lane count, wide and scalar access.
inline std::vector<KernelSource> warp_row_kernel_variants(const RowKernelDecl& k, DType dtype) {
  std::vector<KernelSource> v;
  for (int vec : {wide_vector_width(dtype), 1}) {
    for (int lanes : kWarpRowLanes) {
      v.push_back(row_kernel_spec(k, dtype, vec, kWarpRowsCache, lanes).source());
    }
  }
  return v;
}

// The functions of one row kernel and dtype with a group of lanes a row, compiled on first use.
class WarpRowKernelSet {
 public:
  WarpRowKernelSet(const RowKernelDecl& kernel, DType dtype, int packs_per_lane = kWarpRowsCache)
      : dtype_(dtype), wide_vec_(wide_vector_width(dtype)), packs_per_lane_(packs_per_lane) {
    for (int vec : {wide_vec_, 1}) {
      for (int lanes : kWarpRowLanes) {
        fns_.push_back(std::make_unique<CudaFunction>(
            row_kernel_spec(kernel, dtype, vec, kWarpRowsCache, lanes)));
      }
    }
  }

  // One call over `rows` rows of n elements; the kernel's arguments are the data pointers of
  // inputs, then of outputs, then `scalars` (pointers to their values), then the row count.
  void run(int64_t rows, int64_t n, std::initializer_list<const Tensor*> inputs,
           std::initializer_list<const Tensor*> outputs, std::initializer_list<void*> scalars) {
    const RowArgs a(rows, inputs, outputs, scalars);
    const int vec = warp_row_vector_width(dtype_, n, a.tensors());
    const int lanes = warp_row_lanes(n, vec, packs_per_lane_);
    const int64_t rows_per_block = kWarpRowsBlock / lanes;
    const int lane_index = std::countr_zero(static_cast<unsigned>(lanes));  // 1 -> 0
    CUfunction fn =
        fns_[(vec == wide_vec_ ? 0 : kWarpRowLanes.size()) + lane_index]->get(a.device());
    last_lanes_.store(lanes, std::memory_order_relaxed);
    last_vec_.store(vec, std::memory_order_relaxed);
    launch(fn, a.device(), static_cast<unsigned>((rows + rows_per_block - 1) / rows_per_block), 1,
           kWarpRowsBlock, 0, a.args());
  }

  std::string last_config() const {
    return fmt::format("lanes_per_row={},vec={},block={}", last_lanes_.load(), last_vec_.load(),
                       kWarpRowsBlock);
  }

 private:
  DType dtype_;
  int wide_vec_, packs_per_lane_;
  std::vector<std::unique_ptr<CudaFunction>> fns_;
  std::atomic<int> last_lanes_{0}, last_vec_{0};
};

template <typename Derived, typename InterfaceT>
class WarpRowsCuda : public PerDTypeCuda<Derived, InterfaceT> {
 public:
  // Packs a lane takes; a kernel with more streams a row declares fewer (measured faster).
  static constexpr int kPacksPerLane = kWarpRowsCache;
  explicit WarpRowsCuda(DType dtype) : set_(Derived::kernel(), dtype, Derived::kPacksPerLane) {}
  std::string config() const override { return set_.last_config(); }

 protected:
  WarpRowKernelSet set_;
};

}  // namespace tileops::cuda
