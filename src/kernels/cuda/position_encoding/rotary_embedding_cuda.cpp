// RotaryEmbeddingFwdOp on CUDA: three implementations, chosen by dispatch.
// `rotary_embedding_pairs_cuda` (general) spreads the rotated pairs of every token over the whole
// grid, so one decode token still fills many blocks; `rotary_embedding_flat_vec_cuda` (preferred)
// spreads 16-byte items over the whole grid where the tensors' alignment and the dims allow and a
// call has 4096 items or more; `rotary_embedding_tokens_cuda` gives each token of a prefill-sized
// call off the 16-byte access a block that reads its cache row once into shared memory. One
// specialisation each per (query dtype, cache dtype, position dtype, pairing), built on first
// use. Measured on the H200: docs/perf/h200-narrow-staged-2026-12-07.
#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "kernels/cuda/common/elementwise_launch.hpp"
#include "kernels/cuda/cuda_kernel.hpp"
#include "tileops/framework/implementation.hpp"
#include "tileops/ops/position_encoding/rotary_embedding_fwd_op.hpp"

namespace tileops::cuda {
namespace {

KernelSpec rotary_spec(const char* file, const char* entry, DType dtype, DType cache,
                       DType positions, bool neox) {
  return KernelSpec(file, entry,
                    {KernelConstant::type_of("T", cuda_type(dtype)),
                     KernelConstant::type_of("C", cuda_type(cache)),
                     KernelConstant::type_of("P", positions == DType::kInt32 ? "i32" : "i64"),
                     KernelConstant::boolean("IS_NEOX", neox)});
}
KernelSpec pairs_spec(DType dtype, DType cache, DType positions, bool neox) {
  return rotary_spec("position_encoding/rotary_pairs.cu", "rotary_pairs_kernel", dtype, cache,
                     positions, neox);
}
KernelSpec tokens_spec(DType dtype, DType cache, DType positions, bool neox) {
  return rotary_spec("position_encoding/rotary_tokens.cu", "rotary_tokens_kernel", dtype, cache,
                     positions, neox);
}
KernelSpec flat_vec_spec(DType dtype, DType cache, DType positions, bool neox) {
  return rotary_spec("position_encoding/rotary_flat_vec.cu", "rotary_flat_vec_kernel", dtype, cache,
                     positions, neox);
}

// The kernels' arguments, in their order.
struct RotaryArgs {
  const void *positions, *query, *key, *cache;
  void *query_out, *key_out;
  int64_t tokens, max_position;
  int query_heads, key_heads, head_dim, rotary_dim;
  int copy_rest;  // in place, the passed-through dims are already where they belong

  RotaryArgs(const RotaryEmbeddingCall& call, const Tensor& p, const Tensor& q, const Tensor& k,
             const Tensor& c, const Tensor& qo, const Tensor& ko)
      : positions(p.data()),
        query(q.data()),
        key(k.data()),
        cache(c.data()),
        query_out(qo.data()),
        key_out(ko.data()),
        tokens(call.tokens),
        max_position(call.max_position),
        query_heads(static_cast<int>(call.query_heads)),
        key_heads(static_cast<int>(call.key_heads)),
        head_dim(static_cast<int>(call.head_dim)),
        rotary_dim(static_cast<int>(call.rotary_dim)),
        copy_rest((query_out != query || key_out != key) && rotary_dim < head_dim ? 1 : 0) {}

  // The argument pointers every rotary kernel takes, in its parameter order.
  std::array<void*, 13> pointers() {
    return {&positions,   &query,     &key,      &cache,      &query_out,    &key_out,  &tokens,
            &query_heads, &key_heads, &head_dim, &rotary_dim, &max_position, &copy_rest};
  }
};

// The build and registration facts both implementations share: one entry per specialisation.
template <typename Derived>
class RotaryCuda : public RotaryEmbeddingKernel {
 public:
  using Interface = RotaryEmbeddingKernel;
  static constexpr DeviceType devices[] = {kCUDA};

  static BuildPlan entry_for(const RotaryEmbeddingCall& call, const DeviceFacts&) {
    const DType d = call.dtype, c = call.cache_dtype, p = call.position_dtype;
    const bool neox = call.is_neox;
    return {fmt::format("{},{},{},{}", dtype_name(d), dtype_name(c), dtype_name(p), neox),
            [=] { return std::make_unique<Derived>(d, c, p, neox); }};
  }
};

class RotaryPairsCuda final : public RotaryCuda<RotaryPairsCuda> {
 public:
  static constexpr bool general = true;

