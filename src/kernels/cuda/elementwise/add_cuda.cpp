// AddFwdOp on CUDA: a vectorised kernel for equal shapes; for broadcasting, dims are collapsed
// first, then a vectorised strided kernel where the last dim allows 16-byte accesses, else a
// scalar one.
#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/common/per_dtype_kernel.hpp"
#include "tileops/ops/elementwise/add_fwd_op.hpp"

namespace tileops::cuda {
namespace {

// Matches BroadcastDesc in add.cu (passed by value as a kernel parameter).
struct BroadcastDesc {
  int rank;
  int64_t shape[8];
  int64_t a_stride[8];
  int64_t b_stride[8];
};

KernelSpec add_spec(const char* entry, DType dtype, int vec) {
  return KernelSpec(
      "elementwise/add.cu", entry,
      {KernelConstant::type_of("T", cuda_type(dtype)), KernelConstant::integer("VEC", vec)});
}

// Strides of operand (right-aligned to out) with 0 where it broadcasts.
void broadcast_strides(const Shape& operand, const Shape& out, int64_t* strides) {
  const Shape dense = contiguous_strides(operand);
  for (int i = 0; i < out.rank(); ++i) {
    const int j = operand.rank() - out.rank() + i;
    strides[i] = (j < 0 || operand[j] == 1) ? 0 : dense[j];
  }
}

// Merges neighbouring dims that every operand walks the same way (contiguously, or broadcast in
// both), and drops extent-1 dims: [16, 256, 56, 56] + [256, 1, 1] becomes [16, 256, 3136].
void collapse(BroadcastDesc& d) {
  int rank = 0;
  for (int i = 0; i < d.rank; ++i) {
    if (d.shape[i] == 1) continue;
    if (rank > 0) {
      const int last = rank - 1;
      auto continues = [&](const int64_t* s) {
        return (s[last] == 0 && s[i] == 0) || (s[i] != 0 && s[last] == s[i] * d.shape[i]);
      };
      const int64_t a_stride = d.a_stride[i], b_stride = d.b_stride[i];
      if (continues(d.a_stride) && continues(d.b_stride)) {
        d.shape[last] *= d.shape[i];
        d.a_stride[last] = a_stride;
        d.b_stride[last] = b_stride;
        continue;
      }
    }
    d.shape[rank] = d.shape[i];
    d.a_stride[rank] = d.a_stride[i];
    d.b_stride[rank] = d.b_stride[i];
    ++rank;
  }
  if (rank == 0) {  // every dim had extent 1
    d.shape[0] = 1;
    d.a_stride[0] = d.b_stride[0] = 0;
    rank = 1;
  }
  d.rank = rank;
}

class AddCuda final : public PerDTypeCuda<AddCuda, AddKernel> {
 public:
  explicit AddCuda(DType dtype)
      : vec_(wide_vector_width(dtype)),
        same_(dtype, [&](int vec) { return add_spec("add_same_kernel", dtype, vec); }),
        broadcast_(add_spec("add_broadcast_kernel", dtype, 1)),
        broadcast32_(add_spec("add_broadcast32_kernel", dtype, 1)),
        broadcast_vec_(add_spec("add_broadcast_vec_kernel", dtype, vec_)),
        broadcast_vec32_(add_spec("add_broadcast_vec32_kernel", dtype, vec_)) {}

  void run(const AddCall& call, const Tensor& a, const Tensor& b, const Tensor& out) override {
    const int device = device_of(a);
    const void* ap = a.data();
    const void* bp = b.data();
    void* op = out.data();
    int64_t n = out.numel();
    float alpha = static_cast<float>(call.alpha);
    if (call.input_shape == call.output_shape && call.other_shape == call.output_shape) {
      const int vec = aligned16(ap) && aligned16(bp) && aligned16(op) ? vec_ : 1;
      const int64_t packs = std::max<int64_t>(n / vec, 1);
      launch_elementwise(same_.get(vec, device), device, packs, {&ap, &bp, &op, &n, &alpha});
      return;
    }
    BroadcastDesc d{};
    d.rank = call.output_shape.rank();
    for (int i = 0; i < d.rank; ++i) d.shape[i] = call.output_shape[i];
    broadcast_strides(call.input_shape, call.output_shape, d.a_stride);
    broadcast_strides(call.other_shape, call.output_shape, d.b_stride);
    collapse(d);
    // Offsets of every operand stay below the output's element count, so 32 bits suffice below
    // 2^31.
    const bool small = n < (int64_t{1} << 31);
    const int inner = d.rank - 1;
    const bool inner_ok = d.shape[inner] % vec_ == 0 && d.a_stride[inner] <= 1 &&
                          d.b_stride[inner] <= 1 && aligned16(ap) && aligned16(bp) && aligned16(op);
    if (inner_ok && vec_ > 1) {
      int a_vec = d.a_stride[inner] == 1 ? 1 : 0, b_vec = d.b_stride[inner] == 1 ? 1 : 0;
      d.shape[inner] /= vec_;
      d.a_stride[inner] *= vec_;
      d.b_stride[inner] *= vec_;
      int64_t packs = n / vec_;
      launch_elementwise((small ? broadcast_vec32_ : broadcast_vec_).get(device), device, packs,
                         {&ap, &bp, &op, &packs, &alpha, &d, &a_vec, &b_vec});
      return;
    }
    launch_elementwise((small ? broadcast32_ : broadcast_).get(device), device, n,
                       {&ap, &bp, &op, &n, &alpha, &d});
  }

 private:
  int vec_;
  WideAndNarrow same_;
  CudaFunction broadcast_, broadcast32_, broadcast_vec_, broadcast_vec32_;
};

const StaticKernelRegistration<AddCuda> kRegistration("AddFwdOp", "add_cuda");
const bool kVariants = [] {
  register_cuda_variants("add", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32}) {
      // Every entry of add.cu is in each of these sources.
      for (int vec : {wide_vector_width(d), 1})
        v.push_back(add_spec("add_same_kernel", d, vec).source());
    }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
