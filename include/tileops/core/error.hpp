// The typed errors the op layer raises. Every message names the op, the argument, what was expected
// and what came. The Python binding maps each class to the Python exception named beside it.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace tileops {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Caller passed a value that is wrong in itself (ValueError).
class ValueError : public Error {
 public:
  using Error::Error;
};

// Caller passed something of the wrong kind (TypeError).
class TypeError : public Error {
 public:
  using Error::Error;
};

// A call or construction violates the op's manifest signature. Message:
// "<Op>: argument '<name>': expected <what>, got <what came>".
class SignatureError : public ValueError {
 public:
  SignatureError(std::string_view op, std::string_view argument, std::string_view expected,
                 std::string_view got);
  const std::string& op() const { return op_; }
  const std::string& argument() const { return argument_; }

 private:
  std::string op_, argument_;
};

// A tensor of the wrong dtype (TypeError in Python).
class DTypeError : public SignatureError {
 public:
  using SignatureError::SignatureError;
};

class ShapeError : public SignatureError {
 public:
  using SignatureError::SignatureError;
};

// A construction parameter outside its declared domain.
class ParamError : public SignatureError {
 public:
  using SignatureError::SignatureError;
};

// Tensors of one call on different devices, or a device the op cannot use.
class DeviceError : public SignatureError {
 public:
  using SignatureError::SignatureError;
};

// Nothing can run this op on this device (NotImplementedError).
class OpNotAvailableError : public Error {
 public:
  using Error::Error;
};

// Dispatch found no single implementation (NotImplementedError).
class DispatchError : public Error {
 public:
  using Error::Error;
};
class NoImplementationError : public DispatchError {
 public:
  using DispatchError::DispatchError;
};
class AmbiguousDispatchError : public DispatchError {
 public:
  using DispatchError::DispatchError;
};

// Target (backend) selection and registration problems (ValueError).
class BackendError : public ValueError {
 public:
  using ValueError::ValueError;
};
class UnknownTargetError : public BackendError {
 public:
  using BackendError::BackendError;
};
class AmbiguousTargetError : public BackendError {
 public:
  using BackendError::BackendError;
};

// An op class, kernel or sub-op broke a rule of the op layer (a bug in that code, not the
// caller's).
class ContractError : public Error {
 public:
  using Error::Error;
};

// A runtime failure below the op layer (driver, compiler, allocation).
class RuntimeError : public Error {
 public:
  using Error::Error;
};

[[noreturn]] void throw_internal(std::string_view what);

}  // namespace tileops