  static std::optional<std::string> refusal(const RotaryEmbeddingCall& call, const DeviceFacts&) {
    if (call.query_heads + call.key_heads >= (int64_t{1} << 31) ||
        call.head_dim >= (int64_t{1} << 31)) {
      return std::string("heads or head_dim reach 2^31");  // ints in the kernel
    }
    return std::nullopt;
  }

  RotaryPairsCuda(DType dtype, DType cache, DType positions, bool neox)
      : fn_(pairs_spec(dtype, cache, positions, neox)) {}

  void run(const RotaryEmbeddingCall& call, const Tensor& positions, const Tensor& query,
           const Tensor& key, const Tensor& cos_sin_cache, const Tensor& query_out,
           const Tensor& key_out) override {
    if (call.tokens == 0) return;
    const int device = device_of(query);
    RotaryArgs a(call, positions, query, key, cos_sin_cache, query_out, key_out);
    const int64_t per_head = a.rotary_dim / 2 + (a.copy_rest ? a.head_dim - a.rotary_dim : 0);
    const auto args = a.pointers();
    launch_elementwise(fn_.get(device), device, a.tokens * (a.query_heads + a.key_heads) * per_head,
                       args);
  }

 private:
  CudaFunction fn_;
};

// Tokens at and above which a block per token fills the device: 4 blocks of 256 threads an SM.
constexpr int64_t kTokensPerSm = 4;

// A block per token (grid-strided past 65535 tokens), 256 threads, the cache row in shared
// memory, for prefill-sized calls the flat kernel refuses.
class RotaryTokensCuda final : public RotaryCuda<RotaryTokensCuda> {
 public:
  static std::optional<std::string> refusal(const RotaryEmbeddingCall& call,
                                            const DeviceFacts& facts) {
    if (call.tokens < kTokensPerSm * facts.sm_count) {
      return fmt::format(
          "{} tokens: under {} a block per token leaves SMs idle (a decode step's few tokens "
          "are spread over pairs)",
          call.tokens, kTokensPerSm * facts.sm_count);
    }
    if ((call.query_heads + call.key_heads) * call.head_dim >= (int64_t{1} << 31)) {
      return std::string("a token's heads x head_dim reach 2^31");  // ints in the kernel
    }
    if (call.rotary_dim * 4 > 48 * 1024) {
      return fmt::format("rotary_dim {}: its cache row does not fit 48 KiB of shared memory",
                         call.rotary_dim);
    }
    return std::nullopt;
  }

  RotaryTokensCuda(DType dtype, DType cache, DType positions, bool neox)
      : fn_(tokens_spec(dtype, cache, positions, neox)) {}

  void run(const RotaryEmbeddingCall& call, const Tensor& positions, const Tensor& query,
           const Tensor& key, const Tensor& cos_sin_cache, const Tensor& query_out,
           const Tensor& key_out) override {
    if (call.tokens == 0) return;
    const int device = device_of(query);
    RotaryArgs a(call, positions, query, key, cos_sin_cache, query_out, key_out);
    const unsigned blocks = static_cast<unsigned>(std::min<int64_t>(a.tokens, 65535));
    const auto args = a.pointers();
    launch(fn_.get(device), device, blocks, 1, 256,
           static_cast<unsigned>(a.rotary_dim * sizeof(float)), args);
  }

 private:
  CudaFunction fn_;
};

// Elements of T in one 16-byte access.
int64_t vec_of(DType dtype) {
  return 16 / static_cast<int64_t>(dtype_size(dtype));
}

// The rotated span a 16-byte item walks: NeoX rotates x[i] with x[i + R/2], so each half of R
// in whole accesses; GPT-J pairs neighbours, so R in whole accesses.
int64_t rotated_span(const RotaryEmbeddingCall& call) {
  return call.is_neox ? call.rotary_dim / 2 : call.rotary_dim;
}

// Why 16-byte items do not fit the call, or nullopt.
std::optional<std::string> sixteen_byte_refusal(const RotaryEmbeddingCall& call) {
  if (!call.aligned16) {
    return std::string("query, key or an output does not start on 16 bytes");
  }
  const int64_t vec = vec_of(call.dtype);
  if (call.head_dim % vec != 0) {
    return fmt::format("head_dim {} is not a multiple of {}, the {} elements of a 16-byte access",
                       call.head_dim, vec, dtype_name(call.dtype));
  }
  if (rotated_span(call) % vec != 0) {
    return fmt::format("rotary_dim {} does not split into {}-element accesses ({} pairing)",
                       call.rotary_dim, vec, call.is_neox ? "NeoX" : "GPT-J");
  }
  return std::nullopt;
}

// 16-byte items over the whole grid, each reading its cos and sin from the cache row itself: no
// block waits for a token's row, so the loads of query and key are all in flight at once.
class RotaryFlatVecCuda final : public RotaryCuda<RotaryFlatVecCuda> {
 public:
  static constexpr std::string_view preferred_over[] = {"rotary_embedding_tokens_cuda"};

