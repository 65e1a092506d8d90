// The host class template of the row kernels run with GRID: each of few long rows shared out
// among a column of blocks of one cooperative launch (grid (blocks, rows), every block resident
// at once), the blocks merging their partials through a workspace the op allocates
// (device/grid_exchange.cuh). A cluster a row (common/cluster_rows_cuda.hpp) puts 8 SMs on a row
// and runs 16 rows at once on 132 SMs; the grid puts the whole device on the rows, however many
// fit a cluster's wave: 64 rows of 32768 bf16 took the softmax cluster 23.3 us and the grid
// 8.4 us against a 3.1 us copy on the H200 (docs/perf/h200-grid-rows-2026-12-03). Derived
// declares `static RowKernelDecl kernel()` and run(), which hands its tensors, scalars and
// workspace to set_.run, and workspace_bytes(), which returns grid_rows_workspace_bytes.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernels/cuda/common/long_rows.hpp"
#include "kernels/cuda/common/per_dtype_kernel.hpp"
#include "kernels/cuda/common/row_tuning.hpp"
#include "tileops/core/error.hpp"

namespace tileops::cuda {

// Blocks of kGridRowThreads threads, kGridRowBlocksPerSm of them resident on an SM (the launch
// bounds of TILEOPS_ROW_BOUNDS hold a thread to 64 registers), each thread keeping up to
// kRowCache packs of its row in registers and re-reading the rest.
inline constexpr unsigned kGridRowThreads = 256;
inline constexpr int64_t kGridRowBlocksPerSm = 4;
// 16-byte packs a thread aims for: every block polls every other block's slot, so fewer, fuller
// blocks make the exchange cheaper, while a thread's packs still load in one DRAM round trip.
// Four beat one and two on most rows measured on the H200 (64x32768 bf16 softmax: 8.3 us against
// 8.8 with one or two; docs/perf/h200-grid-rows-2026-12-03).
inline constexpr int64_t kGridRowPacksPerThread = 4;
// Rows shorter than these go to one block a row, which the H200 measured faster than the grid's
// exchange there (docs/perf/h200-grid-rows-2026-12-03): softmax's rows of 16384 (17 to 128 of
// them: 4.0-5.1 us against 5.5-8.1 on the grid; at 32768 the grid won, 6.9 against 8.9 on 17
// rows), the norms' rows of 32768 (RMSNorm 5.7-8.3 us against 5.8-8.7, LayerNorm 7.5-11.0
// against 8.5-11.6; at 65536 the grid won, RMSNorm 32 rows 7.0 against 9.6).
inline constexpr int64_t kGridSoftmaxLongRow = 32768;
inline constexpr int64_t kGridNormLongRow = 65536;

// Measurement switches, read once: TILEOPS_GRID_ROW_PACKS=<1..16> replaces
// kGridRowPacksPerThread, TILEOPS_GRID_ROW_FLOOR=<n> the shortest row the grid takes (both
// kinds), so a sweep can time the grid where dispatch would not take it.
inline int64_t grid_row_env(const char* name, int64_t fallback, int64_t lo, int64_t hi) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long long parsed = std::strtoll(v, &end, 10);
  if (*end != '\0' || parsed < lo || parsed > hi) {
    throw ValueError(fmt::format("{}: expected an integer in [{}, {}], got '{}'", name, lo, hi, v));
  }
  return parsed;
}
inline int64_t grid_row_packs_per_thread() {
  static const int64_t packs =
      grid_row_env("TILEOPS_GRID_ROW_PACKS", kGridRowPacksPerThread, 1, 16);
  return packs;
}
inline std::optional<int64_t> grid_row_floor_override() {
  static const int64_t floor = grid_row_env("TILEOPS_GRID_ROW_FLOOR", 0, 0, int64_t{1} << 40);
  return floor > 0 ? std::optional<int64_t>(floor) : std::nullopt;
}

// Rows the grid rows serve: few long rows (common/long_rows.hpp) of `shortest` elements or more.
inline std::optional<std::string> grid_rows_refusal(DType dtype, int64_t rows, int64_t n,
                                                    int64_t shortest, const DeviceFacts& facts) {
  if (auto floor = grid_row_floor_override()) shortest = *floor;
  if (auto why = few_long_rows_refusal(dtype, rows, n, facts)) return why;
  if (n < shortest) {
    return fmt::format("rows of {} elements are shorter than {}: one block a row walks them faster",
                       n, shortest);
  }
  return std::nullopt;
}
inline constexpr int64_t kGridSlotBytes = 16;  // GridSlot: a partial and its stamp

