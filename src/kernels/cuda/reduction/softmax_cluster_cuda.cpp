// Softmax and LogSoftmax of few long rows on Hopper and later (softmax_cluster.cu): a cluster of
// blocks per row in one pass and one launch, the blocks' (max, sum) merged through distributed
// shared memory. Serves rows that fit the cluster's registers, no more of them than the device
// runs clusters at once (cluster_rows_wave; a second wave doubles the time, and
// softmax_grid_cuda takes those); preferred over the grid and row kernels.
#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/common/per_dtype_kernel.hpp"
#include "kernels/cuda/reduction/softmax_variants.hpp"

namespace tileops::cuda::softmax {
namespace {

// A cluster of kCluster blocks of kThreads threads, each thread keeping up to kClusterCache packs.
constexpr int kCluster = 8;
constexpr int kClusterCache = 8;
constexpr int kThreads = 512;

KernelSpec cluster_spec(DType dtype, int vec, bool log) {
  return KernelSpec(
      "reduction/softmax_cluster.cu", "softmax_cluster_kernel",
      {KernelConstant::type_of("T", cuda_type(dtype)), KernelConstant::integer("VEC", vec),
       log_constant(log), KernelConstant::integer("CLUSTER", kCluster),
       KernelConstant::integer("CLUSTER_CACHE", kClusterCache),
       KernelConstant::integer("THREADS", kThreads)});
}

// Packs each block of a row's cluster takes.
int64_t cluster_chunk(const SoftmaxCall& call) {
  const int64_t packs = call.n / vector_width(call);
  return (packs + kCluster - 1) / kCluster;
}

template <bool kLog>
class SoftmaxClusterCuda final
    : public PerDTypeCuda<SoftmaxClusterCuda<kLog>, typename Flavour<kLog>::Interface> {
 public:
  // Thread-block clusters and distributed shared memory: every architecture from Hopper on.
  static constexpr int supported_archs[] = {90, 100, 103, 110, 120, 121};
  static constexpr std::string_view preferred_over[] = {Flavour<kLog>::kGrid, Flavour<kLog>::kRows};

  static std::optional<std::string> refusal(const SoftmaxCall& call, const DeviceFacts& facts) {
    if (auto why = not_few_long_rows(call, facts)) return why;
    const int64_t fits = int64_t{kClusterCache} * kThreads;
    if (cluster_chunk(call) > fits) {
      return fmt::format(
          "a row of {} elements does not fit a cluster's registers ({} packs a block, at most {})",
          call.n, cluster_chunk(call), fits);
    }
    if (call.outer > cluster_rows_wave(facts.sm_count)) {
      return fmt::format(
          "{} rows need more clusters than the {} that run at once on {} SMs (a cluster of {} "
          "blocks a row, clusters inside a GPC)",
          call.outer, cluster_rows_wave(facts.sm_count), facts.sm_count, kCluster);
    }
    return std::nullopt;
  }

  explicit SoftmaxClusterCuda(DType dtype)
      : fns_(dtype, [&](int vec) { return cluster_spec(dtype, vec, kLog); }) {}

  void run(const SoftmaxCall& call, const Tensor& x, const Tensor& y,
           const Tensor& /*workspace*/) override {
    const int device = device_of(x);
    const void* xp = x.data();
    void* yp = y.data();
    int64_t n = call.n;
    int64_t chunk = cluster_chunk(call);
    launch_clusters(fns_.get(vector_width(call), device), device, kCluster,
                    static_cast<unsigned>(call.outer), kThreads, kCluster, {&xp, &yp, &n, &chunk});
  }

 private:
  WideAndNarrow fns_;
};

const StaticKernelRegistration<SoftmaxClusterCuda<false>> kSoftmax(
    Flavour<false>::kOp, std::string(Flavour<false>::kCluster));
const StaticKernelRegistration<SoftmaxClusterCuda<true>> kLogSoftmax(
    Flavour<true>::kOp, std::string(Flavour<true>::kCluster));
const bool kVariants = [] {
  register_cuda_variants("softmax_cluster", [] {
    std::vector<KernelSource> v;
    for (DType d : kDTypes) {
      for (bool log : {false, true}) {
        for (int vec : {wide_vector_width(d), 1}) v.push_back(cluster_spec(d, vec, log).source());
      }
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda::softmax
