// A cached call enqueues work on the caller's stream without synchronising the host, so it can
// be captured in a CUDA graph and replayed; errors still come before anything is enqueued.
#include "support/cuda_support.hpp"
#include "tileops/ops/normalization/batch_norm_fwd_op.hpp"
#include "tileops/ops/normalization/layer_norm_fwd_op.hpp"
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

// The grid softmax's blocks tell this launch's partials from earlier ones by a stamp: the replays
// of one graph share its workspace and their %gridid, so each must advance the workspace's
// generation to see its own. The input changes between replays.
TEST(CudaGraph, GridRowsReplaysKeepTheirPartialsApart) {
  TILEOPS_REQUIRE_CUDA();
  SoftmaxFwdOp op({.dim = -1});
  const Tensor first = testing::device_copy(random_tensor({20, 131072}, DType::kBFloat16, 21));
  const Tensor second = testing::device_copy(random_tensor({20, 131072}, DType::kBFloat16, 22));
  const Tensor want_first = testing::host_copy(op(first));
  ASSERT_EQ(op.last_call()->served_by, "softmax_grid_cuda");
  const Tensor want_second = testing::host_copy(op(second));
  const Tensor x = testing::device_copy(testing::host_copy(first));
  Tensor out = Tensor::empty({20, 131072}, DType::kBFloat16, Device::cuda(0));
  cuda::StreamHandle stream = cuda::create_stream(0);
  cuda::StreamGuard guard(0, stream);
  cuda::fill_bytes(out, 0xff);
  cuda::synchronize(0);
  cuda::Graph graph(0, stream);
  op.call_into(std::vector<Tensor>{x}, std::vector<Tensor>{out});
  graph.end_capture();
  for (int replay = 0; replay < 4; ++replay) {
    const bool odd = replay % 2 == 1;
    cuda::copy(x, odd ? second : first);
    cuda::fill_bytes(out, 0xff);
    graph.replay();
    cuda::synchronize(0);
    const Comparison c =
        compare(testing::host_copy(out), odd ? want_second : want_first, Tolerance{0, 0});
    EXPECT_TRUE(c.ok()) << "replay " << replay << ": " << c.str();
  }
}

// LayerNorm's grid rows exchange twice a launch (the mean, then the centred squares), over
// alternating slot sets; each replay must still see only its own.
TEST(CudaGraph, GridLayerNormReplaysKeepBothExchangesApart) {
  TILEOPS_REQUIRE_CUDA();
  const int64_t rows = 24, n = 65536;
  LayerNormFwdOp op({.normalized_shape = {n}});
  const Tensor w = testing::device_copy(random_tensor({n}, DType::kBFloat16, 31));
  const Tensor b = testing::device_copy(random_tensor({n}, DType::kBFloat16, 32));
  const Tensor inputs[] = {testing::device_copy(random_tensor({rows, n}, DType::kBFloat16, 33)),
                           testing::device_copy(random_tensor({rows, n}, DType::kBFloat16, 34))};
  Tensor wants[2];
  for (int i = 0; i < 2; ++i) wants[i] = testing::host_copy(op(inputs[i], w, b));
  ASSERT_EQ(op.last_call()->served_by, "layer_norm_grid_cuda");
  const Tensor x = testing::device_copy(testing::host_copy(inputs[0]));
  Tensor out = Tensor::empty({rows, n}, DType::kBFloat16, Device::cuda(0));
  cuda::StreamHandle stream = cuda::create_stream(0);
  cuda::StreamGuard guard(0, stream);
  cuda::synchronize(0);
  cuda::Graph graph(0, stream);
  op.call_into(std::vector<Tensor>{x, w, b}, std::vector<Tensor>{out});
  graph.end_capture();
  for (int replay = 0; replay < 4; ++replay) {
    cuda::copy(x, inputs[replay % 2]);
    cuda::fill_bytes(out, 0xff);
    graph.replay();
    cuda::synchronize(0);
    const Comparison c = compare(testing::host_copy(out), wants[replay % 2], Tolerance{0, 0});
    EXPECT_TRUE(c.ok()) << "replay " << replay << ": " << c.str();
  }
}

// BatchNorm's split training takes its statistics from the op's workspace (zeroed by a memset
// in the graph), so replays of one capture each start from zero sums and update the running
// statistics in place, as eager calls do.
TEST(CudaGraph, BatchNormTrainingReplaysAccumulateLikeEagerCalls) {
  TILEOPS_REQUIRE_CUDA();
  const Shape shape{8, 16, 64, 64};
  const Shape channels{16};
  BatchNormFwdOp op({.training = true, .momentum = 0.25});
  const Tensor inputs[] = {testing::device_copy(random_tensor(shape, DType::kFloat32, 41)),
                           testing::device_copy(random_tensor(shape, DType::kFloat32, 42))};
  const Tensor mean0 = random_tensor(channels, DType::kFloat32, 43);
  const Tensor var0 = random_tensor(channels, DType::kFloat32, 44);
  Tensor eager_mean = testing::device_copy(mean0), eager_var = testing::device_copy(var0);
  Tensor wants[2];
  for (int i = 0; i < 2; ++i) {
    Tensor out = Tensor::empty(shape, DType::kFloat32, Device::cuda(0));
    op.call_into(std::vector<Tensor>{inputs[i], eager_mean, eager_var, Tensor(), Tensor()},
                 std::vector<Tensor>{out});
    wants[i] = testing::host_copy(out);
  }
  ASSERT_EQ(op.last_call()->served_by, "batch_norm_train_cuda_split");
  const Tensor x = testing::device_copy(testing::host_copy(inputs[0]));
  Tensor mean = testing::device_copy(mean0), var = testing::device_copy(var0);
  Tensor out = Tensor::empty(shape, DType::kFloat32, Device::cuda(0));
  cuda::StreamHandle stream = cuda::create_stream(0);
  cuda::StreamGuard guard(0, stream);
  cuda::synchronize(0);
  cuda::Graph graph(0, stream);
  op.call_into(std::vector<Tensor>{x, mean, var, Tensor(), Tensor()}, std::vector<Tensor>{out});
  graph.end_capture();
  // The sums are double atomics, so the order of the blocks' adds may change the last bits.
  const Tolerance tol{1e-5, 1e-5};
  for (int replay = 0; replay < 2; ++replay) {
    cuda::copy(x, inputs[replay]);
    cuda::fill_bytes(out, 0xff);
    graph.replay();
    cuda::synchronize(0);
    const Comparison c = compare(testing::host_copy(out), wants[replay], tol);
    EXPECT_TRUE(c.ok()) << "replay " << replay << ": " << c.str();
  }
  const Comparison m = compare(testing::host_copy(mean), testing::host_copy(eager_mean), tol);
  const Comparison v = compare(testing::host_copy(var), testing::host_copy(eager_var), tol);
  EXPECT_TRUE(m.ok()) << "running_mean: " << m.str();
  EXPECT_TRUE(v.ok()) << "running_var: " << v.str();
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
  // More rows than a wave of clusters: the grid rows allocate their workspace on the current
  // stream too.
  const Tensor x = testing::device_copy(random_tensor({20, 102400}, DType::kBFloat16, 5));
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