  // Calls of fewer items ran faster on the pairs kernel, a thread a pair: llama-8b decode (one
  // token, 320 items) 2.0 us against 2.1-2.2; 64 tokens (20480 items) 3.2 against 2.7 here, on
  // the H200 (docs/perf/h200-narrow-staged-2026-12-07). Between them it was not measured.
  static constexpr int64_t kMinItems = 4096;

  static std::optional<std::string> refusal(const RotaryEmbeddingCall& call, const DeviceFacts&) {
    if (auto why = sixteen_byte_refusal(call)) return why;
    // A head's items are counted in ints in the kernel.
    if (call.head_dim >= (int64_t{1} << 31)) return std::string("head_dim reaches 2^31");
    if (const int64_t items = item_count(call, true); items < kMinItems) {
      return fmt::format(
          "{} 16-byte items (under {}): the pairs kernel, a thread a pair, was faster on calls "
          "this small",
          items, kMinItems);
    }
    return std::nullopt;
  }

  // The kernel's items: every head's rotated 16-byte groups, and its passed-through ones when
  // copied (copy_rest: not in place).
  static int64_t item_count(const RotaryEmbeddingCall& call, bool copy_rest) {
    const int64_t vec = vec_of(call.dtype);
    const int64_t per_head =
        rotated_span(call) / vec + (copy_rest ? (call.head_dim - call.rotary_dim) / vec : 0);
    return call.tokens * (call.query_heads + call.key_heads) * per_head;
  }

  RotaryFlatVecCuda(DType dtype, DType cache, DType positions, bool neox)
      : cache_pack_bytes_(static_cast<uintptr_t>(neox ? vec_of(dtype) : vec_of(dtype) / 2) *
                          dtype_size(cache)),
        fn_(flat_vec_spec(dtype, cache, positions, neox)) {}

  void run(const RotaryEmbeddingCall& call, const Tensor& positions, const Tensor& query,
           const Tensor& key, const Tensor& cos_sin_cache, const Tensor& query_out,
           const Tensor& key_out) override {
    if (call.tokens == 0) return;
    const int device = device_of(query);
    RotaryArgs a(call, positions, query, key, cos_sin_cache, query_out, key_out);
    // An item's cos (and its sin) are one pack of the cache wherever the cache starts on one: the
    // rows and the items' offsets in them are whole packs (sixteen_byte_refusal).
    int cache_packed = reinterpret_cast<uintptr_t>(a.cache) % cache_pack_bytes_ == 0 ? 1 : 0;
    const auto base = a.pointers();
    std::array<void*, std::tuple_size_v<decltype(base)> + 1> args{};
    std::copy(base.begin(), base.end(), args.begin());
    args.back() = &cache_packed;
    launch_elementwise(fn_.get(device), device, item_count(call, a.copy_rest != 0), args);
  }

 private:
  uintptr_t cache_pack_bytes_;
  CudaFunction fn_;
};

const StaticKernelRegistration<RotaryPairsCuda> kPairs("RotaryEmbeddingFwdOp",
                                                       "rotary_embedding_pairs_cuda");
const StaticKernelRegistration<RotaryTokensCuda> kTokens("RotaryEmbeddingFwdOp",
                                                         "rotary_embedding_tokens_cuda");
const StaticKernelRegistration<RotaryFlatVecCuda> kFlatVec("RotaryEmbeddingFwdOp",
                                                           "rotary_embedding_flat_vec_cuda");
const bool kVariants = [] {
  register_cuda_variants("rotary_embedding", [] {
    std::vector<KernelSource> v;
    for (DType d : {DType::kFloat16, DType::kBFloat16, DType::kFloat32})
      for (DType c : {DType::kFloat16, DType::kBFloat16, DType::kFloat32})
        for (DType p : {DType::kInt32, DType::kInt64})
          for (bool neox : {true, false}) {
            v.push_back(pairs_spec(d, c, p, neox).source());
            v.push_back(tokens_spec(d, c, p, neox).source());
            v.push_back(flat_vec_spec(d, c, p, neox).source());
          }
    return v;
  });
  return true;
}();

}  // namespace
}  // namespace tileops::cuda
