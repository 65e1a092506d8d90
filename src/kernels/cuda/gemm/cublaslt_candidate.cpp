#include "kernels/cuda/gemm/cublaslt_candidate.hpp"

#include <cstdlib>
#include <cstring>

#include "runtime/cuda/driver_api.hpp"
#include "tileops/core/error.hpp"
#include "tileops/runtime/cuda.hpp"

namespace tileops::cuda {

bool cublaslt_switched_off() {
  const char* v = std::getenv("TILEOPS_CUBLASLT");
  return v != nullptr && (std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0);
}

LtGemmShape lt_shape_of(const GemmCall& call) {
  LtGemmShape s;
  s.dtype = call.dtype;
  s.batch = call.batch;
  s.m = call.m;
  s.n = call.n;
  s.k = call.k;
  s.trans_a = call.trans_a;
  s.trans_b = call.trans_b;
  s.bias = call.bias;
  s.residual = call.residual;
  return s;
}

bool CublasLtCandidate::offered(bool gated) {
  return !gated && !cublaslt_switched_off() && cublaslt_available();
}

const LtGemmPlan* CublasLtCandidate::plan(const GemmCall& call) {
  const Key key{static_cast<int64_t>(call.dtype),
                call.batch,
                call.m,
                call.n,
                call.k,
                call.trans_a,
                call.trans_b,
                call.bias,
                call.residual};
  std::lock_guard lock(mutex_);
  auto [it, made] = plans_.try_emplace(key);
  if (made) {
    try {
      make_device_current(call.device.index);  // the heuristic reads the current device
      it->second = std::make_unique<LtGemmPlan>(lt_shape_of(call));
    } catch (const RuntimeError&) {
      // No plan: kept as null, so the shape is not asked again.
    }
  }
  return it->second.get();
}

int64_t CublasLtCandidate::workspace_bytes(const GemmCall& call) {
  const LtGemmPlan* p = plan(call);
  return p != nullptr ? static_cast<int64_t>(p->workspace_bytes()) : 0;
}

void CublasLtCandidate::enqueue(const GemmCall& call, const void* a, const void* b, void* d,
                                const void* bias, const void* residual, void* workspace,
                                int device) {
  const LtGemmPlan* p = plan(call);
  if (p == nullptr) throw RuntimeError("cuBLASLt has no algorithm for " + call.describe());
  if ((reinterpret_cast<uintptr_t>(d) | reinterpret_cast<uintptr_t>(residual)) % 16 != 0) {
    throw RuntimeError("cuBLASLt candidate: the output or residual is off a 16-byte boundary");
  }
  if (p->workspace_bytes() > 0 && workspace == nullptr) {
    throw RuntimeError("cuBLASLt candidate: no workspace for its plan");
  }
  p->run(a, b, d, bias, residual, workspace, static_cast<void*>(current_stream(device)));
}

}  // namespace tileops::cuda
