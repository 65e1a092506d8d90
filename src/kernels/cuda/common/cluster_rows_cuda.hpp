// The host class template of the row kernels run with a thread-block cluster a row (their
// CLUSTER > 0), on Hopper and later, for few long rows (common/long_rows.hpp). Each of the
// cluster's blocks keeps its share of the row in registers and the blocks merge their partial
// sums through distributed shared memory, in one launch and with no workspace. A block takes an
// SM, and past the clusters that run at once (cluster_rows_wave) rows would run in waves: those
// go to the grid a row (common/grid_rows_cuda.hpp). Derived declares
// `static RowKernelDecl kernel()` (the same source as its one-block-a-row sibling) and run(),
// which hands its tensors and scalars to set_.run.
#pragma once

#include <algorithm>
#include <atomic>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernels/cuda/common/long_rows.hpp"
#include "kernels/cuda/common/per_dtype_kernel.hpp"
#include "kernels/cuda/common/row_tuning.hpp"

namespace tileops::cuda {

inline constexpr unsigned kClusterRowBlocks = 8;  // the portable cluster size
inline constexpr unsigned kClusterRowThreads = 1024;
inline constexpr int kClusterRowsCache = 4;
// 16-byte packs a cluster keeps in registers: 32768 (262144 16-bit elements).
inline constexpr int64_t kClusterRowMaxPacks =
    int64_t{kClusterRowBlocks} * kClusterRowThreads * kClusterRowsCache;

// Rows this kernel family serves: few long rows of at most kClusterRowMaxPacks packs of 16 bytes,
// no more of them than one wave of clusters holds.
inline std::optional<std::string> cluster_rows_refusal(DType dtype, int64_t rows, int64_t n,
                                                       const DeviceFacts& facts) {
  if (auto why = few_long_rows_refusal(dtype, rows, n, facts)) return why;
  const int64_t max_n = kClusterRowMaxPacks * wide_vector_width(dtype);
  if (n > max_n) {
    return fmt::format("a row of {} elements does not fit a cluster's registers (at most {})", n,
                       max_n);
  }
  if (rows > cluster_rows_wave(facts.sm_count)) {
    return fmt::format(
        "{} rows need more clusters than the {} that run at once on {} SMs (a cluster of {} "
        "blocks a row, a block an SM, clusters inside a GPC)",
        rows, cluster_rows_wave(facts.sm_count), facts.sm_count, kClusterRowBlocks);
  }
  return std::nullopt;
}

inline KernelSpec cluster_row_spec(const RowKernelDecl& k, DType dtype, int vec) {
  return row_kernel_spec(k, dtype, vec, kClusterRowsCache, 0, static_cast<int>(kClusterRowBlocks));
}

// Every source a cluster-rows kernel may run for dtype: wide and scalar access.
inline std::vector<KernelSource> cluster_row_kernel_variants(const RowKernelDecl& k, DType dtype) {
  return {cluster_row_spec(k, dtype, wide_vector_width(dtype)).source(),
          cluster_row_spec(k, dtype, 1).source()};
}

// The functions of one row kernel and dtype with a cluster a row, compiled on first use.
class ClusterRowKernelSet {
 public:
  ClusterRowKernelSet(const RowKernelDecl& kernel, DType dtype)
      : dtype_(dtype),
        wide_vec_(wide_vector_width(dtype)),
        wide_(cluster_row_spec(kernel, dtype, wide_vec_)),
        narrow_(cluster_row_spec(kernel, dtype, 1)) {}

  // One call over `rows` rows of n elements; the kernel's arguments are the data pointers of
  // inputs, then of outputs, then `scalars` (pointers to their values), then the row count.
  void run(int64_t rows, int64_t n, std::initializer_list<const Tensor*> inputs,
           std::initializer_list<const Tensor*> outputs, std::initializer_list<void*> scalars) {
    const RowArgs a(rows, inputs, outputs, scalars);
    const int vec = spanned_vector_width(dtype_, n, a.tensors());
    last_vec_.store(vec, std::memory_order_relaxed);
    launch_clusters((vec == wide_vec_ ? wide_ : narrow_).get(a.device()), a.device(),
                    kClusterRowBlocks, static_cast<unsigned>(rows), kClusterRowThreads,
                    kClusterRowBlocks, a.args());
  }

  std::string last_config() const {
    return fmt::format("cluster={},threads={},vec={}", kClusterRowBlocks, kClusterRowThreads,
                       last_vec_.load());
  }

 private:
  DType dtype_;
  int wide_vec_;
  CudaFunction wide_, narrow_;
  std::atomic<int> last_vec_{0};
};

template <typename Derived, typename InterfaceT>
class ClusterRowsCuda : public PerDTypeCuda<Derived, InterfaceT> {
 public:
  // Thread-block clusters and distributed shared memory: every architecture from Hopper on.
  static constexpr int supported_archs[] = {90, 100, 103, 110, 120, 121};

  explicit ClusterRowsCuda(DType dtype) : set_(Derived::kernel(), dtype) {}
  std::string config() const override { return set_.last_config(); }

 protected:
  ClusterRowKernelSet set_;
};

}  // namespace tileops::cuda
