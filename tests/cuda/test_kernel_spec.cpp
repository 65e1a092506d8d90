// Kernel specs and the named-header closure, and TMA addressability checks: host-side logic of
// the kernel layer that needs no GPU.
#include <gtest/gtest.h>

#include "kernels/cuda/host/kernel_spec.hpp"
#include "kernels/cuda/host/tensor_map.hpp"
#include "tileops/core/error.hpp"

namespace tileops::cuda {
namespace {

KernelSpec gemm_spec() {
  return KernelSpec(
      "gemm/gemm_sm90_ws.cu", "gemm_sm90_ws_kernel",
      {KernelConstant::type_of("T", "bf16"), KernelConstant::integer("BM", 128),
       KernelConstant::integer("BN", 256), KernelConstant::integer("BK", 64),
       KernelConstant::integer("STAGES", 4), KernelConstant::integer("GROUP_M", 8),
       KernelConstant::boolean("A_K_MAJOR", true), KernelConstant::boolean("B_K_MAJOR", false)});
}

TEST(KernelSpec, NameAndPreludeSpellEveryConstant) {
  const KernelSpec spec = gemm_spec();
  EXPECT_EQ(spec.name(), "gemm_sm90_ws_kernel_bf16_128_256_64_4_8_1_0");
  const std::string prelude = spec.prelude();
  EXPECT_NE(prelude.find("using T = tileops::dev::bf16;"), std::string::npos);
  EXPECT_NE(prelude.find("constexpr int BN = 256;"), std::string::npos);
  EXPECT_NE(prelude.find("constexpr bool B_K_MAJOR = false;"), std::string::npos);
  EXPECT_EQ(spec.integer("STAGES"), 4);
  EXPECT_EQ(spec.integer("A_K_MAJOR"), 1);
  EXPECT_THROW(spec.integer("T"), ContractError);
  EXPECT_THROW(spec.integer("NOPE"), ContractError);
}

// Entries of one specialised source share a translation unit, and so one cached cubin.
TEST(KernelSpec, EntriesOfOneSpecialisedSourceShareTheirUnit) {
  const std::vector<KernelConstant> constants{KernelConstant::type_of("T", "bf16"),
                                              KernelConstant::boolean("HAS_WEIGHT", true),
                                              KernelConstant::boolean("HAS_BIAS", false)};
  const KernelSpec stats("normalization/batch_norm.cu", "batch_norm_stats_kernel", constants);
  const KernelSpec apply("normalization/batch_norm.cu", "batch_norm_apply_kernel", constants);
  EXPECT_EQ(stats.unit(), "batch_norm_bf16_1_0");
  EXPECT_EQ(stats.unit(), apply.unit());
  EXPECT_NE(stats.name(), apply.name());
  EXPECT_EQ(stats.source().unit, stats.unit());
  EXPECT_EQ(stats.source().source, apply.source().source);
  const KernelSpec other(
      "normalization/batch_norm.cu", "batch_norm_apply_kernel",
      {KernelConstant::type_of("T", "bf16"), KernelConstant::boolean("HAS_WEIGHT", false),
       KernelConstant::boolean("HAS_BIAS", false)});
  EXPECT_NE(other.unit(), apply.unit());
}

TEST(KernelSpec, SourceCarriesExactlyTheHeadersItIncludes) {
  const KernelSource source = gemm_spec().source();
  std::vector<std::string> names;
  for (const NamedHeader& h : source.headers) names.push_back(h.name);
  // The kernel's own includes, and what they include in turn; nothing it does not reach.
  for (const char* expected :
       {"device/numeric.cuh", "device/vec.cuh", "device/sm90/cluster.cuh",
        "device/sm90/mbarrier.cuh", "device/sm90/scheduler.cuh", "device/sm90/tma.cuh",
        "device/sm90/warpgroup.cuh", "device/sm90/wgmma.cuh", "device/sm90/wgmma_ops.cuh"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  for (const char* absent : {"device/mma_sync.cuh", "device/reduce.cuh", "common/common.cuh"}) {
    EXPECT_EQ(std::find(names.begin(), names.end(), absent), names.end()) << absent;
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(KernelSpec, AMissingHeaderIsAContractError) {
  EXPECT_THROW(included_headers("#include \"device/no_such_header.cuh\"\n"), ContractError);
  EXPECT_TRUE(included_headers("// no includes\n").empty());
}

TEST(TensorMap, SaysWhyAMatrixCannotBeAddressed) {
  alignas(16) static unsigned char data[4096];
  EXPECT_FALSE(tma_unsupported({data, DType::kBFloat16, 16, 64, 64}).has_value());
  EXPECT_FALSE(tma_unsupported({data, DType::kBFloat16, 1, 7, 7}).has_value());  // one row
  const auto misaligned = tma_unsupported({data + 2, DType::kBFloat16, 16, 64, 64});
  ASSERT_TRUE(misaligned.has_value());
  EXPECT_NE(misaligned->find("16-byte aligned"), std::string::npos);
  const auto stride = tma_unsupported({data, DType::kBFloat16, 16, 60, 60});
  ASSERT_TRUE(stride.has_value());
  EXPECT_NE(stride->find("60 elements, 120 bytes"), std::string::npos);
  EXPECT_TRUE(tma_unsupported({data, DType::kFloat64, 4, 4, 4}).has_value());
}

}  // namespace
}  // namespace tileops::cuda
