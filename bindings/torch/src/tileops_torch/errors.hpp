// tileops errors as the torch exceptions that reach Python as the matching built-in exception,
// with the C++ message unchanged (docs/design/torch-binding.md, "Errors").
#pragma once

namespace tileops_torch {

// Call inside a catch block: rethrows the exception in flight, a tileops::Error as
//   DTypeError, TypeError                   -> c10::TypeError           (TypeError)
//   every other ValueError (signature,      -> c10::ValueError          (ValueError)
//     shape, parameter, device, backend)
//   OpNotAvailableError, DispatchError      -> c10::NotImplementedError (NotImplementedError)
//   ContractError, RuntimeError, the rest   -> c10::Error               (RuntimeError)
// and anything else unchanged. The message is exactly what(), with no backtrace attached.
[[noreturn]] void rethrow_for_torch();

}  // namespace tileops_torch
