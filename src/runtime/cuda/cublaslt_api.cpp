#include "runtime/cuda/cublaslt_api.hpp"

#include <dlfcn.h>

#include <mutex>

#include <fmt/format.h>

#include "tileops/core/error.hpp"

namespace tileops::cuda {
namespace {

// The few cuBLASLt types and enum values used here, as the CUDA 12/13 headers define them (the
// headers are not needed to build).
using Status = int;
using Handle = struct cublasLtContext*;
using MatmulDesc = struct cublasLtMatmulDescOpaque*;
using Layout = struct cublasLtMatrixLayoutOpaque*;
using Preference = struct cublasLtMatmulPreferenceOpaque*;
struct Algo {
  uint64_t data[8];
};
struct HeuristicResult {
  Algo algo;
  size_t workspace_size;
  Status state;
  float waves_count;
  int reserved[4];
};
constexpr int kCompute32F = 68;                            // CUBLAS_COMPUTE_32F
constexpr int kRealF32 = 0, kRealF16 = 2, kRealBF16 = 14;  // cudaDataType
constexpr int kOpN = 0, kOpT = 1;                          // cublasOperation_t
constexpr int kDescTransA = 3, kDescTransB = 4, kDescEpilogue = 7, kDescBiasPointer = 8,
              kDescBiasDataType = 26;
constexpr uint32_t kEpilogueDefault = 1, kEpilogueBias = 4;
constexpr int kLayoutBatchCount = 5, kLayoutBatchStride = 6;
constexpr int kPrefMaxWorkspace = 1, kPrefReductionSchemes = 3, kPrefAlignA = 5, kPrefAlignB = 6,
              kPrefAlignC = 7, kPrefAlignD = 8;
// Split-K partial sums may only meet in fp32 (CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE; no split is
// always allowed): summing them in place in D, or in the output type, rounds each partial to
// 16 bits, which tests saw as errors of 2^-3 in bf16 outputs (the guarantee is one rounding).
constexpr uint32_t kReduceInComputeType = 2;
// What the heuristic may ask for: cuBLAS's own default on Hopper.
constexpr uint64_t kMaxWorkspace = uint64_t{32} << 20;

struct Api {
  Status (*create)(Handle*);
  const char* (*status_name)(Status);
  Status (*desc_create)(MatmulDesc*, int, int);
  Status (*desc_destroy)(MatmulDesc);
  Status (*desc_set)(MatmulDesc, int, const void*, size_t);
  Status (*layout_create)(Layout*, int, uint64_t, uint64_t, int64_t);
  Status (*layout_destroy)(Layout);
  Status (*layout_set)(Layout, int, const void*, size_t);
  Status (*pref_create)(Preference*);
  Status (*pref_destroy)(Preference);
  Status (*pref_set)(Preference, int, const void*, size_t);
  Status (*heuristic)(Handle, MatmulDesc, Layout, Layout, Layout, Layout, Preference, int,
                      HeuristicResult*, int*);
  Status (*matmul)(Handle, MatmulDesc, const void*, const void*, Layout, const void*, Layout,
                   const void*, const void*, Layout, void*, Layout, const Algo*, void*, size_t,
                   void*);
};

struct Loaded {
  Api api{};
  std::string error;
};

Loaded load() {
  Loaded l;
  void* lib = nullptr;
  for (const char* name : {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so",
                           "/usr/local/cuda/lib64/libcublasLt.so.13"}) {
    if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
  }
  if (lib == nullptr) {
    l.error = "libcublasLt.so.13 (or .12) could not be loaded";
    return l;
  }
  auto bind = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    if (fn == nullptr && l.error.empty()) l.error = fmt::format("libcublasLt lacks {}", name);
  };
  Api& a = l.api;
  bind(a.create, "cublasLtCreate");
  bind(a.status_name, "cublasLtGetStatusName");
  bind(a.desc_create, "cublasLtMatmulDescCreate");
  bind(a.desc_destroy, "cublasLtMatmulDescDestroy");
  bind(a.desc_set, "cublasLtMatmulDescSetAttribute");
  bind(a.layout_create, "cublasLtMatrixLayoutCreate");
  bind(a.layout_destroy, "cublasLtMatrixLayoutDestroy");
  bind(a.layout_set, "cublasLtMatrixLayoutSetAttribute");
  bind(a.pref_create, "cublasLtMatmulPreferenceCreate");
  bind(a.pref_destroy, "cublasLtMatmulPreferenceDestroy");
  bind(a.pref_set, "cublasLtMatmulPreferenceSetAttribute");
  bind(a.heuristic, "cublasLtMatmulAlgoGetHeuristic");
  bind(a.matmul, "cublasLtMatmul");
  return l;
}

const Loaded& loaded() {
  static const Loaded l = load();
  return l;
}

void check(Status s, const char* what);

const Loaded& require() {
  const Loaded& l = loaded();
  if (!l.error.empty()) throw RuntimeError("cuBLASLt: " + l.error);
  return l;
}

// The process-wide handle, made on first use: only a plan (a call on a GPU) asks for it, so a
// machine without a GPU never initialises cuBLASLt (whose failed initialisation leaks).
Handle handle() {
  static const Handle h = [] {
    Handle made = nullptr;
    check(require().api.create(&made), "cublasLtCreate");
    return made;
  }();
  return h;
}

void check(Status s, const char* what) {
  if (s != 0) {
    throw RuntimeError(fmt::format("cuBLASLt: {} failed: {}", what, loaded().api.status_name(s)));
  }
}

int data_type(DType dtype) {
  switch (dtype) {
    case DType::kBFloat16:
      return kRealBF16;
    case DType::kFloat16:
      return kRealF16;
    case DType::kFloat32:
      return kRealF32;
    default:
      throw RuntimeError(fmt::format("cuBLASLt: dtype {} is not served", dtype_name(dtype)));
  }
}

// The alignment every column and problem of a matrix starts on: the largest power of two, at most
// pointer_alignment, dividing the leading dimension's and the batch stride's bytes.
uint32_t matrix_alignment(int pointer_alignment, int64_t ld, int64_t problem_elements,
                          size_t element_size) {
  uint32_t align = static_cast<uint32_t>(pointer_alignment);
  for (int64_t elements : {ld, problem_elements}) {
    const uint64_t bytes = static_cast<uint64_t>(elements) * element_size;
    while (align > element_size && bytes % align != 0) align /= 2;
  }
  return align;
}

}  // namespace

