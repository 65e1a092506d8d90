// A test-only library (libtileops_torch_test_hooks.so, never part of the package): raises each
// tileops error class through the binding's translation, so the tests can check what Python
// receives for every class, including those no bound op raises on a CPU.
//   torch.ops.tileops_test.raise_error(kind, parts)
// parts: [op, argument, expected, got] for the SignatureError family, [message] otherwise.
#include <string>
#include <vector>

#include <torch/library.h>

#include "tileops/core/error.hpp"
#include "tileops_torch/errors.hpp"

namespace {

[[noreturn]] void throw_tileops(const std::string& kind, const std::vector<std::string>& parts) {
  auto part = [&](size_t i) { return i < parts.size() ? parts[i] : std::string(); };
  if (kind == "SignatureError") throw tileops::SignatureError(part(0), part(1), part(2), part(3));
  if (kind == "DTypeError") throw tileops::DTypeError(part(0), part(1), part(2), part(3));
  if (kind == "ShapeError") throw tileops::ShapeError(part(0), part(1), part(2), part(3));
  if (kind == "ParamError") throw tileops::ParamError(part(0), part(1), part(2), part(3));
  if (kind == "DeviceError") throw tileops::DeviceError(part(0), part(1), part(2), part(3));
  if (kind == "ValueError") throw tileops::ValueError(part(0));
  if (kind == "TypeError") throw tileops::TypeError(part(0));
  if (kind == "OpNotAvailableError") throw tileops::OpNotAvailableError(part(0));
  if (kind == "NoImplementationError") throw tileops::NoImplementationError(part(0));
  if (kind == "AmbiguousDispatchError") throw tileops::AmbiguousDispatchError(part(0));
  if (kind == "UnknownTargetError") throw tileops::UnknownTargetError(part(0));
  if (kind == "AmbiguousTargetError") throw tileops::AmbiguousTargetError(part(0));
  if (kind == "ContractError") throw tileops::ContractError(part(0));
  if (kind == "RuntimeError") throw tileops::RuntimeError(part(0));
  throw std::invalid_argument("raise_error: unknown kind '" + kind + "'");
}

void raise_error(std::string kind, std::vector<std::string> parts) {
  try {
    throw_tileops(kind, parts);
  } catch (const tileops::Error&) {
    tileops_torch::rethrow_for_torch();
  }
}

}  // namespace

TORCH_LIBRARY(tileops_test, m) {
  m.def("raise_error(str kind, str[] parts) -> ()", &raise_error);
}
