// The typed errors the op layer raises. Every message names the op, the argument, what was expected
// and what came. The Python binding maps each class to the Python exception named beside it.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "tileops/export.hpp"

namespace tileops {

class TILEOPS_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Caller passed a value that is wrong in itself (ValueError).
class TILEOPS_API ValueError : public Error {
 public:
  using Error::Error;
};

// Caller passed something of the wrong kind (TypeError).
class TILEOPS_API TypeError : public Error {
 public:
  using Error::Error;
};

// A call or construction violates the op's manifest signature. Message:
// "<Op>: argument '<name>': expected <what>, got <what came>".
class TILEOPS_API SignatureError : public ValueError {
 public:
  SignatureError(std::string_view op, std::string_view argument, std::string_view expected,
                 std::string_view got);
  const std::string& op() const { return op_; }
  const std::string& argument() const { return argument_; }

 private:
  std::string op_, argument_;
};

// A tensor of the wrong dtype (TypeError in Python).
class TILEOPS_API DTypeError : public SignatureError {
 public:
  using SignatureError::SignatureError;
};

class TILEOPS_API ShapeError : public SignatureError {
 public:
  using SignatureError::SignatureError;
};

// A construction parameter outside its declared domain.
class TILEOPS_API ParamError : public SignatureError {
 public:
  using SignatureError::SignatureError;
};

// Tensors of one call on different devices, or a device the op cannot use.
class TILEOPS_API DeviceError : public SignatureError {
 public:
  using SignatureError::SignatureError;
};

// Nothing can run this op on this device (NotImplementedError).
class TILEOPS_API OpNotAvailableError : public Error {
 public:
  using Error::Error;
};

// Dispatch found no single implementation (NotImplementedError).
class TILEOPS_API DispatchError : public Error {
 public:
  using Error::Error;
};
class TILEOPS_API NoImplementationError : public DispatchError {
 public:
  using DispatchError::DispatchError;
};
class TILEOPS_API AmbiguousDispatchError : public DispatchError {
 public:
  using DispatchError::DispatchError;
};

// Target (backend) selection and registration problems (ValueError).
class TILEOPS_API BackendError : public ValueError {
 public:
  using ValueError::ValueError;
};
class TILEOPS_API UnknownTargetError : public BackendError {
 public:
  using BackendError::BackendError;
};
class TILEOPS_API AmbiguousTargetError : public BackendError {
 public:
  using BackendError::BackendError;
};

// An op class, kernel or sub-op broke a rule of the op layer (a bug in that code, not the
// caller's).
class TILEOPS_API ContractError : public Error {
 public:
  using Error::Error;
};

// A runtime failure below the op layer (driver, compiler, allocation).
class TILEOPS_API RuntimeError : public Error {
 public:
  using Error::Error;
};

[[noreturn]] TILEOPS_API void throw_internal(std::string_view what);

}  // namespace tileops
