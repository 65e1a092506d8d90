// The eager fast path (docs/design/torch-binding.md, "The eager fast path"): what the CPython
// extension tileops_torch._fast_call needs from libtileops_torch to run an op without torch's
// dispatcher. libtileops_torch hands the extension this table through
// torch.ops.tileops._fast_call_api, so the extension never links the library and always reaches
// the copy torch loaded. Only torch headers are included here: the extension is built against
// torch's full include directory, whose bundled fmt tileops headers must not see.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>

namespace tileops_torch {

// One op object's call: the op class, its construction parameters and its target.
class FastCall;

struct FastCallApi {
  static constexpr uint32_t kVersion = 1;
  uint32_t version;  // kVersion of the library that filled the table
  uint32_t size;     // sizeof(FastCallApi) there
  // The call of op class `op` ("RMSNormFwdOp") with `params_and_target` (the schema's parameter
  // values in order, then the target); null, with the reason in *why, when its calls must take
  // the dispatcher (an unknown op, values the instance cache cannot key).
  FastCall* (*bind)(const char* op, std::vector<c10::IValue> params_and_target, std::string* why);
  void (*release)(FastCall* call);
  // Runs the op on `inputs` (schema order; an undefined tensor for an absent optional one) into
  // new outputs, as the op's boxed kernel would. Returns false, having done nothing, when the
  // call must take the dispatcher instead: a dispatch or torch-function mode is active, a key is
  // in the thread's included set (vmap, tracing), an input needs autograd or is of a kind the
  // dispatcher would route elsewhere (a subclass's keys, sparse, meta, conjugate), or the op
  // raised, in which case the dispatcher's run raises the same error.
  bool (*run)(FastCall* call, const at::Tensor* inputs, size_t count,
              std::vector<at::Tensor>* outputs);
};

}  // namespace tileops_torch
