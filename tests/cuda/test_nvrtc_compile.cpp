// Every CUDA kernel variant tileops can build compiles for sm_90a with NVRTC. Needs no GPU: this
// is how CI proves the CUDA kernels build.
#include <cstdlib>
#include <regex>

#include <gtest/gtest.h>

#include "kernels/cuda/cuda_kernel.hpp"
#include "kernels/cuda/host/kernel_spec.hpp"
#include "runtime/cuda/kernel_cache.hpp"
#include "runtime/cuda/nvrtc_api.hpp"
#include "support/scoped_state.hpp"

namespace tileops::cuda {
namespace {

// The variants are split into kShards interleaved shares, one test each, so that ctest runs them
// side by side and no one test nears its timeout as kernels gain variants.
constexpr int kShards = 4;

class NvrtcCompile : public ::testing::TestWithParam<int> {};

TEST_P(NvrtcCompile, EveryKernelVariantCompilesForSm90a) {
  if (!nvrtc_available()) GTEST_SKIP() << "NVRTC is not installed on this machine";
  const auto variants = all_cuda_variants();
  ASSERT_GE(variants.size(), static_cast<size_t>(kShards));
  // TILEOPS_NVRTC_VARIANTS=<regex> compiles only the matching names (a quick check while editing
  // one kernel); CI leaves it unset.
  const char* only = std::getenv("TILEOPS_NVRTC_VARIANTS");
  const std::regex filter(only != nullptr ? only : ".*");
  for (size_t i = static_cast<size_t>(GetParam()); i < variants.size(); i += kShards) {
    const KernelSource& v = variants[i];
    if (!std::regex_search(v.name, filter)) continue;
    SCOPED_TRACE(v.name);
    CompileResult r;
    EXPECT_NO_THROW(r = nvrtc_compile(v.name, v.source, v.options, "sm_90a", v.headers));
    EXPECT_GT(r.cubin.size(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Shards, NvrtcCompile, ::testing::Range(0, kShards));

// The cache's file format and its behaviour under a bad environment are tested with a fake
// compiler in test_kernel_cache.cpp; this is the same path with NVRTC.
TEST(NvrtcKernelCache, CompilesOnceThenServesFromDiskAndRebuildsDamage) {
  if (!nvrtc_available()) GTEST_SKIP() << "NVRTC is not installed on this machine";
  char pattern[] = "/tmp/tileops-nvrtc-cache-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::filesystem::path dir = pattern;
  testing::ScopedEnv cache_dir("TILEOPS_CACHE_DIR", dir.c_str());
  const KernelSource src{
      "tiny_test_kernel", "extern \"C\" __global__ void k(float* p) { p[0] = 1; }", {}};
  CachedBinary first = cached_cubin(src, "sm_90a", 0);
  EXPECT_FALSE(first.from_cache);
  CachedBinary second = cached_cubin(src, "sm_90a", 0);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(first.cubin, second.cubin);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".cubin") std::filesystem::resize_file(entry.path(), 40);
  }
  CachedBinary rebuilt = cached_cubin(src, "sm_90a", 0);
  EXPECT_FALSE(rebuilt.from_cache);
  EXPECT_EQ(rebuilt.cubin, first.cubin);
  std::filesystem::remove_all(dir);
}

// Two entries of one specialised source compile once: the second finds the first's cubin.
TEST(NvrtcKernelCache, EntriesOfOneSourceShareOneCompile) {
  if (!nvrtc_available()) GTEST_SKIP() << "NVRTC is not installed on this machine";
  char pattern[] = "/tmp/tileops-nvrtc-cache-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::filesystem::path dir = pattern;
  testing::ScopedEnv cache_dir("TILEOPS_CACHE_DIR", dir.c_str());
  const std::vector<KernelConstant> constants{KernelConstant::type_of("T", "float"),
                                              KernelConstant::boolean("HAS_WEIGHT", true),
                                              KernelConstant::boolean("HAS_BIAS", true)};
  const KernelSource stats =
      KernelSpec("normalization/batch_norm.cu", "batch_norm_stats_kernel", constants).source();
  const KernelSource apply =
      KernelSpec("normalization/batch_norm.cu", "batch_norm_apply_kernel", constants).source();
  EXPECT_FALSE(cached_cubin(stats, "sm_90a", 0).from_cache);
  EXPECT_TRUE(cached_cubin(apply, "sm_90a", 0).from_cache);
  int cubins = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    cubins += entry.path().extension() == ".cubin";
  }
  EXPECT_EQ(cubins, 1);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tileops::cuda
