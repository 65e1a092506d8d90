// Float64 reference implementations, one per op, written once and shared by the tests, the
// command line (`tileops run` checks against them) and the GPU suites. They are deliberately
// naive: clear loops in double precision, independent of the optimised CPU kernels.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tileops/core/tensor.hpp"
#include "tileops/export.hpp"
#include "tileops/framework/params.hpp"

namespace tileops {

struct ReferenceResult {
  std::vector<Tensor> outputs;  // float64, one per manifest output
  std::vector<Tensor> mutated;  // float64, the new value of each mutated input, in input order
  // Multiplies the dtype's tolerance: ops that sum long products (GEMM) accumulate more
  // rounding error in fp32 than an elementwise op.
  double tolerance_scale = 1.0;
};

// Computes the reference from the op's parameters (by manifest name, defaults filled) and its
// inputs in manifest order (an undefined Tensor for an absent optional input).
using ReferenceFn =
    std::function<ReferenceResult(const ParamMap& params, std::span<const Tensor> inputs)>;

// Makes one input for tests and `tileops run` when plain uniform values in [-1, 1] would not do
// (a variance must be positive, an index must lie inside the tensor it indexes). `shapes` holds
// every input's shape of the call (nullopt for an absent optional input). Returns nullopt to use
// the default.
using InputMaker = std::function<std::optional<Tensor>(
    int input_index, const Shape& shape, DType dtype, uint64_t seed,
    std::span<const std::optional<Shape>> shapes)>;

struct ReferenceEntry {
  ReferenceFn compute;
  InputMaker make_input;  // may be empty
};

TILEOPS_API void register_reference(std::string op, ReferenceEntry entry);
TILEOPS_API const ReferenceEntry* find_reference(std::string_view op);

template <typename Unused = void>
struct StaticReferenceRegistration {
  StaticReferenceRegistration(std::string op, ReferenceEntry entry) {
    register_reference(std::move(op), std::move(entry));
  }
};

// Helpers for reference code.
TILEOPS_API std::vector<double> to_doubles(const Tensor& t);  // any CPU tensor, row-major order
TILEOPS_API Tensor from_doubles(const std::vector<double>& values,
                                const Shape& shape);  // float64 tensor
// The parameter by name with its kind; throws ValueError when missing or of another kind.
TILEOPS_API double param_double(const ParamMap& params, std::string_view name);
TILEOPS_API std::optional<double> param_optional_double(const ParamMap& params,
                                                        std::string_view name);
TILEOPS_API int64_t param_int(const ParamMap& params, std::string_view name);
TILEOPS_API std::optional<int64_t> param_optional_int(const ParamMap& params,
                                                      std::string_view name);
TILEOPS_API bool param_bool(const ParamMap& params, std::string_view name);
TILEOPS_API std::string param_string(const ParamMap& params, std::string_view name);
TILEOPS_API IntList param_int_list(const ParamMap& params, std::string_view name);

}  // namespace tileops