// Blocks a row: kGridRowPacksPerThread packs of 16 bytes a thread, in as many blocks as that
// takes, up to the blocks the device holds at once shared among the rows. Counted in bytes, so
// rows read an element at a time (off the 16-byte pack) take as many blocks as aligned ones.
inline int64_t grid_row_blocks(DType dtype, int64_t rows, int64_t n, int sms) {
  const int64_t bytes = n * static_cast<int64_t>(dtype_size(dtype));
  const int64_t per_block = grid_row_packs_per_thread() * 16 * kGridRowThreads;
  const int64_t resident =
      std::max<int64_t>(kGridRowBlocksPerSm * sms / std::max<int64_t>(rows, 1), 1);
  return std::clamp<int64_t>((bytes + per_block - 1) / per_block, 1, resident);
}

// The exchange's regions, one a row (grid_region_slots in device/grid_exchange.cuh).
inline int64_t grid_rows_workspace_bytes(DType dtype, int64_t rows, int64_t n, int sms) {
  return rows * (1 + 2 * grid_row_blocks(dtype, rows, n, sms)) * kGridSlotBytes;
}

inline KernelSpec grid_row_spec(const RowKernelDecl& k, DType dtype, int vec) {
  return row_kernel_spec(k, dtype, vec, kRowCache, 0, 0, true);
}

// Every source a grid-rows kernel may run for dtype: wide and scalar access.
inline std::vector<KernelSource> grid_row_kernel_variants(const RowKernelDecl& k, DType dtype) {
  return {grid_row_spec(k, dtype, wide_vector_width(dtype)).source(),
          grid_row_spec(k, dtype, 1).source()};
}

// The functions of one row kernel and dtype with the grid a row, compiled on first use.
class GridRowKernelSet {
 public:
  GridRowKernelSet(const RowKernelDecl& kernel, DType dtype)
      : dtype_(dtype),
        wide_vec_(wide_vector_width(dtype)),
        wide_(grid_row_spec(kernel, dtype, wide_vec_)),
        narrow_(grid_row_spec(kernel, dtype, 1)) {}

  // One call over `rows` rows of n elements, as ClusterRowKernelSet::run, with the workspace of
  // grid_rows_workspace_bytes; `who` names the implementation in errors.
  void run(std::string_view who, int64_t rows, int64_t n,
           std::initializer_list<const Tensor*> inputs,
           std::initializer_list<const Tensor*> outputs, std::initializer_list<void*> scalars,
           const Tensor& workspace) {
    const int device = device_of(**inputs.begin());
    const int64_t blocks = grid_row_blocks(dtype_, rows, n, sm_count(device));
    const int64_t need = grid_rows_workspace_bytes(dtype_, rows, n, sm_count(device));
    if (!workspace.defined() || static_cast<int64_t>(workspace.nbytes()) < need) {
      throw ContractError(fmt::format(
          "{}: the grid rows need the {}-byte workspace that workspace_bytes asked for, got {}",
          who, need, workspace.defined() ? static_cast<int64_t>(workspace.nbytes()) : 0));
    }
    const RowArgs a(rows, inputs, outputs, scalars, workspace.data());
    const int vec = spanned_vector_width(dtype_, n, a.tensors());
    last_vec_.store(vec, std::memory_order_relaxed);
    last_blocks_.store(blocks, std::memory_order_relaxed);
    launch_cooperative((vec == wide_vec_ ? wide_ : narrow_).get(device), device,
                       static_cast<unsigned>(blocks), static_cast<unsigned>(rows), kGridRowThreads,
                       a.args());
  }

  std::string last_config() const {
    return fmt::format("blocks_per_row={},threads={},cache={},vec={}", last_blocks_.load(),
                       kGridRowThreads, kRowCache, last_vec_.load());
  }

 private:
  DType dtype_;
  int wide_vec_;
  CudaFunction wide_, narrow_;
  std::atomic<int> last_vec_{0};
  std::atomic<int64_t> last_blocks_{0};
};

template <typename Derived, typename InterfaceT>
class GridRowsCuda : public PerDTypeCuda<Derived, InterfaceT> {
 public:
  explicit GridRowsCuda(DType dtype) : set_(Derived::kernel(), dtype) {}
  std::string config() const override { return set_.last_config(); }

 protected:
  GridRowKernelSet set_;
};

}  // namespace tileops::cuda
