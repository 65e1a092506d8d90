// gemm_cublaslt on the GPU against the float64 references, every output element, outputs
// poisoned first, fresh random inputs each run (skipped without a GPU or without libcublasLt):
// float32 in every layout and edge shape, 16-bit calls whose leading dimensions tileops's
// tensor-core kernels refuse (every column 2-byte aligned only), the bias and residual epilogue,
// and batches.
#include "runtime/cuda/cublaslt_api.hpp"
#include "support/cuda_support.hpp"
#include "tileops/ops/gemm/bmm_fwd_op.hpp"
#include "tileops/ops/gemm/gemm_fwd_op.hpp"
#include "tileops/ops/gemm/linear_fwd_op.hpp"

namespace tileops {
namespace {

using testing::cuda_matches_reference;

#define TILEOPS_REQUIRE_CUBLASLT()                                                      \
  do {                                                                                  \
    TILEOPS_REQUIRE_CUDA();                                                             \
    if (!cuda::cublaslt_available()) {                                                  \
      GTEST_SKIP() << "cuBLASLt not loadable: " << cuda::cublaslt_unavailable_reason(); \
    }                                                                                   \
  } while (0)

struct Mnk {
  int64_t m, n, k;
};

// 16-bit shapes have every dimension odd, so no leading dimension is a multiple of 8 elements
// and tileops's tensor-core kernels refuse every layout; float32 only goes to cuBLASLt.
std::vector<Mnk> shapes_for(DType dtype) {
  if (dtype == DType::kFloat32) {
    return {{1, 1, 1}, {7, 33, 45}, {1000, 520, 136}, {64, 4097, 64}, {1, 4096, 4096}};
  }
  // 1001x517x1003 with trans_b = false summed wrongly when the plan claimed 16-byte columns.
  return {{1, 9, 4097}, {7, 33, 45}, {67, 131, 45}, {1001, 517, 1003}, {1000, 522, 1002}};
}

class CudaCublasLt : public ::testing::TestWithParam<DType> {};

TEST_P(CudaCublasLt, EveryLayoutAndEdgeShape) {
  TILEOPS_REQUIRE_CUBLASLT();
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      GemmFwdOp op({.trans_a = ta, .trans_b = tb});
      for (const Mnk& s : shapes_for(GetParam())) {
        const Shape a = ta ? Shape{s.k, s.m} : Shape{s.m, s.k};
        const Shape b = tb ? Shape{s.n, s.k} : Shape{s.k, s.n};
        EXPECT_TRUE(cuda_matches_reference(op, {a, b}, GetParam()))
            << "trans_a=" << ta << " trans_b=" << tb << " " << s.m << "x" << s.n << "x" << s.k;
        EXPECT_EQ(op.last_call()->served_by, "gemm_cublaslt");
      }
    }
  }
}

TEST_P(CudaCublasLt, BiasAndResidualInTheEpilogue) {
  TILEOPS_REQUIRE_CUBLASLT();
  LinearFwdOp op;
  for (const Mnk& s : shapes_for(GetParam())) {
    for (int tail = 1; tail < 4; ++tail) {
      const bool bias = tail & 1, residual = tail & 2;
      std::vector<std::optional<Shape>> shapes{
          Shape{s.m, s.k}, Shape{s.n, s.k}, bias ? std::optional<Shape>(Shape{s.n}) : std::nullopt,
          residual ? std::optional<Shape>(Shape{s.m, s.n}) : std::nullopt};
      EXPECT_TRUE(cuda_matches_reference(op, shapes, GetParam()))
          << "bias=" << bias << " residual=" << residual << " " << s.m << "x" << s.n << "x" << s.k;
      EXPECT_EQ(op.last_call()->served_by, "gemm_cublaslt");
    }
  }
}

TEST_P(CudaCublasLt, StridedBatches) {
  TILEOPS_REQUIRE_CUBLASLT();
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      BmmFwdOp op({.trans_a = ta, .trans_b = tb});
      for (const Mnk& s : {Mnk{7, 33, 45}, Mnk{129, 65, 257}}) {
        const int64_t batch = 5;
        const Shape a = ta ? Shape{batch, s.k, s.m} : Shape{batch, s.m, s.k};
        const Shape b = tb ? Shape{batch, s.n, s.k} : Shape{batch, s.k, s.n};
        EXPECT_TRUE(cuda_matches_reference(op, {a, b}, GetParam()))
            << "trans_a=" << ta << " trans_b=" << tb << " " << s.m << "x" << s.n << "x" << s.k;
        EXPECT_EQ(op.last_call()->served_by, "gemm_cublaslt");
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, CudaCublasLt,
                         ::testing::Values(DType::kFloat32, DType::kBFloat16, DType::kFloat16),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

}  // namespace
}  // namespace tileops