bool cublaslt_available() noexcept {
  return loaded().error.empty();
}

std::string cublaslt_unavailable_reason() {
  return loaded().error;
}

struct LtGemmPlan::Descriptors {
  MatmulDesc matmul = nullptr;
  Layout a = nullptr, b = nullptr, c = nullptr, d = nullptr;
  HeuristicResult choice{};
  bool bias = false, residual = false;
  // The bias pointer is an attribute of the shared descriptor: set and enqueue under this.
  std::mutex bias_mutex;

  ~Descriptors() {
    const Api& api = loaded().api;
    for (Layout l : {a, b, c, d}) {
      if (l != nullptr) api.layout_destroy(l);
    }
    if (matmul != nullptr) api.desc_destroy(matmul);
  }
};

// Row-major d[m, n] is column-major d^T[n, m] = op(b)^T op(a)^T, so cuBLASLt's A is our b and
// its B our a; a stored operand is its own transpose read column-major, which flips each
// transpose flag.
LtGemmPlan::LtGemmPlan(const LtGemmShape& s) : desc_(std::make_unique<Descriptors>()) {
  const Loaded& l = require();
  const Api& api = l.api;
  const int type = data_type(s.dtype);
  Descriptors& d = *desc_;
  d.bias = s.bias;
  d.residual = s.residual;
  check(api.desc_create(&d.matmul, kCompute32F, kRealF32), "cublasLtMatmulDescCreate");
  const int op_a = s.trans_b ? kOpT : kOpN;  // cuBLASLt's A: our b
  const int op_b = s.trans_a ? kOpT : kOpN;  // cuBLASLt's B: our a
  check(api.desc_set(d.matmul, kDescTransA, &op_a, sizeof op_a), "set TRANSA");
  check(api.desc_set(d.matmul, kDescTransB, &op_b, sizeof op_b), "set TRANSB");
  const uint32_t epilogue = s.bias ? kEpilogueBias : kEpilogueDefault;
  check(api.desc_set(d.matmul, kDescEpilogue, &epilogue, sizeof epilogue), "set EPILOGUE");
  if (s.bias) check(api.desc_set(d.matmul, kDescBiasDataType, &type, sizeof type), "set bias type");

  auto layout = [&](Layout& out, int64_t rows, int64_t cols, int64_t problem_elements) {
    check(api.layout_create(&out, type, static_cast<uint64_t>(rows), static_cast<uint64_t>(cols),
                            rows),
          "cublasLtMatrixLayoutCreate");
    const int32_t count = static_cast<int32_t>(s.batch);
    check(api.layout_set(out, kLayoutBatchCount, &count, sizeof count), "set BATCH_COUNT");
    check(api.layout_set(out, kLayoutBatchStride, &problem_elements, sizeof problem_elements),
          "set STRIDED_BATCH_OFFSET");
  };
  // Column-major shapes as stored: b is [n, k] row-major (trans_b) = k x n column-major.
  layout(d.a, s.trans_b ? s.k : s.n, s.trans_b ? s.n : s.k, s.n * s.k);
  layout(d.b, s.trans_a ? s.m : s.k, s.trans_a ? s.k : s.m, s.m * s.k);
  layout(d.c, s.n, s.m, s.m * s.n);
  layout(d.d, s.n, s.m, s.m * s.n);

  Preference pref = nullptr;
  check(api.pref_create(&pref), "cublasLtMatmulPreferenceCreate");
  struct PrefGuard {
    const Api& api;
    Preference p;
    ~PrefGuard() { api.pref_destroy(p); }
  } guard{api, pref};
  const size_t es = dtype_size(s.dtype);
  const uint32_t align_a =
      matrix_alignment(s.operand_alignment, s.trans_b ? s.k : s.n, s.n * s.k, es);
  const uint32_t align_b =
      matrix_alignment(s.operand_alignment, s.trans_a ? s.m : s.k, s.m * s.k, es);
  const uint32_t align_cd = matrix_alignment(s.output_alignment, s.n, s.m * s.n, es);
  check(api.pref_set(pref, kPrefMaxWorkspace, &kMaxWorkspace, sizeof kMaxWorkspace),
        "set MAX_WORKSPACE_BYTES");
  check(
      api.pref_set(pref, kPrefReductionSchemes, &kReduceInComputeType, sizeof kReduceInComputeType),
      "set REDUCTION_SCHEME_MASK");
  check(api.pref_set(pref, kPrefAlignA, &align_a, sizeof align_a), "set MIN_ALIGNMENT_A");
  check(api.pref_set(pref, kPrefAlignB, &align_b, sizeof align_b), "set MIN_ALIGNMENT_B");
  check(api.pref_set(pref, kPrefAlignC, &align_cd, sizeof align_cd), "set MIN_ALIGNMENT_C");
  check(api.pref_set(pref, kPrefAlignD, &align_cd, sizeof align_cd), "set MIN_ALIGNMENT_D");
  int found = 0;
  check(api.heuristic(handle(), d.matmul, d.a, d.b, d.c, d.d, pref, 1, &d.choice, &found),
        "cublasLtMatmulAlgoGetHeuristic");
  if (found == 0) {
    throw RuntimeError(
        fmt::format("cuBLASLt: no algorithm for {} batch={} m={} n={} k={} trans_a={} trans_b={}",
                    dtype_name(s.dtype), s.batch, s.m, s.n, s.k, s.trans_a, s.trans_b));
  }
}

LtGemmPlan::~LtGemmPlan() = default;

size_t LtGemmPlan::workspace_bytes() const {
  return desc_->choice.workspace_size;
}

void LtGemmPlan::run(const void* a, const void* b, void* d, const void* bias, const void* residual,
                     void* workspace, void* stream) const {
  const Loaded& l = require();
  Descriptors& p = *desc_;
  std::unique_lock<std::mutex> lock(p.bias_mutex, std::defer_lock);
  if (p.bias) {
    lock.lock();
    check(l.api.desc_set(p.matmul, kDescBiasPointer, &bias, sizeof bias), "set BIAS_POINTER");
  }
  const float alpha = 1.0f, beta = p.residual ? 1.0f : 0.0f;
  const void* c = p.residual ? residual : d;
  check(l.api.matmul(handle(), p.matmul, &alpha, b, p.a, a, p.b, &beta, c, p.c, d, p.d,
                     &p.choice.algo, workspace, p.choice.workspace_size, stream),
        "cublasLtMatmul");
}

}  // namespace tileops::cuda
