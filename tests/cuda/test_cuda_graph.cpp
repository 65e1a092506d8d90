// A cached call enqueues work on the caller's stream without synchronising the host, so it can
// be captured in a CUDA graph and replayed; errors still come before anything is enqueued.
#include "support/cuda_support.hpp"
#include "tileops/ops/normalization/rms_norm_fwd_op.hpp"
#include "tileops/ops/reduction/softmax_fwd_op.hpp"

namespace tileops {
namespace {

TEST(CudaGraph, CachedCallIsCapturedAndReplays) {
  TILEOPS_REQUIRE_CUDA();
  RMSNormFwdOp op({.normalized_shape = {4096}});
  const Tensor x = testing::device_copy(random_tensor({8, 4096}, DType::kBFloat16, 11));
  const Tensor w = testing::device_copy(random_tensor({4096}, DType::kBFloat16, 12));
  const Tensor expected = testing::host_copy(op(x, w));  // first call: compiles and caches
  Tensor out = Tensor::empty({8, 4096}, DType::kBFloat16, Device::cuda(0));
  cuda::StreamHandle stream = cuda::create_stream(0);
  {
    cuda::StreamGuard guard(0, stream);
    cuda::fill_bytes(out, 0xff);
    cuda::synchronize(0);
    cuda::Graph graph(0, stream);
    op.call_into(std::vector<Tensor>{x, w}, std::vector<Tensor>{out});
    graph.end_capture();
    graph.replay();
    cuda::synchronize(0);
  }
  const Comparison c = compare(testing::host_copy(out), expected, Tolerance{0, 0});
  EXPECT_TRUE(c.ok()) << c.str();
}

TEST(CudaGraph, OpsUseTheCallersStream) {
  TILEOPS_REQUIRE_CUDA();
  RMSNormFwdOp op({.normalized_shape = {64}});
  const Tensor x = testing::device_copy(random_tensor({2, 64}, DType::kFloat32, 3));
  const Tensor w = testing::device_copy(random_tensor({64}, DType::kFloat32, 4));
  op(x, w);
  cuda::StreamHandle stream = cuda::create_stream(0);
  cuda::StreamGuard guard(0, stream);
  EXPECT_EQ(cuda::current_stream(0), stream);
  Tensor y = op(x, w);
  cuda::synchronize(0);
  EXPECT_EQ(y.device(), Device::cuda(0));
}

TEST(CudaGraph, ANullStreamIsTheLegacyDefaultStream) {
  TILEOPS_REQUIRE_CUDA();
  SoftmaxFwdOp op({.dim = -1});
  // An LM-head shape: the split-row path allocates a scratch buffer on the current stream too.
  const Tensor x = testing::device_copy(random_tensor({4, 102400}, DType::kBFloat16, 5));
  const Tensor expected = testing::host_copy(op(x));
  cuda::StreamGuard guard(0, nullptr);
  EXPECT_EQ(cuda::current_stream(0), cuda::legacy_default_stream());
  const Tensor y = op(x);
  cuda::synchronize(0);
  const Comparison c = compare(testing::host_copy(y), expected, Tolerance{0, 0});
  EXPECT_TRUE(c.ok()) << c.str();
}

TEST(CudaErrors, MixedDevicesAreRejectedBeforeAnyLaunch) {
  TILEOPS_REQUIRE_CUDA();
  RMSNormFwdOp op({.normalized_shape = {64}});
  const Tensor x = testing::device_copy(random_tensor({2, 64}, DType::kFloat32, 3));
  const Tensor w = random_tensor({64}, DType::kFloat32, 4);  // still on the CPU
  EXPECT_THROW(op(x, w), DeviceError);
}

}  // namespace
}  // namespace tileops
